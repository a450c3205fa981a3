"""The set-up panel's rows for how a micro-batch's sequences are laid out (user audit 15: an RL engineer planning verl
with dynamic batch sizes found no field for its token budget or its length spread):

- packing (always): padded, padding-free or packed;
- max_tokens_per_micro_batch (the tokens one micro-batch holds: verl's ppo_max_token_len_per_gpu with
  use_dynamic_bsz), right below packing, where its declared applies_to holds ("packing padding-free, packed");
- sequence_len_std (the spread of one sequence's tokens, which padding-free micro-batches wait on:
  engine/posttraining/rank_imbalance.py), below the longest completion, for the online objectives its applies_to
  names and only with padding-free micro-batches a framework cuts itself (verl), the one case that reads it.

Ranges, visibility and the unset ends come from the keys' declarations (engine/scenario/format.py,
engine/scenario/posttraining_keys.py); a value set where it does not count stays visible, so it can be seen and
reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFormLayout, QWidget

from engine import Scenario
from engine.plan_card import key_applies
from engine.posttraining.rank_imbalance import completion_spread_tokens, reads_sequence_spread
from engine.scenario import KEY_SPECS

from .choices import choice_items, declared_count_range
from .widgets import ValueCombo, committed_spin, set_form_tooltips, show_value


class PackingRows(QObject):
    def __init__(self, form: QFormLayout, edit: Callable[[dict[str, Any]], None], after_batch: QWidget,
                 after_lengths: QWidget, parent: QObject | None = None) -> None:
        """Packing and the token budget go below `after_batch` (the micro-batch rows), the spread below
        `after_lengths` (the completion lengths it is the spread of)."""
        super().__init__(parent)
        self._form = form
        self._shown: tuple[bool, bool] | None = None
        self.packing = ValueCombo(choice_items("packing", {
            "none": self.tr("each sequence padded (none)"),
            "padding-free": self.tr("sequences back to back, no padding (padding-free)"),
            "packed": self.tr("whole sequences packed into rows of the sequence length (packed)"),
        }))
        budget = KEY_SPECS["max_tokens_per_micro_batch"].check  # WholeNumber: 0 (no budget) .. its maximum
        self.token_budget = committed_spin(budget.minimum, int(budget.maximum), self.tr("no budget (0)"))
        self.token_budget.setSingleStep(1024)
        # 0 stands for null: the spread assumed from the completions' mean and longest (the special text says it)
        self.spread = committed_spin(0, declared_count_range("sequence_len_std")[1])
        self.spread.setSingleStep(100)
        row = form.getWidgetPosition(after_batch)[0] + 1
        form.insertRow(row, self.tr("Sequence packing (packing)"), self.packing)
        form.insertRow(row + 1, self.tr("Tokens per micro-batch (max_tokens_per_micro_batch)"), self.token_budget)
        form.insertRow(form.getWidgetPosition(after_lengths)[0] + 1,
                       self.tr("Spread of a sequence's tokens (sequence_len_std)"), self.spread)
        set_form_tooltips(form, {
            self.packing: self.tr(
                "How a micro-batch's sequences are laid out. none: each is padded to the sequence length (post-"
                "training: to the batch's longest prompt plus completion). padding-free: the sequences run back to "
                "back in one row without padding (TRL / ms-swift padding_free, verl use_remove_padding), so memory "
                "and time follow the real tokens. packed: whole sequences are packed into rows of the sequence "
                "length (TRL packing, axolotl sample_packing)."),
            self.token_budget: self.tr(
                "The most tokens one micro-batch holds when sequences are padding-free or packed (verl "
                "actor.ppo_max_token_len_per_gpu with use_dynamic_bsz). verl cuts each GPU's mini-batch of "
                "micro-batch sequences into ceil(tokens / budget) micro-batches of about equal tokens: a smaller "
                "budget needs less activation and logits memory and runs more, smaller micro-batches. It must hold "
                "one whole sequence. 0: no budget, a micro-batch holds micro-batch × sequence tokens."),
            self.spread: self.tr(
                "How much one sequence's length (prompt + completion, without padding) varies over a step: its "
                "standard deviation in tokens, as a run's log gives it (verl: global_seqlen/minmax_diff). With "
                "padding-free micro-batches under ZeRO-3 / FSDP every GPU waits for the one holding the most tokens, "
                "and that wait grows with the spread (Time and cost: 'waiting for the rank with the most tokens'). "
                "Unset, it is assumed from the mean and the longest completion."),
        })
        self.packing.valueChosen.connect(lambda v: edit({"packing": v}))
        self.token_budget.valueChanged.connect(lambda v: edit({"max_tokens_per_micro_batch": v}))
        self.spread.valueChanged.connect(lambda v: edit({"sequence_len_std": v or None}))

    def combos(self) -> dict[str, ValueCombo]:
        """key -> combo, for the undo entry's words."""
        return {"packing": self.packing}

    def show(self, s: Scenario) -> None:
        """The values of `s`; each row where its key counts (its declared applies_to) or holds a value."""
        self.packing.set_value(s.packing)
        show_value(self.token_budget, s.max_tokens_per_micro_batch)
        show_value(self.spread, s.sequence_len_std or 0)
        assumed = self.tr("assumed from the completions (%1)").replace("%1", f"{round(completion_spread_tokens(s)):,}")
        if self.spread.specialValueText() != assumed:  # a new text lays the form out again: only on a change
            self.spread.setSpecialValueText(assumed)
        budget_counts = key_applies(KEY_SPECS["max_tokens_per_micro_batch"], s) or s.max_tokens_per_micro_batch > 0
        # rank_imbalance.py reads the spread only for padding-free micro-batches that the framework cuts itself (its
        # fact micro_batches_by_count: verl's); TRL's GRPO showed a row that changed nothing
        spread_counts = (key_applies(KEY_SPECS["sequence_len_std"], s) and reads_sequence_spread(s)
                         or s.sequence_len_std is not None)
        shown = (budget_counts, spread_counts)
        if shown != self._shown:  # showing or hiding a row lays the form out again: only on a change
            self._shown = shown
            self._form.setRowVisible(self.token_budget, budget_counts)
            self._form.setRowVisible(self.spread, spread_counts)
