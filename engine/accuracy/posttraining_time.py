"""Post-training step TIME against measured runs (issue 23): tests/data/published/posttraining_time.json.

Each row states the run's logged steps as its source gives them (per-phase seconds, the step's lengths), what the
comparison takes from them (`taken`) and the scenario in the planner's keys. A row's measured phase is the median over
its logged steps; the estimate's phases are read from the post-training step time (engine/posttraining/timing.py):

- generation: the engine's generation plus the weight sync into it (verl's timing_s/gen wraps the hybrid engine's
  reshard, the sync and wake-up, around vLLM's generate_sequences: volcengine/verl at b178a3c
  verl/trainer/ppo/ray_trainer.py fit, marked_timer("gen") lines 1390-1392);
- scoring: the scoring forwards (verl's timing_s/old_log_prob + timing_s/ref where a reference runs: lines 1501 and
  1537, the latter str(Role.RefPolicy), "ref" in verl/trainer/ppo/utils.py lines 43-53);
- update: the training step over the RL batch (verl's timing_s/update_actor: line 1606);
- step: the whole step (timing_s/step: line 1388).
The offload copies between phases (phase_offload) are counted in the phase whose timer holds them (offload_by_phase).

Nothing is fitted to these rows: the report states the error as it is.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..frameworks.defaults import defaults_for
from ..posttraining.estimate import step_parts
from ..posttraining.phase_offload import critic_shares, policy_parameter_share
from ..posttraining.phases import step_parameter_loads_by_phase
from ..posttraining.refit_offload import refit_offload_by_phase
from ..scenario import Scenario, scenario_from_dict
from ..timing import hardware_for
from ..workloads import step_time
from .posttraining import error_stats

TIME_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "posttraining_time.json"
PHASES = ("step", "generation", "scoring", "update")
# what each phase sums of a source's logged timings, per framework's log format (verl: metrics timing_s/<name>)
LOGGED_PHASES = {"step": ("step",), "generation": ("gen",), "scoring": ("old_log_prob",),
                 "update": ("update_actor",)}
# what a phase adds where the step logs it: PPO's critic value forward (verl's timing_s/values, marked_timer("values")
# around _compute_values: ray_trainer.py fit lines 1543-1544 at b178a3c) is in the estimate's scoring
# (engine/posttraining/timing.py counts the critic's forward there); the reference's forward (timing_s/ref), which
# verl times only where it builds a reference (`if self.use_reference_policy:` around marked_timer("ref"), line 1535
# at b178a3c: a run without use_kl_loss / use_kl_in_reward logs none)
OPTIONAL_LOGGED_PHASES = {"scoring": ("ref", "values")}
# NeMo-RL's timers where a source prints them (grpo.py grpo_train at v0.3.0 lines 525-667: total_step_time,
# prepare_for_generation (the refit), generation, policy_and_reference_logprobs, policy_training), the same phases as
# estimated_phases splits them: the refit in the generation
NEMO_RL_LOGGED_PHASES = {"step": ("total_step_time",), "generation": ("prepare_for_generation", "generation"),
                         "scoring": ("policy_and_reference_logprobs",), "update": ("policy_training",)}


@dataclass(frozen=True)
class TimeCompared:
    id: str
    framework: str
    objective: str
    measured: dict[str, float]  # phase -> seconds (median over the logged steps)
    estimated: dict[str, float]  # phase -> seconds
    estimated_parts: dict[str, float]  # the estimate's post-training terms as computed (engine/posttraining/timing.py)
    source_name: str = ""  # the row's source_name: which publication or log set it comes from

    def error(self, phase: str) -> float | None:
        """Signed relative error of the estimate for `phase` (None where the source does not state it)."""
        measured = self.measured.get(phase)
        if not measured:
            return None
        return self.estimated[phase] / measured - 1


def read_rows(path: Path = TIME_FILE) -> list[dict[str, Any]]:
    """The measured rows as stored."""
    return json.loads(path.read_text(encoding="utf-8"))["rows"] if path.is_file() else []


def integrity_problems(row: dict[str, Any]) -> list[str]:
    """What a row lacks to be compared (empty when complete)."""
    problems = [f"no {k}" for k in ("id", "framework", "objective", "source", "url", "taken", "scenario", "steps")
                if not row.get(k)]
    if not str(row.get("url", "")).startswith("https://"):
        problems.append("the source URL is not an https address")
    for step in row.get("steps") or []:
        if not all(isinstance(v, (int, float)) and v >= 0 for v in (step.get("timing_s") or {}).values()):
            problems.append(f"step {step.get('step')}: a timing is not a non-negative number of seconds")
    if (row.get("scenario") or {}).get("training_objective") != row.get("objective"):
        problems.append("the scenario's training_objective differs from the row's objective")
    return problems


def measured_phases(row: dict[str, Any]) -> dict[str, float]:
    """Each phase's seconds, the median over the row's logged steps (a phase none of its steps logs is left out), with
    the optional timers (OPTIONAL_LOGGED_PHASES) a step logs; NeMo-RL's timer names (NEMO_RL_LOGGED_PHASES) where a
    row states those instead."""
    out = {}
    for phase, names in LOGGED_PHASES.items():
        optional = OPTIONAL_LOGGED_PHASES.get(phase, ())
        values = [sum(s["timing_s"][n] for n in names) + sum(s["timing_s"].get(n, 0.0) for n in optional)
                  for s in row["steps"] if all(n in s["timing_s"] for n in names)]
        values = values or [sum(s["timing_s"][n] for n in NEMO_RL_LOGGED_PHASES[phase]) for s in row["steps"]
                            if all(n in s["timing_s"] for n in NEMO_RL_LOGGED_PHASES[phase])]
        if values:
            out[phase] = statistics.median(values)
    return out


def offload_by_phase(s: Scenario, total: float) -> dict[str, float]:
    """The offload copies between phases (`total`, the estimate's phase_offload) in the phase that makes them, as
    verl's timers hold them (engine/posttraining/phase_offload.py: update_actor loads the parameters and the
    optimizer, compute_log_prob the parameters for the old policy and for an adapter-off reference, the weight sync
    the parameters): each parameter load an equal share of the parameters' copy seconds (at their own rate, pageable
    under FSDP2: policy_parameter_share), the optimizer's with the update. PPO's critic: the parameters its values
    pass loads in scoring (timing_s/values), those its update loads with its optimizer under `critic`, in the step
    only, as timing_s/update_critic (critic_shares)."""
    if not total:
        return {"generation": 0.0, "scoring": 0.0, "update": 0.0, "critic": 0.0}
    p = step_parts(s)
    loads_by_phase = step_parameter_loads_by_phase(p)
    loads = sum(loads_by_phase.values())
    pageable = defaults_for(s.framework).posttraining.fsdp2_offload_pageable
    share = policy_parameter_share(s, p.moves, loads, pageable)
    values, critic_update = critic_shares(s, p.moves, loads, pageable)
    per_load = total * share / loads  # host link and pageable rate alike for every parameter load
    generation = per_load * loads_by_phase["generation"]
    scoring = per_load * loads_by_phase["scoring"] + total * values
    critic = total * critic_update
    return {"generation": generation, "scoring": scoring, "update": total - generation - scoring - critic,
            "critic": critic}


def refit_by_phase(s: Scenario, total: float) -> dict[str, float]:
    """NeMo-RL's copies around the colocated sync (`total`, the estimate's refit_offload) in the phase whose timer
    holds them (engine/posttraining/refit_offload.py: prepare_for_generation, logprob_inference_prep and the
    reference's pass, training_prep), each phase its share of the copies' seconds."""
    if not total:
        return {"generation": 0.0, "scoring": 0.0, "update": 0.0}
    by_phase = refit_offload_by_phase(step_parts(s), s, hardware_for(s))
    whole = sum(by_phase.values())
    return {k: total * v / whole for k, v in by_phase.items()}


def estimated_phases(scenario: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """The estimate's phases (PHASES) of a scenario, the offload copies in the phase that makes them
    (offload_by_phase), and its post-training terms as computed."""
    s = scenario_from_dict(scenario)
    t = step_time(s)
    parts = dict(getattr(t, "rl_seconds", ()))
    copies = offload_by_phase(s, parts.get("phase_offload", 0.0))
    refit = refit_by_phase(s, parts.get("refit_offload", 0.0))
    # the separate reference's (and reward model's) units copied in from CPU for their forwards (timing.py
    # streamed_frozen_bytes): verl's compute_ref_log_prob, under the `ref` timer, so in the scoring phase
    # the update's own post-training terms (the adapters' FSDP units in update_actor: adapter_units.py; its packed
    # micro-batches' padding: packed_padding.py; verl's passes over the logits: vocab_passes.py; the wait for the
    # longest rank's micro-batch: rank_imbalance.py) stay in it
    update = (t.step_seconds - sum(parts.values()) + copies["update"] + parts.get("adapter_units", 0.0)
              + parts.get("vocab_passes", 0.0)
              + refit["update"] + parts.get("packed_padding", 0.0) + parts.get("rank_imbalance", 0.0))
    phases = {"step": t.step_seconds,
              "generation": parts.get("generation", 0.0) + parts.get("weight_sync", 0.0) + copies["generation"]
              + refit["generation"],
              "scoring": parts.get("scoring", 0.0) + copies["scoring"] + refit["scoring"]
              + parts.get("frozen_streaming", 0.0), "update": update}
    return phases, parts


def compare(rows: list[dict[str, Any]] | None = None) -> list[TimeCompared]:
    """Every complete row against the estimate."""
    out = []
    for row in read_rows() if rows is None else rows:
        if integrity_problems(row):
            continue
        estimated, parts = estimated_phases(row["scenario"])
        out.append(TimeCompared(row["id"], row["framework"], row["objective"], measured_phases(row), estimated,
                                parts, str(row.get("source_name", ""))))
    return out


def groups(compared: list[TimeCompared]) -> dict[str, list[TimeCompared]]:
    """The rows by "all", by framework / objective and by source ("source <source_name>"), in that order: one source
    on one stack cannot tell a wrong model from that stack's own costs."""
    out: dict[str, list[TimeCompared]] = {"all": list(compared)}
    for c in compared:
        out.setdefault(f"{c.framework} / {c.objective}", []).append(c)
    for c in compared:
        out.setdefault(f"source {c.source_name or '(unnamed)'}", []).append(c)
    return out


def summary(compared: list[TimeCompared]) -> dict[str, dict[str, dict[str, float]]]:
    """Per group (groups(): all, framework / objective, source), per phase: count, median, p90 and worst |error|."""
    return {name: {phase: error_stats(e for c in members if (e := c.error(phase)) is not None) for phase in PHASES}
            for name, members in groups(compared).items()}


def measured_decode_iteration_seconds(row: dict[str, Any]) -> float | None:
    """The generation phase's seconds per decode iteration, the median over the logged steps: a synchronous batch
    decodes until its longest completion ends (response_length/max iterations); an upper bound, as the phase also holds
    the prefill and the weight sync. None where no step logs both (a source that states the whole step alone)."""
    values = [s["timing_s"]["gen"] / s["response_length_max"] for s in row["steps"]
              if "gen" in s["timing_s"] and s.get("response_length_max")]
    return statistics.median(values) if values else None


def signed_median(compared: list[TimeCompared], phase: str) -> float:
    """Median signed error of `phase` over the rows that state it (0 when none does)."""
    values = [e for c in compared if (e := c.error(phase)) is not None]
    return statistics.median(values) if values else 0.0


__all__ = ["LOGGED_PHASES", "NEMO_RL_LOGGED_PHASES", "OPTIONAL_LOGGED_PHASES", "PHASES", "TIME_FILE", "TimeCompared",
           "compare", "estimated_phases", "groups", "integrity_problems",
           "measured_decode_iteration_seconds", "measured_phases", "offload_by_phase", "read_rows", "signed_median",
           "summary"]
