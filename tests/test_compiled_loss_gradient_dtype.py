"""The compiled cross-entropy's backward writes the logits' gradient in the dtype its input arrives in.

- torchtitan (torchtitan/components/loss.py cross_entropy_loss: F.cross_entropy(pred.float(), ...), torch.compile'd
  on its own) and OLMo-core (src/olmo_core/nn/functional/cross_entropy_loss.py: logits.float() inside the compiled
  loss) upcast inside the compiled function, whose gradient then leaves it in the compute dtype: Inductor lowers
  nll_loss_backward's zeros + scatter to a pointwise where (torch/_inductor/fx_passes/post_grad.py
  scatter_upon_const_tensor) and fuses it, the log-softmax backward and the cast into the kernel that writes the
  gradient, so backward holds the kept logits and one gradient of theirs, 2 x compute bytes per logit
  (test/inductor/test_scatter_optimization.py test_cross_entropy_loss: A100 peak 10.524 GB -> 7.227 GB with it).
- torchtune's unchunked output is cast to fp32 by the model (TransformerDecoder.unembed `self.output(h).float()`,
  torchtune/modules/transformer.py at 1814feb17a): the compiled loss keeps fp32 logits and returns an fp32 gradient,
  8 bytes per logit.
"""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows, scenario_from_dict
from engine.memory.estimate import estimate
from engine.memory.loss import loss_memory
from engine.scenario import scenario_from_dict as scenario
from engine.scenario.behaviour import behaviour

TOKENS, VOCAB, HIDDEN = 8192, 128256, 4096
BF16 = 2


def _backward_bytes_per_logit(framework: str, cross_entropy: str = "auto") -> float:
    s = scenario({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "precision": "bf16", "micro_batch": 1,
                  "seq_len": TOKENS, "framework": framework, "compile": True, "cross_entropy": cross_entropy})
    m = loss_memory(behaviour(s), TOKENS, VOCAB, HIDDEN, BF16, 1, True, BF16, compiled=True)
    return m.backward / (TOKENS * VOCAB)


def test_upcast_inside_the_compiled_loss_leaves_a_compute_dtype_gradient() -> None:
    assert _backward_bytes_per_logit("torchtitan") == 2 * BF16  # kept bf16 logits + their bf16 gradient


def test_logits_upcast_by_the_model_give_an_fp32_gradient() -> None:
    assert _backward_bytes_per_logit("torchtune", "standard") == 4 + 4  # kept fp32 logits + their fp32 gradient


def test_torchao_llama4_scout_two_layers_fits_its_b200s() -> None:
    """pytorch/ao torchao/prototype/moe_training/README.md at 36027d8: the run ran on 4 B200 (its README reports a
    max memory of 145.55 GiB for the bf16 run)."""
    rows = [r for r in load_rows() if r["id"].startswith("torchao-moe-llama4-scout-2l-4xb200")]
    assert len(rows) == 2
    for r in rows:
        assert estimate(scenario_from_dict(r["scenario"])).verdict != "does not fit", r["id"]
