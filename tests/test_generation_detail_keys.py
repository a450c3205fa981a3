"""The generation detail of a post-training step (engine/posttraining/timing.py _generation; estimate --json's
time.generation, the Time tab's hover): every key it gives is documented in docs/posttraining.md's --json list and
has a label in the window (gui/time_bar.py GENERATION_FIGURE_LABELS), and nothing is documented or labelled that
it does not give."""

import re
from pathlib import Path

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.workloads import step_time

ROOT = Path(__file__).resolve().parent.parent


def _generation_keys() -> set[str]:
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    return set(dict(step_time(scenario_from_dict(row["scenario"])).generation))


def test_every_generation_key_is_documented_and_only_those() -> None:
    text = (ROOT / "docs" / "posttraining.md").read_text()
    listed = re.search(r"`time` gains `generation` \(\{(.*?)\}\)", text, re.S)
    assert listed, "docs/posttraining.md lists time.generation's keys"
    documented = set(re.findall(r"\b([a-z_]+_(?:seconds|sequences|per_step|iterations|tokens)\w*|sequences|waves)\b",
                                re.sub(r"\([^()]*\)", "", listed.group(1))))
    keys = _generation_keys()
    assert keys - {"seconds"} <= documented, keys - documented
    assert documented - {"seconds"} <= keys, documented - keys


def test_every_generation_key_has_a_label_in_the_window() -> None:
    from gui.time_bar import GENERATION_FIGURE_LABELS
    assert set(GENERATION_FIGURE_LABELS) == _generation_keys()


def test_every_post_training_term_is_documented_in_breakdown_seconds() -> None:
    # engine/posttraining/timing.py RL_TERM_NAMES: the keys breakdown_seconds gains beside the training step's
    from engine.posttraining.timing import RL_FORMULAS, RL_PROVENANCE, RL_TERM_NAMES
    text = (ROOT / "docs" / "posttraining.md").read_text()
    listed = re.search(r"`breakdown_seconds` gains (.*?)\. A post-training", text, re.S)
    assert listed
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == set(RL_TERM_NAMES) == set(RL_FORMULAS) == set(RL_PROVENANCE)


def test_the_generation_formula_says_what_prefill_and_decode_add() -> None:
    # timing.py _generation: the prefill adds forward_all_reduce_seconds over every prompt token (rollout_collectives.py)
    # and the decode's fixed GPU time holds the served adapters' and bitsandbytes' kernels (engine_adapters.py,
    # bnb_decode.py); the formula shown in the Time tab and --json says both (review h-revd)
    from engine.posttraining.estimate import generation_tp, step_parts
    from engine.posttraining.rollout_collectives import forward_all_reduce_seconds
    from engine.posttraining.timing import RL_FORMULAS
    from engine.scenario import resolve_model
    from engine.timing.hardware import hardware_for
    prefill_clause, decode_clause = RL_FORMULAS["generation"].split("decode:", 1)
    assert "tensor-parallel all-reduces" in prefill_clause
    assert "LoRA kernels and a bitsandbytes base's kernels" in decode_clause
    rows = [scenario_from_dict(r["scenario"]) for r in ptt.read_rows()]
    s = next(s for s in rows if s.rollout_tp > 1 and step_parts(s).engine is not None)
    detail = dict(step_time(s).generation)
    tokens = detail["sequences"] * s.prompt_len
    assert generation_tp(s, step_parts(s).rs) > 1
    allreduce = forward_all_reduce_seconds(s, hardware_for(s), resolve_model(s), generation_tp(s, step_parts(s).rs),
                                           tokens)
    assert 0.0 < allreduce < detail["prefill_seconds"]
