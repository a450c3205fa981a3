"""The set-up panel's row for the ZeRO / FSDP shard group (scenario key dp_shard, engine/scenario/shard_group.py):
HSDP / hybrid ZeRO, the states sharded within groups of that many data-parallel x context-parallel GPUs and copied
across the groups. Shown under the sharding list where the layout shards (ZeRO 1 to 3, FSDP, Megatron's distributed
optimizer: Scenario.effective_zero) over more than one data-parallel x context-parallel GPU; it offers only the
groups check_shard_group takes: every rank ("all", the key's 0) and each divisor of dp x cp from 2 up.

A tp, pp, cp or GPU count change that leaves the group dividing no more is settled as the window settles a virtual
pipeline size or an expert-parallel degree that no longer fits (gui/conflicts.py): the group is lowered in the same
undo step to the nearest smaller group that divides, or to all GPUs, and the window says so.

A group the scenario's framework does not run at its sharding stage (engine/frameworks/shard_group_facts.py: DeepSpeed's
MiCS is ZeRO-3's only, OpenRLHF has none ...) is marked as gui/parallel_limits.py marks a setting its framework cannot
run: the value kept, the row in the warning colour, the estimate's sentence (engine/scenario/framework_support.py) as
its tooltip."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFormLayout, QWidget

from engine import Scenario
from engine.scenario.shard_group import ALL_RANKS, unused_shard_group

from .i18n import tr_message
from .parallel_limits import cannot_run_sentences, mark_warning
from .widgets import ValueCombo
from .words import field_label


def shard_groups(ranks: int) -> list[int]:
    """The groups dp_shard takes for ranks data-parallel x context-parallel GPUs besides all of them: each divisor
    from 2 up, smaller than the ranks (a group of all of them is the default, "all")."""
    small = [d for d in range(2, math.isqrt(ranks) + 1) if ranks % d == 0]  # a million GPUs: a thousand tries
    return sorted({*small, *(ranks // d for d in small)})


class ShardGroupRow(QObject):
    def __init__(self, form: QFormLayout, after: QWidget, edit: Callable[[dict[str, Any]], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form = form
        self._items: list[tuple[int, str]] = []
        self.combo = ValueCombo()
        tip = self.tr(
            "HSDP / hybrid ZeRO: the GPUs each ZeRO / FSDP shard group spans. The training state is sharded within "
            "each group and copied across the groups: the gathers and reduce-scatters run among fewer GPUs, inside "
            "a node over NVLink when the group fits one (faster), then one all-reduce of each shard across the "
            "groups; each GPU holds a larger share of the state (more memory). \"all\" shards over every "
            "data-parallel GPU (torchtitan data_parallel_shard_degree, FSDP HYBRID_SHARD, Megatron "
            "--num-distributed-optimizer-instances, DeepSpeed mics_shard_size).")
        self._tip = tip
        self.combo.setToolTip(tip)
        row = form.getWidgetPosition(after)[0] + 1
        form.insertRow(row, field_label("dp_shard"), self.combo)
        label = form.labelForField(self.combo)
        if label is not None:
            label.setToolTip(tip)
        self.combo.valueChosen.connect(lambda v: edit({"dp_shard": v}))

    def show(self, s: Scenario) -> None:
        ranks = s.dp * s.cp
        items = [(ALL_RANKS, self.tr("all (%1 GPUs)").replace("%1", f"{ranks:,}"))]
        items += [(g, f"{g:,}") for g in shard_groups(ranks)]
        if s.dp_shard not in (value for value, _ in items):  # a file's group of every rank, as it spells it
            items.append((s.dp_shard, f"{s.dp_shard:,}"))
        if items != self._items:  # rebuilding a combo is slow: only on a change
            self._items = items
            self.combo.set_items(items)
        self.combo.set_value(s.dp_shard)
        # a group set where nothing is sharded stays shown, marked, to be reset (the estimate says it has no effect)
        self._form.setRowVisible(self.combo, (s.effective_zero > 0 and ranks > 1) or bool(s.dp_shard))
        self._mark(self.sentence(s))

    @staticmethod
    def sentence(s: Scenario) -> str:
        """The estimate's sentence where s's group has no effect or s's framework does not run it at its stage, else
        ""."""
        unused = unused_shard_group(s)
        if unused is not None:
            return tr_message(unused)
        return cannot_run_sentences(s).get("dp_shard", "")

    def _mark(self, sentence: str) -> None:
        """The row in the warning colour with the sentence as tooltip, or as it was (parallel_limits.py's _mark)."""
        label = self._form.labelForField(self.combo)
        for w in (self.combo, label) if label is not None else (self.combo,):
            w.setToolTip(sentence or self._tip)
            mark_warning(w, bool(sentence))
