"""The regimes issue 23 named as off when it was filed (its "Why": ZeRO-3/FSDP at scale, Megatron/NeMo and torchtitan
dense, long context and context parallelism, MoE at micro-batch 1-2, GPT-OSS, expert parallelism across nodes,
MI300X, power-limited B200), each a predicate over a published run's scenario, so the accuracy report can give each
its cross-validated error beside the figures the issue quoted for it then."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..scenario import Scenario, resolve_model, scenario_from_dict
from .published_throughput import Compared, summary


@dataclass(frozen=True)
class Regime:
    name: str
    when_filed: str  # what issue 23 quoted for it when it was filed (median or range of the signed error)
    holds: Callable[[Scenario], bool]


def _is_moe(s: Scenario) -> bool:
    return resolve_model(s).is_moe


def _sharded(s: Scenario) -> bool:
    return s.effective_zero == 3 or bool(s.fsdp)


def _experts_across_nodes(s: Scenario) -> bool:
    # an expert-parallel group of ep x expert_tp consecutive ranks leaves the node when it is wider than one
    return _is_moe(s) and s.ep > 1 and s.ep * s.expert_tp > s.gpus_per_node


REGIMES = (
    Regime("ZeRO-3 / FSDP", "flat where measured falls (strong scaling)", _sharded),
    Regime("ZeRO-3 / FSDP on more than 64 GPUs", "flat where measured halves per doubling",
           lambda s: _sharded(s) and s.world_size > 64),
    Regime("Megatron / NeMo dense", "+20..+45% (NeMo 24.x)",
           lambda s: s.framework.startswith("megatron") and not _is_moe(s)),
    Regime("torchtitan dense", "+22..+38%", lambda s: s.framework == "torchtitan" and not _is_moe(s)),
    Regime("sequence 16K tokens or more", "+26% at 4K growing to +65% at 1M", lambda s: s.seq_len >= 16384),
    Regime("context parallelism (CP > 1)", "CP ring treated as nearly free", lambda s: s.cp > 1),
    Regime("MoE at micro-batch 1-2", "+30..+270%", lambda s: _is_moe(s) and s.micro_batch <= 2),
    Regime("GPT-OSS", "+100..+330%", lambda s: "gpt-oss" in resolve_model(s).name.lower()),
    Regime("expert parallelism across nodes", "-25..-56%", _experts_across_nodes),
    Regime("MI300X / MI325X", "+96..+208%", lambda s: s.gpu in ("mi300x", "mi325x")),
    Regime("power-limited B200 (750 W)", "+165..+224%", lambda s: s.gpu == "b200-750w"),
)


def regime_summary(rows: list[dict[str, Any]], compared: list[Compared]) -> dict[str, dict[str, Any]]:
    """{regime name: summary figures of its rows (rows, median, p90, median_signed, mean_signed) and when_filed};
    a regime without rows is left out. `compared` holds the rows' comparisons, matched by row id."""
    by_id = {c.id: c for c in compared}
    scenarios = [(scenario_from_dict(row["scenario"]), by_id[row["id"]]) for row in rows if row["id"] in by_id]
    out: dict[str, dict[str, Any]] = {}
    for regime in REGIMES:
        members = [c for s, c in scenarios if regime.holds(s)]
        if members:
            out[regime.name] = {**summary(members)["all"], "when_filed": regime.when_filed}
    return out
