"""The project's side of benchmarks/hf_layer_host_seconds.py --residual: what the model counts per decoder layer for
each measured path (engine/timing/hf_host.py eager_counts, lora_adapters.py's PEFT terms, checkpoint_host.py's),
priced at the measuring CPU's per-call prices, and the measured seconds beyond it in that CPU's view calls."""

from __future__ import annotations

import statistics
from typing import Any

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.checkpoint_host import checkpoint_host_seconds
from engine.timing.hf_host import eager_counts
from engine.timing.host import host_figures
from engine.timing.lora_adapters import adapter_host_seconds, peft_python_seconds

MODELS = {"qwen2": "qwen2.5-0.5b", "llama": "llama-3.2-1b", "gemma2": "gemma-2-2b", "olmoe": "olmoe-1b-7b",
          "qwen3_moe": "qwen3-30b-a3b", "mixtral": "mixtral-8x7b"}


def scenario(model_type: str, ckpt: bool, lora: bool, attention: str = "sdpa") -> Any:
    return scenario_from_dict({
        "model": MODELS[model_type], "gpu": "h100-sxm-80gb", "framework": "huggingface", "precision": "bf16",
        "attention": attention, "checkpointing": "full" if ckpt else "none", "method": "lora" if lora else "full",
        "lora_rank": 16, "lora_alpha": 16, "lora_targets": "all-linear", "micro_batch": 2, "seq_len": 4})


def counted(s: Any, prices: dict[str, float]) -> dict[str, float]:
    """Per-layer seconds of the model's counted calls at `prices` (hf_host.py _host_forward_backward's formula)."""
    spec = resolve_model(s)
    launch, view, module = prices["launch"], prices["view"], prices["module"]
    binding = host_figures()["optimizer_syncs"]["binding_call_share"] * view
    c = eager_counts(s, spec)["per_layer"]
    frozen = len(spec.layer_linears(False)) if s.method == "lora" else 0
    fwd = (c["python_calls"] * binding + c["kernels"] * (launch - binding) + c["views"] * (view - binding)
           + c["modules"] * module)
    bwd = (c["backward_kernels"] - frozen) * (launch - binding) + c["backward_views"] * (view - binding)
    kind = (spec.is_moe, False, "")
    fwd += adapter_host_seconds(s, kind, launch, module)[0] + peft_python_seconds(s, kind, view)
    bwd += adapter_host_seconds(s, kind, launch - binding, module)[1]
    ck_fwd, ck_bwd = checkpoint_host_seconds(s, spec, view) if s.checkpointing != "none" else (0.0, 0.0)
    # a CPU input runs none of the checkpoint's CUDA RNG calls (checkpoint_non_reentrant device_rng_calls)
    rng = host_figures()["checkpoint_non_reentrant"]["device_rng_calls"]
    if ck_fwd:
        ck_fwd, ck_bwd = ck_fwd - rng[0] * view, ck_bwd - rng[1] * view
    return {"score": fwd, "forward_grad": fwd + ck_fwd, "backward": bwd + (fwd + ck_bwd if ck_fwd else 0.0),
            "decode": fwd, "forward": fwd}


def residual(measured: dict[str, Any]) -> dict[str, Any]:
    """Per path and pass: measured and counted microseconds per layer, and (measured - counted) in view calls of the
    measuring CPU (the median of the rounds, and each round's)."""
    prices = measured["local_prices_s"]
    out: dict[str, Any] = {"local_prices_us": {k: round(v * 1e6, 3) for k, v in prices.items()}}
    for name, runs in measured["per_layer_s_runs"].items():
        model_type = name.split("-")[0]
        ckpt, lora, attention = name.endswith("-ckpt"), "-lora" in name, "eager" if "-eager" in name else "sdpa"
        model = counted(scenario(model_type, ckpt, lora, attention), prices)
        base = counted(scenario(model_type, ckpt, False, attention), prices)
        row = {}
        for phase, seconds in runs.items():
            if phase == "train":
                continue
            priced = base["score"] if phase == "score_adapter_off" else model[phase]
            views = [(x - priced) / prices["view"] for x in seconds]
            row[phase] = {"measured_us": round(statistics.median(seconds) * 1e6, 1), "counted_us": round(priced * 1e6, 1),
                          "beyond_view_calls": round(statistics.median(views), 1),
                          "rounds_view_calls": [round(v, 1) for v in views]}
        out[name] = row
    return out


def figures(result: dict[str, Any], adapted_linears: int = 7) -> dict[str, float]:
    """presets/host_overhead.json hf_layer_python's figures from a residual() result, view calls per layer (sdpa paths;
    PEFT's per adapted linear, all-linear: 7 a layer): the no-grad forward (the scoring passes), a forward under grad
    beyond it (autograd's recording), the backward, non-reentrant checkpointing's forward and backward beyond the
    checkpoint_non_reentrant table and the recompute (the layer's forward under grad again), one decode step."""
    def median(phase: str, keep: Any) -> float:
        return statistics.median(r[phase]["beyond_view_calls"] for n, r in result.items()
                                 if n != "local_prices_us" and "-fa2" not in n and phase in r and keep(n))

    shared = ("llama", "qwen2")
    result = {n: r for n, r in result.items() if n.split("-")[0] in shared}
    plain = lambda n: "-lora" not in n and not n.endswith("-ckpt")  # noqa: E731
    ckpt = lambda n: "-lora" not in n and n.endswith("-ckpt")  # noqa: E731
    lora = lambda n: "-lora" in n  # noqa: E731
    forward = median("score", lambda n: "-lora" not in n)
    grad = median("forward_grad", plain) - forward
    backward = median("backward", plain)
    ck_forward = median("forward_grad", ckpt) - forward - grad
    ck_backward = median("backward", ckpt) - backward - forward - grad
    peft_forward = (median("score", lora) - forward) / adapted_linears
    peft_grad = (median("forward_grad", lora) - median("forward_grad", ckpt)) / adapted_linears - peft_forward
    peft_backward = (median("backward", lora) - median("backward", ckpt)) / adapted_linears - peft_forward - peft_grad
    return {k: round(v, 1) for k, v in {
        "forward": forward, "grad_forward": grad, "backward": backward, "checkpoint_forward": ck_forward,
        "checkpoint_backward": ck_backward, "decode": median("decode", plain), "peft_forward": peft_forward,
        "peft_grad_forward": peft_grad, "peft_backward": peft_backward,
        "peft_adapter_off": (median("score_adapter_off", lora) - forward) / adapted_linears}.items()}


def by_model_type(result: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Each model type's own no-grad forward, forward under grad beyond it and backward (its plain path's)."""
    out = {}
    for name, r in result.items():
        if name == "local_prices_us" or name.endswith("-ckpt") or "-lora" in name or "-fa2" in name:
            continue
        forward = r["score"]["beyond_view_calls"]
        out[name.split("-")[0]] = {"forward": forward, "grad_forward": round(r["forward_grad"]["beyond_view_calls"]
                                                                             - forward, 1),
                                   "backward": r["backward"]["beyond_view_calls"]}
    return out
