"""A pipeline schedule, or model chunks per rank, set where there is no pipeline (pp 1): nothing is scheduled, so the
setting changes no figure. The frameworks that read it refuse it: the Zero Bubble fork asserts 'zero bubble must be
enabled with pipeline parallelism' (sail-sg/zero-bubble-pipeline-parallelism at f68d3879 megatron/arguments.py line
206), and Megatron-LM asserts pp > 1 (> 2 without p2p overlap) for virtual pipeline stages (NVIDIA/Megatron-LM at
d98e8a64 megatron/training/arguments.py lines 1000-1008). The estimate lists the sentence; the window lowers both to
their defaults in the same undo step when an edit leaves pp 1 (gui/conflicts.py)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message

NO_PIPELINE_SCHEDULE = "1f1b"  # the schedule key's default, what a pp 1 run is timed as
NO_PIPELINE_VPP = 1


def pipeline_settings_sentence(pp_schedule: str, vpp: int) -> Message | None:
    """The sentence for this schedule and chunk count set with pp 1; None where both are the defaults."""
    if pp_schedule == NO_PIPELINE_SCHEDULE and vpp == NO_PIPELINE_VPP:
        return None
    if vpp == NO_PIPELINE_VPP:
        return message(QT_TRANSLATE_NOOP("engine", "pp_schedule {schedule} schedules pipeline stages: with pp 1 there "
                                                   "is no pipeline, so it has no effect."), schedule=pp_schedule)
    return message(QT_TRANSLATE_NOOP("engine", "pp_schedule {schedule} with vpp {vpp} schedules pipeline stages: "
                                               "with pp 1 there is no pipeline, so it has no effect."),
                   schedule=pp_schedule, vpp=vpp)


def unused_pipeline_schedule(s: Any) -> Message | None:
    """pipeline_settings_sentence for a trained scenario with pp 1; None where there is a pipeline or s is served."""
    if s.pp > 1 or s.workload == "inference":
        return None
    return pipeline_settings_sentence(s.pp_schedule, s.vpp)
