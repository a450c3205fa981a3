"""Count the host work of one Hugging Face eager training step of an MoE model (OLMoE, Qwen3-MoE, Mixtral), per decoder
layer (attention and transformers' MoE block) and per step, as validation/hf_host_counts.py does for dense layers.

Runs the real transformers 5.17.0 modeling code (models/olmoe, qwen3_moe, mixtral modeling_*.py; the experts through
integrations/moe.py grouped_mm_experts_forward, the implementation a model built with from_config runs) on the CPU
with torch 2.11.0 at tiny widths, at 2 and 4 layers. torch 2.11 has a CPU kernel of torch._grouped_mm, so the CPU
runs the grouped path the H200 runs (transformers' _can_use_grouped_mm), one ATen operator per grouped GEMM. Some of
these operators launch more than one kernel on CUDA, from C++ (no Python, no dispatch of their own): IN_OP_LAUNCHES
counts those launches beyond the first (presets/host_overhead.json transformers_moe _source: torch.sort's radix sort
of 64-bit keys 11, histc 2, topk 2, _grouped_mm 2 (prepare_grouped_gemm_data, the CUTLASS grouped GEMM); an index
backward's index_put with accumulate sorts its indices: arange, sort, accumulate 3).

Besides FIELDS, each entry records in_op_launches (forward, backward) and frozen_backward (backward kernels, views and
in-op launches per layer with every weight of the layers frozen, as under LoRA: the input gradient still flows).

    python -m validation.hf_moe_host_counts olmoe-1b-7b:bf16:sdpa qwen3-30b-a3b:bf16:sdpa mixtral-8x7b:bf16:sdpa
"""

from __future__ import annotations

import collections
import contextlib
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.hf_host_counts import FIELDS, counters  # noqa: E402

IN_OP_LAUNCHES = {"aten.sort.default": 10, "aten.histc.default": 1, "aten.topk.default": 1,
                  "aten._grouped_mm.default": 1, "aten.index_put.default": 2}


_MODES: tuple[Any, Any, collections.Counter] | None = None


def _step_counts(model_key: str, precision: str, attention: str, layers: int, frozen: bool) -> dict[str, int]:
    global _MODES
    import torch

    from validation.measure import Run, build_model, make_optimizer
    from validation.scenarios import make_run

    run = make_run(model_key, precision, attention=attention, layers=layers)
    cfg = dict(run.hf_config)
    gqa = cfg.get("num_key_value_heads", cfg["num_attention_heads"]) != cfg["num_attention_heads"]
    cfg.update(hidden_size=64, intermediate_size=128, num_attention_heads=4, num_key_value_heads=2 if gqa else 4,
               vocab_size=512, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    for k, v in (("head_dim", 16), ("moe_intermediate_size", 32)):
        if k in cfg:
            cfg[k] = v
    run = Run(**{**asdict(run), "hf_config": cfg, "seq_len": 16})
    _MODES = _MODES or counters(IN_OP_LAUNCHES)
    Dispatched, Called, modules = _MODES
    torch.manual_seed(0)
    model = build_model(run, None)
    if frozen:  # LoRA's frozen base: the layers' weights take no gradient, the embedding's output still does
        model.model.layers.requires_grad_(False)
    opt = make_optimizer(run, model)
    ids = torch.randint(0, 512, (1, run.seq_len))
    amp = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if precision == "amp-bf16" else contextlib.nullcontext
    out: dict[str, int] = {}
    for _ in range(2):
        modules.clear()
        d, f = Dispatched(), Called()
        with f, d, amp():
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        out = {"python_calls": f.count["call"], "kernels": d.count["kernel"], "views": d.count["view"],
               "modules": modules["call"], "in_op": d.count["in_op"]}
        d = Dispatched()
        with d:
            loss.backward()
        out |= {"backward_kernels": d.count["kernel"], "backward_views": d.count["view"],
                "backward_in_op": d.count["in_op"]}
        opt.step()
        opt.zero_grad(set_to_none=True)
    return out


def _per_layer(model_key: str, precision: str, attention: str, frozen: bool) -> tuple[dict, dict]:
    two, four = (_step_counts(model_key, precision, attention, n, frozen) for n in (2, 4))
    layer = {k: (four[k] - two[k]) / 2 for k in two}
    return layer, {k: two[k] - 2 * layer[k] for k in two}


def counts(model_key: str, precision: str, attention: str) -> dict[str, list[float]]:
    """{"per_layer": [...], "per_step": [...]} in FIELDS order, "in_op_launches": {"per_layer": [forward,
    backward], "per_step": [...]}, "frozen_backward": [kernels, views, in-op launches] per layer."""
    layer, step = _per_layer(model_key, precision, attention, False)
    frozen, _ = _per_layer(model_key, precision, attention, True)
    return {"per_layer": [layer[k] for k in FIELDS], "per_step": [step[k] for k in FIELDS],
            "in_op_launches": {"per_layer": [layer["in_op"], layer["backward_in_op"]],
                               "per_step": [step["in_op"], step["backward_in_op"]]},
            "frozen_backward": [frozen["backward_kernels"], frozen["backward_views"], frozen["backward_in_op"]]}


def main(argv: list[str]) -> int:
    for spec in argv:
        model_key, precision, attention = spec.split(":")
        print(spec, json.dumps(counts(model_key, precision, attention)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
