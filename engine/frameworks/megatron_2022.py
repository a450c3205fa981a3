"""Megatron-LM of 2022 to mid-2023 (arXiv:2402.15627's NVIDIA/Megatron-LM 285068c8, 2023-01-11): Megatron's row of
engine/frameworks/defaults.py with what that code did differently, each with where it is written."""

from __future__ import annotations

from dataclasses import replace

from .parallelism import MEGATRON_2022
from .row_type import FrameworkRow
from .runs import MEGATRON_2022 as RUNS_2022

SOURCES = (
    ("data-parallel collectives of 2022-2023", "NVIDIA/Megatron-LM megatron/training.py train_step at 285068c8 "
     "(2023-01-11, arXiv:2402.15627's): forward_backward_func, then optimizer.reduce_model_grads (distrib_optimizer"
     ".py: _reduce_scatter_base of each fp32 gradient buffer), step, then gather_model_params (_all_gather_base); "
     "--overlap-grad-reduce came at 2d5220a424 (2023-08-16); arguments.py there: no --tp-comm-overlap, "
     "--transformer-impl default 'local' (no Transformer Engine modules)"),
)


def megatron_2022_row(megatron: FrameworkRow) -> FrameworkRow:
    """Megatron's memory facts; its time profile ("megatron-2022" in presets/efficiency.json) runs every
    data-parallel collective after the pipeline schedule or the optimizer step, nothing beside it (SOURCES)."""
    return replace(megatron, checkpoint_save="",  # their era's default was the legacy torch format
                   id="megatron-2022", label="Megatron-LM (2022 to mid-2023)", profile="megatron-2022",
                   megatron_core_rope=False,  # bbab79f86907 / 285068c8: no rotary embedding yet
                   tp_comm_overlap=False, pipeline_layouts=False, parallelism=MEGATRON_2022, runs=RUNS_2022,
                   sources=(*megatron.sources, *SOURCES))
