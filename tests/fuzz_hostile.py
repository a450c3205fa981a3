"""The fuzzing suite of issue 15: hostile command lines, poisoned data folders, kill -9 during saves, two processes.

    .venv/bin/python tests/fuzz_hostile.py [--cases 2000] [--subprocess 100] [--folders 40] [--kills 60] [--seed 15]

(`make fuzz` runs it with the defaults; tests/test_fuzz.py runs a smaller share of the same generators in `make test`.)
It prints counts per outcome and exits 1 if any case ended in a traceback, a hang, an absurd verdict, a failed
start-up, a torn or lost file, or a write outside the data folder. Every case is generated from the seed, so a
failure is reproduced by the same command.

Outcome of one command-line case:
  ok           exit 0 and the output passes the sanity checks (JSON: finite, non-negative bytes; total >= peak;
               "fits" only with headroom >= 0; trainable <= total parameters for full/freeze fine-tuning)
  refused      exit 2 and exactly one line "error: ..." on stderr (argparse usage errors count too)
  traceback    any exception escaping the command, exit 70 (an internal error) or "Traceback" on stderr
  hang         no answer within the time limit
  absurd       exit 0 with output that fails a sanity check
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import fuzz_imports  # noqa: E402  (issue 28: config imports)
from fuzz_appstate import fuzz_appstate  # noqa: E402 - issue 21 item 4: edits, undo, panes checked against the engine
from fuzz_card import fuzz_card  # noqa: E402
from fuzz_cli import Hang, run_cli, time_limit  # noqa: E402
from fuzz_diagnose import fuzz_diagnose  # noqa: E402 - h-fuzz7: OOM messages, GPU logs, timelines, snapshots
from fuzz_exports import fuzz_exports  # noqa: E402 - issue 28: exports parsed back, -o onto hostile targets
from fuzz_local import fuzz_local  # noqa: E402
from fuzz_newest import fuzz_newest  # noqa: E402 - h-fuzz6: post-training and serving keys, rent search, serve-fit
from fuzz_open import fuzz_open  # noqa: E402 - issue 25.6: File > Open on scenarios, configs, damaged files
from fuzz_surfaces8 import fuzz_surfaces8  # noqa: E402 - h-fuzz8: session 19's keys, Qwen3.5 configs, presets files
from fuzz_surfaces9 import fuzz_surfaces9  # noqa: E402 - h-fuzz9: vision towers, VLM serving, new rows, model presets
from fuzz_surfaces10 import fuzz_surfaces10  # noqa: E402 - h-fuzz10: serve rent, rotary fractions, session 20's presets
from fuzz_surfaces11 import fuzz_surfaces11  # noqa: E402 - h-fuzz11: every command and flag, presets files, imports
from fuzz_surfaces12 import fuzz_surfaces12  # noqa: E402 - h-fuzz12: Megatron logs / scripts, ms-swift, RL exports
from fuzz_time import fuzz_time  # noqa: E402
from fuzz_verdict import fuzz_verdict  # noqa: E402 - issue 25: verdict, text, JSON and GPU counts agree
from fuzz_window8 import fuzz_window8  # noqa: E402 - h-fuzz8: the LoRA line, the window on damaged presets
from fuzz_window9 import fuzz_window9  # noqa: E402 - h-fuzz9: vision / framework / build-date rows, damaged model preset
from fuzz_window10 import fuzz_window10  # noqa: E402 - h-fuzz10: the serve rent tab, the window on damaged presets
from fuzz_window11 import fuzz_window11  # noqa: E402 - h-fuzz11: the window on a damaged storage or presets file
from fuzz_window12 import fuzz_window12  # noqa: E402 - h-fuzz12: new keys, Diagnose / rent tabs, each file damaged

from engine.input_bounds import CONFIG_COUNTS  # noqa: E402
from engine.scenario import DEFAULTS  # noqa: E402

CASE_SECONDS = 10  # a hang: no answer in this time (a real estimate takes milliseconds, fit well under a second)
VALID = [json.loads(p.read_text()) for p in sorted((REPO / "examples").glob("*.json"))]
TINY_CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
               "intermediate_size": 1024, "vocab_size": 1000}
NASTY_TEXT = ["", " ", "\x1b[2J\x1b[H", "line\nVerdict: FITS", "\ud800", "\u202eevil", "<b>x</b>", "%s%n{0}{key}",
              "a" * 5000, "../../etc/passwd", "C:\\con", "\x00", "\t", "名前", "🙂" * 50]
NASTY_NUMBERS = [0, -1, -128, -100_000, 1, 2, 3, 7, 2**31, 2**53 + 1, 2**63, 10**9, 10**15, 1e308, -1e308, 0.5,
                 1.5, 1e-300, 2.0, True, False, None]
NASTY_VALUES = [*NASTY_NUMBERS, *NASTY_TEXT, [], [1], {}, {"a": 1}, [[[]]], "auto", "all-linear", "none"]


@dataclass
class Case:
    name: str
    argv: list[str]  # "{file}" is replaced by the case's file
    content: bytes | None = None


def _json(data: object) -> bytes:
    try:
        return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except ValueError:
        return json.dumps(data).encode()


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def scenario_mutations(rng: random.Random) -> Iterator[tuple[str, object]]:
    """(label, scenario object) pairs: a valid scenario with one or more hostile values."""
    keys = [k for k in DEFAULTS if k != "model"]
    while True:
        base = dict(rng.choice(VALID))
        kind = rng.randrange(10)
        if kind <= 3:  # one key, a hostile value
            key = rng.choice(keys)
            base[key] = rng.choice(NASTY_VALUES)
            yield f"key {key}", base
        elif kind == 4:  # several keys at once
            for key in rng.sample(keys, 4):
                base[key] = rng.choice(NASTY_VALUES)
            yield "keys", base
        elif kind == 5:  # a custom model with a hostile config value
            cfg = dict(TINY_CONFIG)
            if rng.random() < 0.3:
                cfg.update({"model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 2})
            key = rng.choice([*CONFIG_COUNTS, "model_type", "tie_word_embeddings", "attention_dropout",
                              "mlp_only_layers", "rope_theta", "text_config"])
            cfg[key] = rng.choice(NASTY_VALUES)
            base["model"] = {"name": rng.choice(NASTY_TEXT), "hf_config": cfg}
            yield f"config {key}", base
        elif kind == 6:  # a custom GPU
            base["gpu"] = {"name": rng.choice(NASTY_TEXT), "memory_bytes": rng.choice(NASTY_NUMBERS)}
            yield "gpu", base
        elif kind == 7:  # names and unknown keys that try to talk to the terminal
            base["name"] = rng.choice(NASTY_TEXT)
            if rng.random() < 0.5:
                base[rng.choice(NASTY_TEXT) or "x"] = 1
            yield "text", base
        elif kind == 8:  # extreme but legal-looking sizes
            base.update({"micro_batch": rng.choice([1, 64, 10**6, 10**7]), "seq_len": rng.choice([1, 10**6, 10**8]),
                         "gpus_per_node": rng.choice([1, 8, 1024]), "nodes": rng.choice([1, 100, 100_000])})
            yield "sizes", base
        else:  # model and schema_version oddities
            base["model"] = rng.choice(["", "llama", "LLAMA-3-8B", "x" * 300, 5, None, ["llama-3-8b"]])
            base["schema_version"] = rng.choice([0, 1, 2, True, 1.0, "1", None, -1, 10**40])
            yield "model/schema", base


def raw_files(rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """(label, bytes) of files that are not (quite) JSON scenarios."""
    valid = _json(rng.choice(VALID))
    while True:
        kind = rng.randrange(9)
        if kind == 0:
            yield "random bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        elif kind == 1:
            yield "truncated", valid[: rng.randrange(len(valid))]
        elif kind == 2:
            yield "bom", b"\xef\xbb\xbf" + valid
        elif kind == 3:
            yield "deep", ('{"model": ' + _deep(rng.choice([33, 200, 1000, 5000, 50_000])) + "}").encode()
        elif kind == 4:
            yield "digits", ('{"model": "llama-3-8b", "micro_batch": ' + "9" * rng.choice([31, 400, 5000]) + "}").encode()
        elif kind == 5:
            yield "non-finite", rng.choice([b'{"model": "llama-3-8b", "micro_batch": 1e999}',
                                            b'{"model": "llama-3-8b", "k_factor": NaN}',
                                            b'{"model": "llama-3-8b", "reserve": -Infinity}'])
        elif kind == 6:
            yield "utf-16", json.dumps(rng.choice(VALID)).encode("utf-16")
        elif kind == 7:
            yield "not an object", rng.choice([b"[]", b"null", b"1", b'"x"', b"", b" " * 1000])
        else:
            yield "duplicate keys", valid[:-1] + b', "micro_batch": -5, "micro_batch": 3}'


def cli_cases(n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    mutations, raws = scenario_mutations(rng), raw_files(rng)
    cases = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.55:
            label, data = next(mutations)
            content = _json(data)
        elif kind < 0.85:
            label, content = next(raws)
        else:
            label, content = "", None
        if content is not None:
            command = rng.choices(["estimate", "estimate --json", "fit --json", "fit"], weights=[5, 5, 1, 1])[0]
            argv = [*command.split(), "{file}"] + (["--unit", rng.choice(["GB", "GiB"])] if rng.random() < 0.2 else [])
            cases.append(Case(f"{i}: {command} ({label})", argv, content))
            continue
        options = [["kv-cache", rng.choice(["llama-3-8b", "qwen3-30b-a3b", "nope", "\x1b[2J", ""]),
                    "--batch", str(rng.choice(NASTY_NUMBERS)), "--seq-len", str(rng.choice(NASTY_NUMBERS)),
                    "--bytes", str(rng.choice([0, 1, 2, -2, 9, "x"]))],
                   ["presets", rng.choice(["models", "gpus", "other"]), *(["--json"] if rng.random() < 0.5 else [])],
                   ["estimate", rng.choice(["/dev/zero", "/nonexistent/x.json", "/tmp", "", "\x1b]0;x\x07"])],
                   ["schema", *(["--markdown"] if rng.random() < 0.5 else [])],
                   [rng.choice(["estimate", "fit"]), "--json"]]
        argv = rng.choice(options)
        cases.append(Case(f"{i}: {' '.join(argv)!r}", argv))
    return cases


def sane_json(text: str) -> str | None:
    """None when an estimate's JSON is sane, else what is absurd about it."""
    data = json.loads(text)
    if not isinstance(data, dict) or "components" not in data or "peak_allocated_bytes" not in data:
        return None  # presets, kv-cache, fit reports: parsed is enough
    numbers = [data["peak_allocated_bytes"], data["total_bytes"], *data["phases"].values(),
               *(c["bytes"] for c in data["components"])]
    if any(not isinstance(v, int | float) or not math.isfinite(v) or v < 0 or v > 2**80 for v in numbers):
        return "a byte count is negative, non-finite or beyond 2^80"
    if data["total_bytes"] < data["peak_allocated_bytes"]:
        return "total below peak"
    if data["verdict"] == "fits" and data["headroom_bytes"] < 0:
        return "fits with negative headroom"
    # fits is the whole machine (engine/memory/breakdown.py Estimate.fits): the GPUs, and the CPU memory when given
    gpu_fits = data["total_bytes"] <= data["capacity_bytes"]
    if data["fits"] and not gpu_fits:
        return "fits disagrees with total vs capacity"
    # a served model's verdict is its engine's: vLLM refuses to start where one request at max_model_len needs more
    # KV cache than its budget leaves (engine/serving; the reason is given), though the bytes fit under the card
    engine_refuses = (data.get("serving") or {}).get("verdict") == "does not fit" and bool(data["serving"].get("reason"))
    if not data["fits"] and gpu_fits and data.get("host_verdict") != "does not fit" and "rl" not in data and not (
            engine_refuses):
        return "fits disagrees with total vs capacity"
    if (data.get("serving") or {}).get("verdict") not in (None, data["verdict"]):
        return "the serving engine's verdict disagrees with the estimate's"
    if data["trainable_params"] < 0 or data["total_params"] <= 0:
        return "parameter counts out of range"
    return None


