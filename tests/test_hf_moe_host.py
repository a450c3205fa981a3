"""Host work of Hugging Face MoE layers counted per layer (presets/host_overhead.json hf_eager_layers olmoe, qwen3_moe,
mixtral, counted by validation/hf_moe_host_counts.py on transformers 5.17.0 / torch 2.11.0; engine/timing/hf_host.py
counted_moe): the attention and transformers' grouped_mm MoE block, phase by phase on the lent host, in place of the
eager launch stacks and hf_moe.py's counts (no double counting)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.hf_host import counted_moe, eager_counts
from engine.timing.host import host_figures
from engine.timing.model import step_time

MOE_TYPES = ("olmoe", "qwen3_moe", "mixtral")


def _scenario(model: str, **keys):
    return scenario_from_dict({"model": model, "gpu": "h200", "method": "full", "precision": "bf16",
                               "micro_batch": 1, "seq_len": 2048, "host_cpu": "lent-h200", **keys})


@pytest.mark.parametrize("model", ["olmoe-1b-7b", "qwen3-30b-a3b", "mixtral-8x7b"])
def test_the_moe_layer_is_counted_where_the_grouped_gemm_runs_without_a_sync(model):
    """hf_moe.py native_grouped_mm: sm_90 (H200) runs torch._grouped_mm's CUTLASS kernel; an A100 takes aten's
    per-expert fallback (a host sync per call), which the counts do not hold: the eager launch model keeps it."""
    s = _scenario(model)
    spec = resolve_model(s)
    assert spec.model_type in MOE_TYPES
    assert counted_moe(s, spec, False)
    assert not counted_moe(replace(s, gpu="a100-80gb"), spec, False)
    assert not counted_moe(s, spec, True)  # torch.compile's fused graph


def test_the_counted_moe_layer_holds_the_dense_attention_and_the_block():
    """Each MoE layer's counts exceed a Llama layer's (attention and dense MLP, the same counter) in every field but
    the modules (the dense MLP's three linears and activation against the router and the experts)."""
    table = host_figures()["hf_eager_layers"]
    llama = table["by_model_type"]["llama"]["bf16-sdpa"]["per_layer"]
    for t in MOE_TYPES:
        moe = table["by_model_type"][t]["bf16-sdpa"]["per_layer"]
        assert all(m > d for m, d, f in zip(moe, llama, table["fields"], strict=True) if f != "modules"), t


@pytest.mark.parametrize("model", ["olmoe-1b-7b", "mixtral-8x7b"])
def test_a_frozen_moe_layer_runs_no_weight_gradients(model):
    """Under LoRA the backward skips the weight gradients of the four attention projections, the router and the two
    grouped expert GEMMs (hf_moe.py frozen_backward_saved: router 1, experts 4 launches), each grouped GEMM's second
    kernel (prepare_grouped_gemm_data, aten GroupMM.cu) going with it."""
    s = _scenario(model, method="lora")
    counts = eager_counts(s, resolve_model(s))
    full = counts["per_layer"]
    assert full["backward_kernels"] - counts["frozen"]["backward_kernels"] >= 4 + 1 + 2
    assert full["backward_in_op_launches"] - counts["frozen"]["backward_in_op_launches"] == 2


def test_the_counted_moe_host_work_reaches_the_step_on_the_lent_host():
    """The lent host's loop synchronises after each phase: the counted layers' host work shows in the step where the
    eager launch stack hid it; the default host's step does not change with the host name alone."""
    s = _scenario("olmoe-1b-7b")
    plain = replace(s, host_cpu="auto")
    assert step_time(s).step_seconds > step_time(plain).step_seconds
