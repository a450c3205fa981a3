"""Which communication kernels make a GEMM beside them wait for their end, kernel by kernel, from what each launches
(presets/efficiency.json gemm_tile_scheduler: comm_kernels, with the code each figure is read from).

A GEMM whose tiles are assigned statically to one persistent CTA per SM (gemm_tile_scheduler static_persistent:
Hopper) launched beside a kernel that holds some of the SMs it targets runs the tiles of those SMs only when that
kernel ends, unless a CTA of that kernel fits on the same SM beside the GEMM's CTA. CUTLASS's SM90 warp-specialized
GEMM CTA holds 384 threads x 168 registers (64,512 of the SM's 65,536) and shared memory filled with mainloop
stages, so what is left is 1,024 registers (4 warps at the 256-register allocation unit) and the shared memory the
stages leave. A kernel whose CTAs do not fit there, and that holds more SMs than the GEMM leaves free (its SM
margin), makes the GEMM wait; one that runs on the copy engines (no CTAs) or on SMs the GEMM is told to leave
(Transformer Engine's userbuffers, set_sm_margin) does not.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from .data import efficiency


def _table() -> dict[str, Any]:
    return efficiency()["gemm_tile_scheduler"]


def static_persistent_gemms(arch: str) -> bool:
    """Whether the GPU family's GEMMs run as persistent kernels with a static tile schedule (gemm_tile_scheduler)."""
    return arch in _table()["static_persistent"]


def co_resides(kernel: str) -> bool:
    """Whether a CTA of `kernel` fits on an SM beside one CTA of the SM90 GEMM (registers, shared memory, threads)."""
    t = _table()
    sm, gemm, k = t["sm90_limits"], t["gemm_cta_sm90"], t["comm_kernels"][kernel]
    registers_left = sm["registers"] - gemm["registers"]
    smem_left = sm["smem_bytes"] - gemm["mainloop_smem_bytes"]
    warps = -(-k["threads"] // 32)
    return (warps * sm["register_unit_per_warp"] <= registers_left and k["smem_bytes"] <= smem_left
            and k["threads"] + gemm["threads"] <= sm["threads"])


def makes_gemm_wait(kernel: str) -> bool:
    """Whether a statically scheduled persistent GEMM launched beside `kernel` waits for its end: the kernel holds
    SMs beyond the GEMM's margin and its CTAs cannot share an SM with the GEMM's."""
    k = _table()["comm_kernels"][kernel]
    return k["ctas"] > k["gemm_sm_margin"] and not co_resides(kernel)


def tail_share(held_sms: int, sms: int) -> float:
    """Compute a statically scheduled persistent GEMM of one CTA per SM loses while a kernel holds `held_sms` of its
    `sms`: the CTAs beyond the SMs left run as another wave of the GEMM's own length on the SMs its first wave frees
    (ceil(sms / (sms - held)) waves for one), so it moves at 1 / waves of its rate: 1/2 for NCCL's 16 or 24 of 132."""
    if held_sms <= 0 or sms <= 0:
        return 0.0
    if held_sms >= sms:
        return 1.0
    return 1.0 - 1.0 / -(-sms // (sms - held_sms))


def tail_share_of_gemms(shapes: tuple[tuple[float, float, float], ...], held_sms: int, sms: int) -> float:
    """tail_share over the (m, k, n) GEMMs of a window, weighted by their FLOPs: a GEMM of no more CTAs than the
    SMs left (sms - held_sms) runs them all at once and loses nothing; one of more runs its CTAs beyond them as a
    second wave of its own length (tail_share). Its CTAs are its output tiles in gemm_waves' tile (CUTLASS SM90's
    128 x 256), times the split-K slices gemm.py gives a GEMM that does not fill a wave, at most one a SM (a
    persistent grid): a Qwen2.5-0.5B q_proj weight gradient (896 x 896) is 7 x 4 = 28 tiles x 4 slices = 112 CTAs,
    inside the 116 an H100 leaves NCCL's 16 across nodes, beyond the 108 it leaves its 24 inside a node. No shapes:
    tail_share whole."""
    whole = tail_share(held_sms, sms)
    waves = efficiency()["gemm_waves"]
    tile_m, tile_n, tile_k = waves["tile_m"], waves["tile_n"], waves["tile_k"]
    total = waiting = 0.0
    for m, k, n in shapes:
        tiles = math.ceil(m / tile_m) * math.ceil(n / tile_n)
        ctas = min(tiles * max(1, min(sms // tiles, math.ceil(k / tile_k))), sms)
        flops = m * k * n
        total += flops
        waiting += flops if ctas > sms - held_sms else 0.0
    return whole * waiting / total if total else whole


@cache
def gemms_wait_beside(dispatcher: str, arch: str) -> bool:
    """Whether the GEMMs beside the all-to-all of Megatron's `dispatcher` (moe_token_dispatcher_type) on GPU family
    `arch` wait for its end: the family schedules its GEMMs statically and every kernel the dispatcher may run
    makes them wait (flex: DeepEP or HybridEP, which the scenario does not tell apart)."""
    table = _table()["dispatcher_kernels"]
    kernels = table.get(dispatcher, table["alltoall"])
    return static_persistent_gemms(arch) and all(makes_gemm_wait(k) for k in kernels)
