"""PPO's rollout scoring as TRL's PPOTrainer runs it without a generation engine (trl v0.17.0
trl/trainer/ppo_trainer.py:425-475, the step ms-swift's PPO examples ran: swift/trainers/rlhf_trainer/ppo_trainer.py
at ae43d1bfb overrides only __init__, train and saving; the same loop at trl f2cd577 in
trl/experimental/ppo/ppo_trainer.py: output_hidden_states=True at :219, `del logits` at :704).

After generate(), the trainer loops over the rollout batch in chunks of local_rollout_forward_batch_size (64 by
default: trl/trainer/utils.py:1064 OnPolicyConfig; ms-swift swift/llm/argument/rlhf_args.py:35 at ae43d1bfb) and, per
chunk, under no_grad: the reference forward (the policy with its adapters disabled, or ref_policy) through
trl/trainer/utils.py `forward`, then the value model and the reward model through `get_reward`. Both call the model
with output_hidden_states=True (utils.py:1202, :1246), so every layer's hidden state (layers + 1 of b·s·h) is alive at
the end of the pass; `forward` returns the logits of the whole sequence (b·s·V), of which the response slice is
log-softmaxed one sequence at a time (selective_log_softmax, bf16 rows). The stacked sampling scores `logitss`
(fp32, b·r·V) stay referenced by the loop's variable until it ends (`del logits` drops only the chunk's view)."""

from __future__ import annotations

from ..memory.breakdown import Component, Moments
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from .logprobs import forward_activation_bytes

ROLLOUT_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "TRL's PPO rollout pass over a chunk of the rollout batch (no_grad, output_hidden_states): every "
    "layer's hidden state (layers + 1) x b·s·h + the fp32 sampling scores b·r·V x 4 kept by the loop + the larger "
    "of one layer's tensors and the head's (reference: the whole sequence's logits b·s·V + two response rows' "
    "log-softmax; value / reward model: one score per token)")


def rollout_forward(key: str, name: str, spec: ModelSpec, sequences: int, sequence_tokens: int, response_len: int,
                    scores_vocab: int, compute: int, tp: int, vocab_head: bool,
                    extras: tuple[tuple[str, float], ...] = ()) -> Component:
    """One rollout scoring pass of TRL's PPO over `sequences` sequences; `scores_vocab`: the policy's vocabulary (the
    stacked scores' width); `extras`: what the pass holds through the whole forward besides (FSDP/ZeRO units)."""
    tokens = sequences * sequence_tokens
    hidden_states = (spec.layers + 1) * tokens * spec.hidden * compute / tp
    scores = 4.0 * sequences * response_len * scores_vocab
    layer = forward_activation_bytes(spec, tokens, compute, tp)
    rows = compute * min(2, sequences) * response_len * spec.vocab / tp
    head = compute * tokens * spec.vocab / tp + rows if vocab_head else 4.0 * tokens
    whole = sum(v for _, v in extras)
    value = max(layer, head) + hidden_states + scores + whole
    return Component(key, name, "transient", Moments.whole_step(value), ROLLOUT_FORMULA,
                     (("sequences", sequences), ("sequence_tokens", sequence_tokens), ("response_len", response_len),
                      ("hidden_states_bytes", round(hidden_states)), ("rollout_scores_bytes", round(scores)),
                      ("activation_bytes", round(layer)), ("head_bytes", round(head)),
                      ("peak_at", "layer" if layer >= head else "head"))
                     + tuple((k, round(v)) for k, v in extras if v))