def run_in_process(case: Case, folder: Path) -> tuple[str, str]:
    """(outcome, detail) of one case run by engine.cli.main in this process."""
    argv = list(case.argv)
    if case.content is not None:
        path = folder / "case.json"
        path.write_bytes(case.content)
        argv = [str(path) if a == "{file}" else a for a in argv]
    try:
        code, out, err = run_cli(argv, CASE_SECONDS)
    except Hang:
        return "hang", case.name
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{case.name}: {type(exc).__name__}: {exc}"[:300]
    return classify(code, out, err, case, "--json" in argv)


def classify(code: int, out: str, err: str, case: Case, is_json: bool) -> tuple[str, str]:
    if code == 70 or "Traceback" in err:
        return "traceback", f"{case.name}: {err.strip()[-300:]}"
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        error_lines = [line for line in lines if "error: " in line]
        if out == "" and len(error_lines) == 1 and "\x1b" not in err:
            return "refused", ""
        return "absurd", f"{case.name}: refusal not one clean sentence: {err[:200]!r}"
    if code in (0, 1):
        if "\x1b" in out or "\x07" in out:
            return "absurd", f"{case.name}: control characters in the output"
        if is_json:
            try:
                problem = sane_json(out)
            except ValueError:
                return "absurd", f"{case.name}: --json output is not JSON"
            if problem:
                return "absurd", f"{case.name}: {problem}"
        return "ok", ""
    return "traceback", f"{case.name}: exit {code}: {err[-200:]}"


