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

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.hf_host_counts import FIELDS, step_counts  # noqa: E402

MOE_WIDTHS = (("head_dim", 16), ("moe_intermediate_size", 32))

IN_OP_LAUNCHES = {"aten.sort.default": 10, "aten.histc.default": 1, "aten.topk.default": 1,
                  "aten._grouped_mm.default": 1, "aten.index_put.default": 2}


def _per_layer(model_key: str, precision: str, attention: str, frozen: bool) -> tuple[dict, dict]:
    two, four = (step_counts(model_key, precision, attention, n, frozen=frozen, widths=MOE_WIDTHS,
                             in_op_launches=IN_OP_LAUNCHES) for n in (2, 4))
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
