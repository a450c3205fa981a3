"""What one layer's cost reads from the scenario and the framework's time profile (presets/efficiency.json
frameworks): the fp8 cast recipe, how the experts' GEMMs are issued and how the MoE tokens are dispatched."""

from __future__ import annotations

from typing import Any

from ..memory.states import dtypes_for
from ..scenario import Scenario
from ..scenario.behaviour import main_grads_fp32
from .data import efficiency


def fp8_casts(s: Scenario, prof: dict[str, Any]) -> str:
    """Key of the fp8 cast figures (efficiency.json fp8_cast_bytes): the framework's fp8 library and recipe, the
    scenario's recipe where it names one; "" without fp8."""
    if s.precision != "fp8":
        return ""
    if s.fp8_recipe == "auto":
        return prof["fp8_recipe"]
    key = prof["fp8_recipe"].split("-")[0] + "-" + s.fp8_recipe
    return key if key in efficiency()["fp8_cast_bytes"] else "te-" + s.fp8_recipe


def expert_gemms(s: Scenario, prof: dict[str, Any]) -> tuple[int, float]:
    """(compute streams the framework issues one GEMM per local expert on, 0 for one grouped kernel; read + write
    bytes per element of a weight gradient accumulated into main_grad in place, 0 where it is written apart) from
    presets/efficiency.json frameworks: expert_gemm_streams, wgrad_into_main_grad."""
    accumulate = 2 * (4 if main_grads_fp32(s) else dtypes_for(s).grad) if prof.get(
        "wgrad_into_main_grad") else 0
    return int(prof.get("expert_gemm_streams", 0)), float(accumulate)


def moe_dispatch(s: Scenario, prof: dict[str, Any], nvlink_ranks: int) -> dict[str, Any]:
    """How the MoE layer's tokens are dispatched, as layer_cost's keywords: the framework's permutation kernels
    (efficiency.json frameworks moe_permutation: "megatron", or "" for the generic passes), the dispatcher, the
    NVLink domains the expert-parallel group spans (`nvlink_ranks`: GPUs per NVLink domain), and whether the
    experts receive fp32 probabilities (the flex dispatcher's HybridEP manager hands them fp32)."""
    local = max(1, min(s.ep, nvlink_ranks // (s.tp * s.cp)))  # EP ranks inside this GPU's NVLink domain
    return {"permutation": str(prof.get("moe_permutation", "")), "dispatcher": s.moe_token_dispatcher_type,
            "ep_domains": -(-s.ep // local), "fp32_probs": s.moe_token_dispatcher_type == "flex"}
