"""A step never gets faster when work is added (engine/timing/stream_waits.py): memory-bound seconds added to every
layer's forward and backward can only lengthen the GPU's timeline, so the step, whatever waits (host, data-parallel
collectives, offloaded weights' copies) hide behind it, is at least as long. A property of the model: no figure is
fitted or compared with a measurement here."""

import pytest

from engine.scenario import as_laid_out, scenario_from_dict
from engine.timing import model, step_time
from engine.timing.host import LayerWork, exposed_host_seconds

BASE = {"gpus_per_node": 8, "precision": "amp-bf16", "method": "full", "seq_len": 2048, "checkpointing": "none"}
SCENARIOS = {
    "ddp": {**BASE, "model": "llama-3.1-8b", "gpu": "a100-80gb", "nodes": 2, "framework": "pytorch", "micro_batch": 1,
            "grad_accum": 2},
    "fsdp": {**BASE, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "nodes": 2, "framework": "torchtitan",
             "fsdp": True, "micro_batch": 1, "grad_accum": 2},
    "zero3": {**BASE, "model": "llama-3.1-8b", "gpu": "a100-80gb", "nodes": 2, "framework": "deepspeed",
              "zero_stage": 3, "micro_batch": 1, "grad_accum": 4},
    "offload": {**BASE, "model": "llama-3.1-8b", "gpu": "a100-80gb", "nodes": 1, "framework": "deepspeed",
                "zero_stage": 3, "offload": "optimizer+params", "micro_batch": 1, "grad_accum": 2},
    "megatron-pp": {**BASE, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "nodes": 4, "framework": "megatron",
                    "tp": 2, "pp": 4, "micro_batch": 1, "grad_accum": 8, "distributed_optimizer": True},
    # scenarios output_fingerprint.py drew (benchmarks/output_fingerprint.py record, seed 21: #268, #86, #1051) whose
    # step the eager RMSNorm's measured rate had shortened: Hugging Face's host ahead of the GPU beside FSDP's
    # gathers, the offloaded weights' copies, and both
    "host-fsdp": {"model": "gemma-3-4b", "gpu": "mi300x", "gpus_per_node": 4, "nodes": 2, "method": "full",
                  "precision": "amp-fp16", "optimizer": "adamw-8bit", "micro_batch": 3, "seq_len": 128,
                  "grad_accum": 3, "attention": "eager", "tp": 4, "fsdp": True},
    "host-offload": {"model": "tinyllama-1.1b", "gpu": "mi300x", "gpus_per_node": 8, "nodes": 1, "method": "freeze",
                     "precision": "amp-fp16", "micro_batch": 7, "seq_len": 128, "grad_accum": 7,
                     "checkpointing": "selective", "fsdp": True, "zero_stage": 3, "offload": "optimizer+params"},
    "host-fsdp-offload": {"model": "qwen3-1.7b", "gpu": "mi300x", "gpus_per_node": 4, "nodes": 2, "method": "freeze",
                          "precision": "amp-fp16", "optimizer": "adamw-fused", "micro_batch": 2, "seq_len": 2048,
                          "grad_accum": 5, "attention": "sdpa", "checkpointing": "full", "tp": 4,
                          "sequence_parallel": True, "fsdp": True, "offload": "optimizer+params",
                          "frozen_layers": 24, "freeze_from": "bottom"},
    # #1378: transformers' MoE block on aten's grouped-GEMM fallback, two host synchronisations per layer forward
    "host-syncs-moe": {"model": "qwen3-30b-a3b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 1, "method": "lora",
                       "precision": "bf16", "optimizer": "adamw-fused", "micro_batch": 1, "seq_len": 1000,
                       "grad_accum": 1, "attention": "flash", "tp": 8, "lora_rank": 4, "lora_targets": "all-linear"},
}


def _step_with_added_work(monkeypatch: pytest.MonkeyPatch, data: dict, share: float) -> float:
    """The step with `share` x each layer's forward matmul seconds added as memory-bound work to its forward, twice
    that to its backward (as an element-wise op's gradient reads and writes twice its forward's bytes)."""
    cost = model.layer_cost

    def more(*args, **kwargs):
        c = cost(*args, **kwargs)
        extra = share * c.gemm_fwd
        return c._replace(elem_fwd=c.elem_fwd + extra, elem_bwd=c.elem_bwd + 2 * extra)

    model.STAGE_TIME_MEMO.clear()
    with monkeypatch.context() as m:
        m.setattr(model, "layer_cost", more)
        seconds = step_time(scenario_from_dict(data)).step_seconds
    model.STAGE_TIME_MEMO.clear()
    return seconds


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_added_memory_bound_work_never_shortens_the_step(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    steps = [_step_with_added_work(monkeypatch, SCENARIOS[name], share) for share in (0.0, 0.01, 0.05, 0.2, 1.0)]
    assert steps[0] > 0
    for before, after in zip(steps, steps[1:], strict=False):
        assert after >= before * (1 - 1e-12), (name, steps)


@pytest.mark.parametrize("fused", [False, True])
def test_host_wait_falls_by_at_most_the_gpu_seconds_added(fused: bool) -> None:
    """host.exposed_host_seconds: GPU seconds added to a layer's forward and backward hide at most as many seconds of
    the host's work, also where the layer's forward synchronises more than once (transformers' MoE block on aten's
    grouped-GEMM fallback, fused False here: presets/host_overhead.json fallback_syncs_forward 2): each second of
    the layer's GPU work hides host work once, not once per synchronisation."""
    s = as_laid_out(scenario_from_dict(SCENARIOS["host-syncs-moe"]))
    added = 1e-5  # seconds per layer forward (twice that backward): small against every figure below
    for forward in (1e-5, 1e-4, 4e-4, 8e-4):  # the layer's GPU forward, host-bound to GPU-bound
        before = exposed_host_seconds(s, fused, (LayerWork(48, True, forward, 2 * forward, False, 1e-5),), 0.0)
        after = exposed_host_seconds(s, fused, (LayerWork(48, True, forward + added, 2 * (forward + added), False,
                                                          1e-5),), 0.0)
        assert 0.0 <= before - after <= 48 * 3 * added * (1 + 1e-9), (forward, before, after)
