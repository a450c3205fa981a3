"""The words on screen for each scenario key, in the window's language: engine/scenario/key_words.py's labels and
value words (the same the command line prints) translated by Qt in the "Fields" context."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from engine.frameworks.defaults import defaults_for
from engine.planning.pretraining import is_pretraining
from engine.scenario import Scenario, key_words
from engine.units import format_price


def _tr(text: str) -> str:
    return QCoreApplication.translate("Fields", text)


def framework_value_words(framework: str, key: str, value: Any) -> str:
    """An optimizer or attention kernel as the framework runs it (its row's Runs.own_names: MLX's mlx.optimizers,
    mx.fast.scaled_dot_product_attention), else value_words' PyTorch words."""
    own = defaults_for(framework).runs.own_name(key, value) if framework else ""
    return QCoreApplication.translate("engine", own) if own else value_words(key, value)


def price_words(s: Scenario, price: float) -> str:
    """A price per GPU-hour in the scenario's currency, as the Markdown's inputs give it ("2.5" read without its
    currency in the plan card's and Compare's inputs, user audit 13; engine/units.py format_price)."""
    return format_price(price, s.currency)


def field_label(key: str) -> str:
    """The control's label for a scenario key (the key itself for keys the window has no control for)."""
    return key_words.field_label(key, _tr)


def value_words(key: str, value: Any, s: Scenario | None = None) -> str:
    """`s`: the scenario the value is of, so that training every weight on a pre-training budget reads "pre-training"
    (engine/planning/pretraining.py is_pretraining), as the set-up's item and the plan card say it."""
    return key_words.value_words(key, value, _tr, _pretraining(key, value, s))


def describe_changes(changes: dict[str, Any], s: Scenario | None = None) -> str:
    """An undo entry in on-screen words: "Optimizer: AdamW 8-bit", not "optimizer = adamw-8bit"; `s` the scenario
    after the change (value_words)."""
    return key_words.describe_changes(changes, _tr, _pretraining("method", changes.get("method"), s))


def _pretraining(key: str, value: Any, s: Scenario | None) -> bool:
    return s is not None and key == "method" and value == "full" and is_pretraining(s)


def list_separator() -> str:
    """The mark between the items of a list of words, ", " in English and "，" in Chinese (key_words.py)."""
    return _tr(key_words.CHANGES_SEPARATOR)


def layout_words(changes: dict[str, Any], s: Scenario | None = None) -> str:
    """The layout a rent option sets, in the set-up's words (engine/scenario/key_words.py layout_words, as the
    command line's `fit --objective cost` prints it); `s` the scenario with the option applied (value_words)."""
    return key_words.layout_words(changes, _tr, _pretraining("method", changes.get("method"), s))


def whole_number(locale: QLocale, n: int) -> str:
    """n with the language's digit grouping. Past 64 bits (only absurd set-ups, 8e21 tokens per step, get there)
    QLocale cannot take an int: shown from a float, rounded, rather than raising in the panel's slot."""
    return locale.toString(n) if -(2**63) <= n < 2**63 else locale.toString(float(n), "f", 0)