def run_subprocess(case: Case, folder: Path) -> tuple[str, str]:
    argv = list(case.argv)
    if case.content is not None:
        path = folder / "case.json"
        path.write_bytes(case.content)
        argv = [str(path) if a == "{file}" else a for a in argv]
    try:
        done = subprocess.run([sys.executable, str(REPO / "main.py"), *argv], capture_output=True, timeout=CASE_SECONDS * 3,
                              env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    except subprocess.TimeoutExpired:
        return "hang", case.name
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    return classify(done.returncode, out, err, case, "--json" in argv)


# ---- data folders -------------------------------------------------------------------------------------------------

POISONS = ("fifo", "dev-zero", "huge", "folder", "dangling", "garbage", "deep", "future", "old-format", "odd-name",
           "settings-dir", "settings-zero", "settings-garbage", "temp-leftover", "link-quarantine", "link-trash",
           "link-backups", "link-lock", "link-log", "estimator-breaker",
           # h-fuzz7: odd schema versions, a catalog section of another type (stopped every start), settings of
           # the wrong types, a last scenario that is not a plain id
           "version-odd", "catalog-shape", "catalog-garbage", "settings-types")


def _snapshot(folder: Path) -> list[tuple[str, int, int]]:
    """Every entry below `folder` with its size and modification time (links not followed)."""
    out = []
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        out.append((str(path), st.st_size, st.st_mtime_ns))
    return out


def poison_folder(home: Path, outside: Path, rng: random.Random) -> list[str]:
    """A data folder with a few good scenarios and a random handful of poisons; returns the poisons' names."""
    scenarios = home / "scenarios"
    scenarios.mkdir(parents=True)
    for i in range(3):
        (scenarios / f"good-{i}.json").write_text(json.dumps({**rng.choice(VALID), "name": f"good {i}"}))
    chosen = rng.sample(POISONS, rng.randint(1, 6))
    for kind in chosen:
        target = scenarios / f"p-{kind}.json"
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "dev-zero":
            target.symlink_to("/dev/zero")
        elif kind == "huge":
            with open(target, "wb") as f:
                f.truncate(6 * 10**9)
        elif kind == "folder":
            target.mkdir()
        elif kind == "dangling":
            target.symlink_to(home / "nowhere.json")
        elif kind == "garbage":
            target.write_bytes(next(raw_files(rng))[1])
        elif kind == "deep":
            target.write_text('{"model": ' + _deep(100_000) + "}")
        elif kind == "future":
            target.write_text(json.dumps({**VALID[0], "schema_version": 99}))
        elif kind == "old-format":
            target.write_text(json.dumps({"model": "llama-2-7b", "batch_size": 2}))
        elif kind == "odd-name":
            (scenarios / "odd\n\x1b[2J:\t.json").write_text(json.dumps(VALID[0]))
        elif kind == "settings-dir" and not os.path.lexists(home / "settings.json"):
            (home / "settings.json").mkdir()
        elif kind == "settings-zero" and not os.path.lexists(home / "settings.json"):
            (home / "settings.json").symlink_to("/dev/zero")
        elif kind == "settings-garbage" and not os.path.lexists(home / "settings.json"):
            (home / "settings.json").write_bytes(b"[" * 100_000)
        elif kind == "temp-leftover":
            (scenarios / ".good-0.json.999.deadbeef.tmp").write_bytes(b"x" * 100_000)
        elif kind.startswith("link-"):
            name = {"link-quarantine": "quarantine", "link-trash": "trash", "link-backups": "backups",
                    "link-lock": ".lock", "link-log": "quarantine/log.txt"}[kind]
            if kind == "link-log":
                (home / "quarantine").mkdir(exist_ok=True)
            with contextlib.suppress(FileExistsError):
                (home / name).symlink_to(outside / ("target" if "." in name else ""))
        elif kind == "estimator-breaker":
            target.write_text(json.dumps({**VALID[0], "micro_batch": 1e308}))
        elif kind == "version-odd":
            target.write_text(json.dumps({**VALID[0], "schema_version": rng.choice([-1, "2", 10**40, 1.5, None])}))
        elif kind == "catalog-shape" and not os.path.lexists(home / "catalog.json"):
            section = rng.choice(["models", "gpus", "model_folders"])
            (home / "catalog.json").write_text(json.dumps({section: rng.choice([5, None, "x", {"name": "x"}])}))
        elif kind == "catalog-garbage" and not os.path.lexists(home / "catalog.json"):
            (home / "catalog.json").write_bytes(next(raw_files(rng))[1])
        elif kind == "settings-types" and not os.path.lexists(home / "settings.json"):
            (home / "settings.json").write_text(json.dumps({
                "schema_version": rng.choice([-1, 99, "2"]), "recent_files": rng.choice([5, ["/dev/zero", "\x00"]]),
                "theme": 5, "last_scenario": rng.choice(["../../etc/passwd", "a\x00b", "x" * 5000, "good-0"]),
                "window_geometry": "!!!", "gpu_prices": {"a100-80gb": 1e308}}))
    return chosen


def fuzz_folders(count: int, seed: int) -> Counter:
    """Start the window (as a normal start does) on poisoned folders; then save, delete and quarantine in them."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication([])
    for name in ("warning", "information", "critical", "question"):  # offscreen: a dialog would wait forever
        setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    from gui import dialogs

    # the first save into the library asks for a name: take the one offered (a modal input dialog would wait
    # forever offscreen, and SIGALRM cannot interrupt Qt's modal loop)
    dialogs.ScenarioName.ask = classmethod(lambda cls, parent, title, default: cls(default))
    from gui.app import build_window
    from gui.settings_store import Settings

    rng = random.Random(seed)
    counts: Counter = Counter()
    for i in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            home, outside = Path(tmp) / "home", Path(tmp) / "outside"
            outside.mkdir()
            poisons = poison_folder(home, outside, rng)
            # what the poisons themselves put there (a link made through a linked quarantine/ lands outside)
            outside_before = _snapshot(outside)
            os.environ["LLM_MEMORY_PLANNER_HOME"] = str(home)
            try:
                with time_limit(60):
                    began = time.monotonic()
                    window, _ = build_window(None, restore=True, settings=Settings())
                    window.show()
                    window.tabs.setCurrentWidget(window.library_panel)
                    app.processEvents()
                    window.library_panel.refresh()
                    window.state.edit({"micro_batch": 3})
                    window.library_save()
                    with contextlib.suppress(Exception):
                        window.library.delete("good-1")
                    window.set_theme("dark")
                    window.state.undo_stack.setClean()
                    window.close()
                    window.deleteLater()
                    app.processEvents()
                    counts["started"] += 1
                    if time.monotonic() - began > 20:
                        counts["slow start"] += 1
                    if time.monotonic() - began > 60:  # the alarm fired inside a Qt callback, which swallowed the
                        counts["start past 60 s"] += 1  # Hang ("Error calling Python override"): counted, not lost
                        print(f"  folder {i} {poisons}: {time.monotonic() - began:.0f} s", flush=True)
            except Hang:
                counts["hang"] += 1
                print(f"  folder {i} {poisons}: hang", flush=True)
            except Exception as exc:  # noqa: BLE001
                counts["failed start-up"] += 1
                print(f"  folder {i} {poisons}: {type(exc).__name__}: {exc}", flush=True)
            if _snapshot(outside) != outside_before:
                counts["write outside"] += 1
                print(f"  folder {i} {poisons}: wrote outside", flush=True)
            lost = [f"good-{j}.json" for j in (0, 2) if not (home / "scenarios" / f"good-{j}.json").exists()]
            if lost:
                counts["lost file"] += 1
                print(f"  folder {i} {poisons}: lost {lost}", flush=True)
    return counts


# ---- kill -9 and two processes -----------------------------------------------------------------------------------

def fuzz_kills(count: int, seed: int) -> Counter:
    """kill -9 a process that saves in a loop, at random moments; the file is always whole, leftovers get cleaned."""
    from engine import scenario_from_dict
    from gui.storage import ScenarioLibrary

    rng = random.Random(seed)
    counts: Counter = Counter()
    worker = REPO / "tests" / "storage_worker.py"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "home"
        library = ScenarioLibrary(root, examples_dir=None)
        library.save(scenario_from_dict({"model": "llama-2-7b", "name": "victim"}))
        for _ in range(count):
            proc = subprocess.Popen([sys.executable, str(worker), "hammer", str(root)], stdout=subprocess.PIPE)
            proc.stdout.readline()  # "ready": it has saved once
            time.sleep(rng.uniform(0, 0.05))
            proc.kill()
            proc.wait()
            proc.stdout.close()
            try:
                scenario = ScenarioLibrary(root, examples_dir=None).load("victim")
                counts["whole"] += scenario.notes[:1] in ("a", "b") and len(scenario.notes) == 400_000
            except Exception:  # noqa: BLE001
                counts["torn"] += 1
        leftovers = [p for p in (root / "scenarios").iterdir() if p.name.endswith(".tmp")]
        counts["temp files left by kills"] = len(leftovers)
        ScenarioLibrary(root, examples_dir=None).start_up()
        counts["temp files after start-up"] = sum(p.name.endswith(".tmp") for p in (root / "scenarios").iterdir())
    return counts


RECENT_WORKER = """
import sys, time
sys.path.insert(0, {repo!r})
from pathlib import Path
import gui.settings_store as store
store.MAX_RECENT = 10_000  # no eviction: every add must survive, so a lost update shows as a missing entry
s = store.Settings()
while not (Path(s.root) / "go").exists():  # a start line, so both processes really overlap
    time.sleep(0.002)
for i in range({n}):
    s.add_recent_file("/{tag}/%d.json" % i)
"""


def two_processes_recent_files(n: int = 150) -> Counter:
    """Two processes add 150 recent files each at once (the case that lost 150 of 300): all 300 must survive."""
    import gui.settings_store as store

    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = {**os.environ, "LLM_MEMORY_PLANNER_HOME": str(home)}
        procs = [subprocess.Popen([sys.executable, "-c", RECENT_WORKER.format(repo=str(REPO), n=n, tag=tag)], env=env)
                 for tag in ("a", "b")]
        time.sleep(1.0)
        (home / "go").touch()
        codes = [p.wait(timeout=300) for p in procs]
        data = json.loads((home / "settings.json").read_text())
        kept = set(data.get("recent_files", []))
        counts["processes failed"] = sum(code != 0 for code in codes)
        counts["recent files kept"] = len(kept)
        counts["lost updates"] = 2 * n - len(kept & {f"/{t}/{i}.json" for t in "ab" for i in range(n)})
        assert store.MAX_RECENT == 10  # this process's constant was not touched
    return counts


# ---- the report ----------------------------------------------------------------------------------------------------

BAD = ("traceback", "hang", "absurd", "failed start-up", "write outside", "lost file", "torn", "processes failed",
       "lost updates", "temp files after start-up")
BAD += fuzz_imports.BAD  # tests/fuzz_imports.py: escaped-raw, read outside
BAD += ("injected", "lost", "leftover")  # tests/fuzz_exports.py and tests/fuzz_local.py
BAD += ("misrouted",)  # tests/fuzz_open.py
BAD += ("stale",)  # tests/fuzz_appstate.py: a view or the state disagreeing with the engine
BAD += ("unnamed",)  # tests/fuzz_surfaces8/9.py, fuzz_window8/9.py: a damaged presets file not named in the sentence


def run(cases: int, in_subprocess: int, folders: int, kills: int, seed: int) -> dict[str, Counter]:
    results: dict[str, Counter] = {}
    details: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["LLM_MEMORY_PLANNER_HOME"] = str(folder / "home")
        generated = cli_cases(cases + in_subprocess, seed)
        counts: Counter = Counter()
        began = time.monotonic()
        for case in generated[:cases]:
            outcome, detail = run_in_process(case, folder)
            counts[outcome] += 1
            if detail and outcome != "ok":
                details.append(f"{outcome}: {detail}")
        counts["seconds"] = round(time.monotonic() - began)
        results["command line, in-process"] = counts
        counts = Counter()
        for case in generated[cases:]:
            outcome, detail = run_subprocess(case, folder)
            counts[outcome] += 1
            if detail and outcome != "ok":
                details.append(f"{outcome} (subprocess): {detail}")
        results["command line, subprocess"] = counts
    results.update({"time keys": fuzz_time(cases // 5, seed)} if cases else {})
    results.update({"verdict: CPU memory, text, JSON, GPU counts": fuzz_verdict(cases // 5, seed)} if cases else {})
    results.update({"post-training and serving keys, rent search": fuzz_newest(cases // 5, seed)} if cases else {})
    results.update({"plan cards (PNG/PDF), intact and damaged": fuzz_card(cases * 2, seed)} if cases else {})
    results.update({"diagnose: OOM messages, GPU logs, timelines, snapshots": fuzz_diagnose(cases // 5, seed)}
                   if cases else {})
    results.update({"session 19: GGUF prefill, triton, LoRA layers, Qwen3.5 configs, damaged presets":
                    fuzz_surfaces8(cases // 5, seed)} if cases else {})
    results.update({"session 19: vision towers, VLM serving, trl-2025 / unsloth-2024 / axolotl, model presets":
                    fuzz_surfaces9(cases // 5, seed)} if cases else {})
    results.update({"session 20: serve rent, rotary fractions, new keys, gpus / host / weight_formats presets":
                    fuzz_surfaces10(cases // 5, seed)} if cases else {})
    results.update({"every command and flag, presets files whole, schema_version, importers, diagnose's readers":
                    fuzz_surfaces11(cases // 5, seed)} if cases else {})
    results.update({"sessions 21-22: Megatron logs and scripts, ms-swift switches, TRL server / verl budget exports, "
                    "new keys, served users, price lists": fuzz_surfaces12(cases // 5, seed)} if cases else {})
    if folders:
        results["poisoned data folders"] = fuzz_folders(folders, seed)
        results["config imports: devices, scripts, integers, escapes, paths"] = fuzz_imports.fuzz_imports(folders * 10, seed)
        results["poisoned local models"] = fuzz_local(folders, seed)  # tests/fuzz_local.py (issue 28)
        results["files opened in the window"] = fuzz_open(folders * 10, seed)  # tests/fuzz_open.py (issue 25.6)
        results["app state: edits, undo, 4 panes"] = fuzz_appstate(folders * 25, seed)  # tests/fuzz_appstate.py
        results["the LoRA line, the window on damaged presets"] = fuzz_window8(folders * 10, seed)
        results["vision, framework and build-date rows, a damaged model preset"] = fuzz_window9(folders * 10, seed)
        results["the serve rent tab, the window on damaged gpus / host / weight_formats presets"] = fuzz_window10(
            folders * 10, seed)
        results["the window on a damaged storage or presets file"] = fuzz_window11(folders * 5, seed)
        results["new keys, the Diagnose and rent tabs, each storage and presets file damaged in turn"] = fuzz_window12(
            folders * 10, seed)
    if cases:
        results["launch-config exports (parsed back, -o targets)"] = fuzz_exports(max(2, cases // 4), seed)
    if kills:
        results["kill -9 during saves"] = fuzz_kills(kills, seed)
        results["two processes, recent files"] = two_processes_recent_files()
    for line in details[:40]:
        print(line)
    return results




def failures(results: dict[str, Counter]) -> int:
    return sum(c[k] for c in results.values() for k in BAD)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000, help="command-line cases run in-process")
    parser.add_argument("--subprocess", type=int, default=100, help="command-line cases run as real processes")
    parser.add_argument("--folders", type=int, default=40, help="poisoned data folders the window starts on")
    parser.add_argument("--kills", type=int, default=60, help="kill -9 during saves")
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    results = run(args.cases, args.subprocess, args.folders, args.kills, args.seed)
    for part, counts in results.items():
        print(f"{part}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    bad = failures(results)
    print(f"failures (tracebacks, hangs, absurd verdicts, failed start-ups, writes outside, torn/lost files): {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
