"""Property test of every config importer (engine/configs): a file of the right shape (each one of
tests/data/configs, as its framework writes it) with hostile values put in its settings (wrong types, absurd and
non-finite numbers, shell arithmetic, escape and bidi characters, unknown words) is imported into a scenario the
engine validates, or refused with one PlannerError sentence; the review and the refusal, as the `import` command
prints them, echo nothing raw. Any other exception is a crash of the importer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ConsistencyError, PlannerError, scenario_from_dict
from engine.cli import error_text
from engine.configs import counts_for_import, import_texts, layout_gpus
from engine.configs.review import render_import
from engine.estimate_output import terminal_text
from engine.messages import one_line

CONFIGS = Path(__file__).parent / "data" / "configs"
FILES = sorted(p for p in CONFIGS.rglob("*") if p.is_file() and p.name != "SOURCES")
FORMATS = sorted({p.relative_to(CONFIGS).parts[0] for p in FILES})
# Where a value sits, by the file's syntax: a YAML `key: value`, a JSON `"key": value`, a TOML `key = value`, a
# launch script's `--flag value`, `VAR=value` or `section.key=value` (verl, Hydra overrides).
SLOTS = {
    ".json": re.compile(r'("[\w.\-]+"\s*:\s*)([^,\n{}\[\]]+)'),
    ".toml": re.compile(r"^(\s*[\w.\-]+\s*=\s*)([^\n#]+)", re.M),
    ".sh": re.compile(r"((?:--[\w\-]+[ =])|(?:\b[\w.\-]+=))([^\s\\;]+)"),
}
YAML_SLOT = re.compile(r"^(\s*-?\s*[\w.\-]+:[ \t]+)([^\n#]+)", re.M)
HOSTILE_TEXT = ["0", "-1", "1e400", "nan", ".nan", "inf", "-.inf", "9" * 40, "1" + "0" * 30, "'${oc.select:x}'",
                "???", "[1, 2]", "{a: 1}", "null", "~", "true", "yes", "abc", "$((1/0))", "$((9**99))", "0x1F",
                "1_000", "''", "1.5", "-0", "2**64", "auto", "fp8", "zbv", "grpo", "\x1b[2J", "\u202eevil", "\x07",
                "'a b'", '"', "'", "\\", "${", "$(rm -rf /)", "-" * 3, "é" * 3, "[]", "{}", "0.0", "1e-320"]
HOSTILE_JSON = ["0", "-1", "1e400", "NaN", "Infinity", "-Infinity", '"x"', "[1, 2]", '{"a": 1}', "null", "true",
                "9" * 40, '"\\u001b[2J"', '"auto"', '"\\u202e"', "1.5", "-0", "1e-320", '""', "[]", "{}"]


def _slots(path: Path, text: str) -> list[re.Match]:
    return list(SLOTS.get(path.suffix, YAML_SLOT).finditer(text))


@st.composite
def hostile_files(draw: st.DrawFn, fmt: str) -> tuple[str, str]:
    """One of the format's example files with some of its values replaced by hostile ones."""
    path = draw(st.sampled_from([p for p in FILES if p.relative_to(CONFIGS).parts[0] == fmt]))
    text = path.read_text(encoding="utf-8")
    slots = _slots(path, text)
    tokens = HOSTILE_JSON if path.suffix == ".json" else HOSTILE_TEXT
    chosen = draw(st.lists(st.integers(0, max(len(slots) - 1, 0)), min_size=1, max_size=6, unique=True))
    for index in sorted(chosen, reverse=True):  # from the end, so earlier offsets stay put
        if index < len(slots):
            m = slots[index]
            text = text[:m.start(2)] + draw(st.sampled_from(tokens)) + text[m.end(2):]
    return path.name, text


def _printable(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_values_give_a_scenario_or_one_sentence(fmt, data):
    name, text = data.draw(hostile_files(fmt))
    try:
        result = import_texts([(name, text)])
    except PlannerError as exc:
        sentence = one_line(error_text(exc, lambda t: t))
        assert sentence and "Traceback" not in sentence and "Errno" not in sentence, sentence
        assert _printable(sentence)
        return
    review = terminal_text(render_import(result, line=one_line))
    assert _printable(review)
    json.dumps(result.to_json())
    if "model" in result.scenario:
        try:
            scenario_from_dict(result.scenario)
        except ConsistencyError:
            pass  # a layout the files leave open (tp 2 of a file that does not say the GPUs): the window asks
        # any other ScenarioError: the importer kept a value its key does not accept


def _least_counts_by_search(gpus: int, nodes: int, need: int, raise_nodes: bool) -> tuple[int, int]:
    """The definition: count up from the current count to the first world the layout divides."""
    if raise_nodes:
        return gpus, next(n for n in range(nodes, nodes + need + 1) if (gpus * n) % need == 0)
    return next(g for g in range(gpus, gpus + need + 1) if (g * nodes) % need == 0), nodes


@given(st.integers(1, 16), st.integers(1, 8), st.sampled_from([1, 2, 3, 4, 8]), st.sampled_from([1, 2, 3, 4]),
       st.sampled_from([1, 2, 3]), st.sampled_from([1, 2, 6, 8]), st.booleans())
def test_import_counts_are_the_least_that_hold_the_layout(gpus, nodes, tp, pp, cp, ep, stated_gpus):
    scenario = {"tp": tp, "pp": pp, "cp": cp, "ep": ep, **({"gpus_per_node": gpus} if stated_gpus else {})}
    counts, raised = counts_for_import(scenario, {"gpus_per_node": gpus, "nodes": nodes})
    need = layout_gpus(scenario)
    assert raised == ((gpus * nodes) % need != 0)
    if raised:
        raise_nodes = stated_gpus or (nodes > 1 and need % gpus == 0)
        assert (counts["gpus_per_node"], counts["nodes"]) == _least_counts_by_search(gpus, nodes, need, raise_nodes)


def test_an_absurd_parallel_degree_is_imported_at_once():
    """Found by the property test above: a Megatron script's TP_SIZE of 10^40 made the import count GPUs up one at a
    time toward 10^40 (a hang); the least count is now computed, and the degree is refused as out of bounds."""
    text = (CONFIGS / "megatron" / "train_llama3_8b_h100_fp8.sh").read_text().replace("TP_SIZE=1", "TP_SIZE=" + "9" * 40)
    result = import_texts([("train.sh", text)])
    assert "tp" not in result.scenario and any(u.key.endswith("--tensor-model-parallel-size") for u in result.unmapped)
