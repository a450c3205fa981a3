"""Time of the policy's scoring forwards (issue 23): the old-policy log-probs and the reference's, each one forward of
the policy over the step's sequences, timed as the training time model times a forward of the same micro-batches.

A scoring pass runs the training forward's own kernels, not its matmuls alone: verl's compute_log_prob (behind
compute_ref_log_prob too) calls the actor's _forward_micro_batch, the module the update's forward runs, under no_grad,
micro-batch by micro-batch (volcengine/verl b178a3cd5 verl/workers/actor/dp_actor.py lines 418-472: `for micro_batch
in micro_batches: ... with torch.no_grad(): outputs = self._forward_micro_batch(...)`; update_policy lines 502-581
calls the same). So each pass is the stage's forward seconds per micro-batch
(engine/timing/model.py `fwd`: matmuls and attention at their rates, the element-wise and LoRA passes at memory
bandwidth, the head and the log-softmax) times the micro-batches, through the pipeline's fill where there are stages.
Measured in verl's GRPO-LoRA logs (tests/data/published/posttraining_time.json), old_log_prob + ref take a share of
update_actor (0.38-0.62), which holds a forward, a recomputed forward and a backward.

The host's work of that forward counts too where the framework runs transformers' modeling code eagerly
(presets/efficiency.json host_layers hf-eager; engine/timing/hf_host.py counted_host: every layer's Python calls,
kernels, views and module calls, PEFT's adapter path; under FSDP1 each decoder layer's own unit visit, adapter_units.py
layer_unit_visit_seconds): a micro-batch's forward takes the later of its GPU work and its host's issuing of it.
The host cannot run ahead into the next micro-batch: verl's remove-padding path starts every micro-batch with
flash-attn's unpad_input, whose `seqlens_in_batch.max().item()` waits for the GPU
(dp_actor.py line 104 at 9466d371e; flash_attn/bert_padding.py unpad_input).
"""

from __future__ import annotations

from ..scenario import Scenario, as_laid_out, resolve_model
from ..timing.data import framework_profile
from ..timing.hardware import hardware_for
from ..timing.hf_host import counted_host, counted_layers, padding_free_syncs, synced_layer_idle
from ..timing.host import layer_unit_visit_seconds
from ..timing.model import distinct_stages, rates_for, stage_time_per_micro_batch
from .rank_imbalance import longest_rank_factor
from .scoring_collectives import forward_collective_seconds
from .scoring_gathers import scoring_gather_seconds


def policy_forward_seconds(train: Scenario) -> float:
    """Seconds of one no-grad forward of the policy over every micro-batch of the step's training scenario `train`
    (engine/posttraining/estimate.py training_scenario): the busiest stage's forward per micro-batch, grad_accum times,
    plus the pipeline's fill (pp - 1 more) where the forwards run through stages, and FSDP1's weight gathers beyond
    what the forward hides (scoring_gathers.py); a padding-free micro-batch's GPU work at its longest rank's tokens
    where the framework splits by sequence count under FSDP (rank_imbalance.py)."""
    s = as_laid_out(train)
    spec, hw = resolve_model(s), hardware_for(s)
    prof = framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    eager = not (s.compile or prof["elementwise"] == "fused") and s.cuda_graphs in ("auto", "none")
    host = counted_host(s, spec) if eager and counted_layers(s) else None
    syncs = padding_free_syncs(s) if host else 0
    # each layer's own FSDP1 unit: its pre- and post-forward hooks run on the host around the layer (adapter_units.py)
    layer_host = host.layer_forward + layer_unit_visit_seconds(s, "forward") if host else 0.0
    forward = 0.0
    longest_rank = longest_rank_factor(train, scoring=True)  # a padding-free micro-batch at its longest rank's
    # tokens (verl by sequence count; by token count the passes balance: rank_imbalance.py)
    for i, r in distinct_stages(s, spec):
        stage = stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r)
        gpu = stage.fwd * longest_rank + forward_collective_seconds(stage.tp, stage.cp, stage.ep)
        if syncs:  # each layer on its own after its synchronisations (the layer's GPU share: the stage's over its layers)
            forward = max(forward, gpu + len(r) * synced_layer_idle(layer_host, gpu / len(r), syncs,
                                                                    host.round_trip))
            continue
        # the stage's layers' counted host work, and the step's own (embedding, head) where the stage holds it
        issued = len(r) * layer_host + host.step_forward if host else 0.0
        forward = max(forward, gpu, issued)
    return forward * (s.grad_accum + s.pp - 1) + scoring_gather_seconds(train, forward)


def adapter_off_forward_seconds(train: Scenario) -> float:
    """Seconds of the reference pass of a LoRA / QLoRA policy under peft's disable_adapter() (verl's
    compute_ref_log_prob with the reference in the actor, volcengine/verl 9466d371e fsdp_workers.py lines 680-690; TRL's
    reference of a peft model): peft's lora Linear.forward then returns base_layer(x), so the pass is the base model's
    forward without the adapters' matmuls, element-wise passes and host calls. LoRA: the same forward of the
    untouched base (method full's forward has the same kernels less the adapters'). QLoRA: its 4-bit base still
    dequantizes, so the adapters' share comes off as the LoRA path times it (the bf16 path's adapter kernels)."""
    if train.method == "lora":
        return policy_forward_seconds(train.with_unchecked(method="full"))
    if train.method == "qlora":
        lora = train.with_unchecked(method="lora")
        adapters = policy_forward_seconds(lora) - policy_forward_seconds(lora.with_unchecked(method="full"))
        return policy_forward_seconds(train) - max(0.0, adapters)
    return policy_forward_seconds(train)


__all__ = ["adapter_off_forward_seconds", "policy_forward_seconds"]
