"""Hypothesis strategies that build valid scenarios by construction (issue 15): the parallel layout divides the
GPUs, the heads and the experts; offload comes with sharding; method-specific keys only with their method. Every
scenario drawn here must pass validation, so property tests spend their examples on the estimator, not on
rejections."""

from __future__ import annotations

from hypothesis import strategies as st

from engine import model_presets
from engine.models.presets import model_spec_for
from engine.scenario import ATTENTIONS, CHECKPOINTINGS, ESTIMATORS, METHODS, OPTIMIZERS, PRECISIONS

MODELS = sorted(model_presets())
GPUS = ["rtx-4090", "a100-80gb", "h100-sxm-80gb", "mi300x", "t4"]


def _divisors(n: int, limit: int | None = None) -> list[int]:
    return [d for d in range(1, (limit or n) + 1) if n % d == 0]


@st.composite
def valid_scenarios(draw: st.DrawFn, models: list[str] = MODELS) -> dict:
    model = draw(st.sampled_from(models))
    spec = model_spec_for(model)
    gpus_per_node = draw(st.sampled_from([1, 2, 4, 8]))
    nodes = draw(st.sampled_from([1, 2]))
    world = gpus_per_node * nodes
    tp = draw(st.sampled_from([t for t in _divisors(world) if spec.heads % t == 0
                               and (spec.kv_heads % t == 0 or t % spec.kv_heads == 0)
                               and (spec.mamba is None or (spec.mamba.heads % t == 0 and spec.mamba.groups % t == 0))]))
    pp = draw(st.sampled_from([p for p in _divisors(world // tp) if p <= spec.layers]))
    seq_len = draw(st.sampled_from([128, 1000, 2048, 8192, 32768]))
    cp = draw(st.sampled_from([c for c in _divisors(world // (tp * pp), 4) if seq_len % c == 0]))
    dp = world // (tp * pp * cp)
    ep = 1
    if spec.is_moe:
        ep = draw(st.sampled_from([e for e in _divisors(dp * cp) if spec.n_experts % e == 0]))
    method = draw(st.sampled_from(METHODS))
    fsdp = draw(st.booleans())
    zero_stage = 3 if fsdp and draw(st.booleans()) else (0 if fsdp else draw(st.integers(0, 3)))
    sharded = fsdp or zero_stage > 0
    offload = draw(st.sampled_from(
        ["none"] + (["optimizer"] if sharded else []) + (["optimizer+params"] if fsdp or zero_stage == 3 else [])))
    optimizer_in_backward = offload == "none" and draw(st.booleans()) and draw(st.booleans())
    data = {
        "model": model,
        "gpu": draw(st.sampled_from(GPUS)),
        "gpus_per_node": gpus_per_node,
        "nodes": nodes,
        "method": method,
        "precision": draw(st.sampled_from(PRECISIONS)),
        "optimizer": draw(st.sampled_from(OPTIMIZERS)),
        "micro_batch": draw(st.integers(1, 16)),
        "seq_len": seq_len,
        "grad_accum": 1 if optimizer_in_backward else draw(st.integers(1, 8)),
        "attention": draw(st.sampled_from(ATTENTIONS)),
        "checkpointing": draw(st.sampled_from(CHECKPOINTINGS)),
        "tp": tp,
        "pp": pp,
        "cp": cp,
        "ep": ep,
        "sequence_parallel": tp > 1 and draw(st.booleans()),
        "fsdp": fsdp,
        "zero_stage": zero_stage,
        "offload": offload,
        "optimizer_in_backward": optimizer_in_backward,
        "estimator": draw(st.sampled_from(ESTIMATORS)),
    }
    if method == "freeze":
        data["frozen_layers"] = draw(st.integers(0, spec.layers))
        data["freeze_from"] = draw(st.sampled_from(["bottom", "top"]))
    if method in ("lora", "qlora"):
        data["lora_rank"] = draw(st.sampled_from([4, 8, 16, 64]))
        data["lora_targets"] = draw(st.sampled_from(["all-linear", "attention"]))
    if pp > 1:
        schedule = draw(st.sampled_from(["1f1b", "gpipe", "interleaved-1f1b"]))
        data["pp_schedule"] = schedule
        if schedule == "interleaved-1f1b":
            data["vpp"] = draw(st.sampled_from([v for v in (1, 2, 4) if pp * v <= spec.layers]))
    return data
