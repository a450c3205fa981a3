"""The regimes issue 23 named as off when it was filed (its "Why": ZeRO-3/FSDP at scale, Megatron/NeMo and torchtitan
dense, long context and context parallelism, MoE at micro-batch 1-2, GPT-OSS, expert parallelism across nodes,
MI300X, power-limited B200), each a predicate over a published run's scenario, so the accuracy report can give each
its cross-validated error beside the figures the issue quoted for it then."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..frameworks.defaults import defaults_for
from ..scenario import Scenario, resolve_model, scenario_from_dict
from ..timing.links import ep_ranks
from .published_throughput import Compared, source_of, summary


@dataclass(frozen=True)
class Regime:
    name: str
    when_filed: str  # what issue 23 quoted for it when it was filed (median or range of the signed error)
    holds: Callable[[Scenario, str], bool]  # (the run's scenario, its source as source_of names it)


def _megatron(s: Scenario) -> bool:
    return defaults_for(s.framework).takes_megatron_arguments  # Megatron-LM, Megatron-Core, NeMo and their recipes


def _is_moe(s: Scenario) -> bool:
    return resolve_model(s).is_moe


def _sharded(s: Scenario) -> bool:
    return s.effective_zero == 3 or bool(s.fsdp)


def _experts_across_nodes(s: Scenario) -> bool:
    # an expert-parallel group leaves the node when the consecutive ranks it spans are more than one node holds
    return _is_moe(s) and s.ep > 1 and ep_ranks(s)[0] > s.gpus_per_node


REGIMES = (
    Regime("ZeRO-3 / FSDP", "flat where measured falls (strong scaling)", lambda s, _src: _sharded(s)),
    Regime("ZeRO-3 / FSDP on more than 64 GPUs", "flat where measured halves per doubling",
           lambda s, _src: _sharded(s) and s.world_size > 64),
    Regime("Megatron / NeMo dense", "+20..+45% (NeMo 24.x)", lambda s, _src: _megatron(s) and not _is_moe(s)),
    # the torchtitan figures were torchtitan's own benchmark documents
    Regime("torchtitan's benchmarks, dense", "+22..+38%", lambda s, src: src == "pytorch/torchtitan" and not _is_moe(s)),
    Regime("sequence 16K tokens or more", "+26% at 4K growing to +65% at 1M", lambda s, _src: s.seq_len >= 16384),
    Regime("context parallelism (CP > 1)", "CP ring treated as nearly free", lambda s, _src: s.cp > 1),
    Regime("MoE at micro-batch 1-2", "+30..+270%", lambda s, _src: _is_moe(s) and s.micro_batch <= 2),
    Regime("GPT-OSS", "+100..+330%", lambda s, _src: "gpt-oss" in resolve_model(s).name.lower()),
    Regime("expert parallelism across nodes", "-25..-56%", lambda s, _src: _experts_across_nodes(s)),
    Regime("MI300X / MI325X", "+96..+208%", lambda s, _src: s.gpu in ("mi300x", "mi325x")),
    Regime("power-limited B200 (750 W)", "+165..+224%", lambda s, _src: s.gpu == "b200-750w"),
)


def regime_summary(rows: list[dict[str, Any]], compared: list[Compared]) -> dict[str, dict[str, Any]]:
    """{regime name: summary figures of its rows (rows, median, p90, median_signed, mean_signed) and when_filed};
    a regime without rows is left out. `compared` holds the rows' comparisons, matched by row id."""
    by_id = {c.id: c for c in compared}
    runs = [(scenario_from_dict(row["scenario"]), source_of(row), by_id[row["id"]]) for row in rows if row["id"] in by_id]
    out: dict[str, dict[str, Any]] = {}
    for regime in REGIMES:
        members = [c for s, source, c in runs if regime.holds(s, source)]
        if members:
            out[regime.name] = {**summary(members)["all"], "when_filed": regime.when_filed}
    return out
