"""The fuzz class of issue 25 item 6 for File > Open: scenarios, training configs and damaged files opened in the
window. A scenario opens; a training config is offered for import; anything else is refused with one short sentence.

    .venv/bin/python tests/fuzz_open.py [--cases 200] [--seed 25]

(tests/fuzz_hostile.py runs it too, so `make fuzz` does; tests/test_fuzz.py runs a few cases.) One window serves every
case; message boxes are recorded, not shown. Outcome of one case:
  opened               a scenario file replaced the scenario
  refused              one sentence said why the file cannot be opened; nothing changed
  import offered       a training config: the import was offered (then accepted or declined at random)
  traceback            an exception escaped open_file
  hang                 no answer within CASE_SECONDS
  absurd               a refusal of over MAX_MESSAGE_CHARS, or one that lists scenario keys (it once listed all 70)
  misrouted            a training config refused without the offer, or a scenario offered as a training config
  injected             a message carried a raw control character or unescaped markup from the file
  lost                 a refused or declined file changed the scenario or its undo history
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CASE_SECONDS = 30
MAX_MESSAGE_CHARS = 300
KINDS = ("scenario", "deepspeed", "hf-args", "unknown-keys", "hostile-keys", "truncated", "bytes", "not-object",
         "deep", "huge-number", "empty", "bom-scenario", "wrong-type")
HOSTILE = ["\x1b[2J", "<b>bold</b>", "<img src=x>", "\u202e", "a\nb", "zero_optimization", "micro_batchs", "x" * 500]
CONFIGS = {"deepspeed": {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 2,
                         "bf16": {"enabled": True}},
           "hf-args": {"per_device_train_batch_size": 4, "gradient_accumulation_steps": 2, "bf16": True,
                       "learning_rate": 2e-5, "num_train_epochs": 1, "output_dir": "out"}}


class Hang(Exception):
    pass


def _alarm(_signum, _frame):
    raise Hang


def make_file(kind: str, rng: random.Random, folder: Path) -> Path:
    path = folder / rng.choice(["s.json", "config.json", "ds_config.json", "train.json", "\u202eevil.json"])
    scenario = {"model": rng.choice(["llama-3-8b", "llama-3-70b", "qwen3-30b-a3b"]), "gpu": "h100-sxm-80gb",
                "gpus_per_node": rng.choice([1, 2, 8]), "micro_batch": rng.choice([1, 2, 4])}
    if kind == "scenario":
        data: object = scenario
    elif kind in CONFIGS:
        data = dict(CONFIGS[kind])
        if rng.random() < 0.5:
            data[rng.choice(HOSTILE)] = rng.choice(HOSTILE)  # an extra key a config may carry
    elif kind == "unknown-keys":
        data = {**scenario, **{f"key{i}": i for i in range(rng.randint(1, 80))}}
    elif kind == "hostile-keys":
        data = {**scenario, rng.choice(HOSTILE): rng.choice(HOSTILE)}
    elif kind == "not-object":
        data = rng.choice([[1, 2], "text", 3, None])
    elif kind == "deep":
        if rng.random() < 0.5:
            path.write_text("[" * 100_000 + "]" * 100_000)  # deeper than the parser's recursion limit
            return path
        data = {"model": {"a": {"b": {"c": {}}}}}
    elif kind == "huge-number":
        path.write_text(json.dumps(scenario)[:-1] + ', "micro_batch": 1' + "0" * rng.randint(20, 5000) + "}")
        return path
    elif kind == "wrong-type":
        data = {**scenario, rng.choice(["micro_batch", "gpu", "model", "nodes"]): rng.choice(HOSTILE + [[], {}])}
    else:
        raw = {"truncated": json.dumps(scenario)[:rng.randint(1, 40)].encode(),
               "bytes": bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))),
               "empty": b"", "bom-scenario": b"\xef\xbb\xbf" + json.dumps(scenario).encode()}[kind]
        path.write_bytes(raw)
        return path
    path.write_text(json.dumps(data, ensure_ascii=rng.random() < 0.5))
    return path


def _injected(text: str) -> bool:
    return any(ord(c) < 32 and c not in "\n\t" or c == "\u202e" for c in text) or "<b>bold" in text or "<img" in text


def judge(kind: str, opened: bool, said: list[tuple[str, str]], changed: bool) -> str:
    """The outcome of one case from what open_file returned, what it said and whether the scenario changed."""
    texts = [text for _, text in said]
    if any(_injected(t) for t in texts):
        return "injected"
    offered = any(box == "question" for box, _ in said)
    if (kind in CONFIGS and not offered) or (kind in ("scenario", "bom-scenario") and offered):
        return "misrouted"  # (a damaged file holding a config's marker key, zero_optimization, may be offered)
    refusals = [t for box, t in said if box == "warning"]
    if any(len(t) > MAX_MESSAGE_CHARS or t.count(", ") > 10 for t in refusals):
        return "absurd"
    if offered:
        return "import offered"
    if opened:
        return "opened"
    return "lost" if changed else "refused"


def run_case(win, kind: str, rng: random.Random, folder: Path) -> str:
    from PySide6.QtWidgets import QMessageBox

    from gui import config_actions, file_actions

    said: list[tuple[str, str]] = []
    answer = rng.choice([QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No])
    QMessageBox.warning = staticmethod(lambda parent, title, text, *a, **k: said.append(("warning", text)))
    QMessageBox.question = staticmethod(lambda parent, title, text, *a, **k: said.append(("question", text)) or answer)
    config_actions.ImportReview.ask = classmethod(lambda cls, *a, **k: type("R", (), {"accepted": True})())
    path = make_file(kind, rng, folder)
    before = (win.state.scenario, win.state.undo_stack.index(), win.state.undo_stack.count())
    signal.alarm(CASE_SECONDS)
    try:
        opened = file_actions.open_file(win, str(path))
    except Hang:
        return "hang"
    except Exception as exc:  # noqa: BLE001 - the fuzz counts what escapes
        print(f"  open case {kind}: {type(exc).__name__}: {exc!r}"[:300], flush=True)
        return "traceback"
    finally:
        signal.alarm(0)
    changed = (win.state.scenario, win.state.undo_stack.index(), win.state.undo_stack.count()) != before
    outcome = judge(kind, opened, said, changed)
    if outcome not in GOOD:
        print(f"  open case {kind}: {outcome}: {said!r}"[:400], flush=True)
    if outcome == "lost" or (outcome == "import offered" and answer == QMessageBox.StandardButton.No and changed):
        return "lost"
    return outcome


def fuzz_open(count: int, seed: int) -> Counter:
    """Open `count` generated files in one window; counts per outcome."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from gui import config_actions

    QApplication.instance() or QApplication([])
    saved = {name: getattr(QMessageBox, name) for name in ("warning", "question")}
    saved_ask = config_actions.ImportReview.__dict__["ask"]
    saved_home = os.environ.get("LLM_MEMORY_PLANNER_HOME")
    old_handler = signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(seed)
    counts: Counter = Counter()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["LLM_MEMORY_PLANNER_HOME"] = str(Path(tmp) / "home")
            from gui.app import build_window

            win, _ = build_window(None)
            for i in range(count):
                case_folder = Path(tmp) / f"case{i}"
                case_folder.mkdir()
                counts[run_case(win, KINDS[i % len(KINDS)] if i < len(KINDS) else rng.choice(KINDS), rng,
                                case_folder)] += 1
            win.state.undo_stack.setClean()
            win.close()
            win.deleteLater()  # gone before the temporary data folder and before the application (as fuzz_local)
            QApplication.instance().processEvents()
    finally:
        signal.signal(signal.SIGALRM, old_handler)
        for name, value in saved.items():
            setattr(QMessageBox, name, value)
        config_actions.ImportReview.ask = saved_ask
        if saved_home is None:
            os.environ.pop("LLM_MEMORY_PLANNER_HOME", None)
        else:
            os.environ["LLM_MEMORY_PLANNER_HOME"] = saved_home
    return counts


GOOD = ("opened", "refused", "import offered")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    counts = fuzz_open(args.cases, args.seed)
    print("files opened in the window: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    bad = sum(v for k, v in counts.items() if k not in GOOD)
    print(f"failures (tracebacks, hangs, absurd or misrouted messages, injected text, lost edits): {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
