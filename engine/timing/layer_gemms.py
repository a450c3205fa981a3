"""The (m, k, n) GEMMs a decoder layer runs per micro-batch, for what a collective beside them takes from them
(contention.nccl_sm_share: on Hopper only GEMMs of more CTAs than the SMs NCCL leaves lose their tail wave)."""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS  # the base weights are frozen: no weight-gradient GEMM
from .sm_residency import tail_share_of_gemms


def layer_gemms(s: Scenario, spec: ModelSpec, backward: bool = True) -> tuple[tuple[float, float, float], ...]:
    """Each dense linear's forward (tokens x d_in @ d_in x d_out on the TP rank's share), and with `backward` its
    input gradient (tokens x d_out @ d_out x d_in) and, where the weight trains, its weight gradient (d_out x tokens
    @ tokens x d_in): the micro-batch's tokens per CP rank, whole under sequence parallelism (gathered before the
    GEMM). An MoE layer gives none (its expert GEMMs, grouped, are not shaped here: the whole tail share stands)."""
    return _gemms(spec, *_shape_args(s, backward))


def layer_tail_share(s: Scenario, spec: ModelSpec, held_sms: int, sms: int, backward: bool = True) -> float:
    """sm_residency.tail_share_of_gemms over layer_gemms (cached: a search asks of the same few)."""
    return _share(spec, *_shape_args(s, backward), held_sms, sms)


def _shape_args(s: Scenario, backward: bool) -> tuple[float, int, bool, bool]:
    """(tokens per CP rank, tp, backward, weight gradients) of the scenario's layer GEMMs."""
    return s.micro_batch * s.seq_len / s.cp, s.tp, backward, backward and s.method not in ADAPTER_METHODS


@lru_cache(maxsize=1024)  # specs hash by identity
def _share(spec: ModelSpec, tokens: float, tp: int, backward: bool, wgrad: bool, held_sms: int, sms: int) -> float:
    return tail_share_of_gemms(_gemms(spec, tokens, tp, backward, wgrad), held_sms, sms)


def _gemms(spec: ModelSpec, tokens: float, tp: int, backward: bool,
           wgrad: bool) -> tuple[tuple[float, float, float], ...]:
    if spec.is_moe:
        return ()
    shapes: list[tuple[float, float, float]] = []
    for lin in spec.layer_linears(False):
        d_in, d_out = lin.split(tp)
        shapes.append((tokens, d_in, d_out))
        if backward:
            shapes.append((tokens, d_out, d_in))
        if wgrad:
            shapes.append((d_out, tokens, d_in))
    return tuple(shapes)


__all__ = ["layer_gemms", "layer_tail_share"]
