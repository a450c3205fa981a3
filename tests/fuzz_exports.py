"""Fuzz class of issue 28 for launch-config exports (items 1 and 2), run by tests/fuzz_hostile.py (`make fuzz`):

    .venv/bin/python tests/fuzz_exports.py [--count 600] [--seed 28]

(a) parsed back: a random scenario of each export format whose name, notes and (where the format allows one) custom
    model name are random hostile text; the export is parsed with its framework's parser (json, yaml.safe_load,
    tomllib, `bash -n` plus shlex; nothing is run) and must equal the export of the same scenario with a plain name.
      clean      equal            injected   anything else (a key, a command, a line of its own, unwritable text)
      refused model name   verl / ms-swift-megatron refused a model name holding a control character (one sentence)
      refused    the scenario itself refused with one sentence (not expected here: the names stay within bounds)
(b) outputs: `export-config -o` onto a random hostile target (an existing file, with and without --force, the
    scenario itself, links, dangling links, a link loop, a folder, a missing folder, a file used as a folder, a FIFO,
    /dev/full, /dev/null, a read-only folder, an over-long name, an empty name), in-process under a time limit.
      written    exit 0 where writing was allowed, the target a regular file holding the export
      refused    exit 2 with one line "error: ..." ending in "." on stderr and nothing on stdout
      lost       any entry that was there before (a file's bytes, a link's target, a device) changed, or a folder
                 was created, or a refusal changed the target
      leftover   a temporary file left behind
      hang       no answer in CASE_SECONDS     traceback   an exception escaped, or exit 70
      absurd     exit 0 where it must refuse, written content wrong, or a refusal that is not one clean line
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import stat
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, run_cli  # noqa: E402
from test_config_export import SCENARIOS  # noqa: E402

from engine.configs import EXPORT_FORMATS, export_config  # noqa: E402
from engine.errors import PlannerError  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402

CASE_SECONDS = 10
BAD = ("injected", "traceback", "hang", "lost", "leftover", "absurd")
CUSTOM_MODEL_FORMATS = ("deepspeed", "accelerate", "axolotl", "llama-factory", "megatron", "trl", "verl",
                        "ms-swift-megatron", "mlx-lm")
# formats whose command line refuses a model name holding a control character or a line break (one sentence)
PRINTABLE_MODEL_FORMATS = ("verl", "ms-swift-megatron")
TINY_CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 8, "num_attention_heads": 8,
               "intermediate_size": 1024, "vocab_size": 1000}
FRAGMENTS = ["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029", "\x00", "\x7f", "\x1b[2J", "\x07", "\t", "\x0b", "\x0c",
             "\ud800", "\udfff", "\u202e", "\ufeff", "$(id)", "`id`", "${HOME}", "$((1+1))", ";", "&&", "|", "#",
             ": ", "- ", "? ", "&a", "*a", "!!python/object/apply:os.system", "'", '"', "\\", "\\n", "{", "}", "[",
             "]", "[model]", "name = \"x\"", "trust_remote_code: true", "deepspeed: /tmp/evil.json", "--load /x",
             "%s", "{0}", "1e5", "5.", ".inf", "名前", "🙂", " ", "  ", "x", "---", "...", "<b>", "\x1c", "\x1d", "\x1e"]
PLAIN = "plain name"
HYDRA_PLAIN = re.compile(r"[A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*")


def hydra_reads(value: str) -> str:
    """The string verl's config holds for an override value the exports write (a plain path, or a double-quoted
    string), decoded as Hydra and OmegaConf do, written here from their sources and not from the exporter:
    facebookresearch/hydra@2c03d1b9 hydra/core/override_parser/overrides_visitor.py:337-385 (each run of backslashes
    before a quote: every other character kept from the one after the first), then omry/omegaconf@63b63041
    omegaconf/grammar/OmegaConfGrammarLexer.g4:24-27 with grammar_visitor.py:366-394 (an odd run of k backslashes
    before "${" is an escaped "${" after (k-1)/2 backslashes; an even run before "${" leaves a live interpolation).
    ValueError for anything Hydra would not read as that one string (a sweep, a list, an interpolation)."""
    if not (len(value) >= 2 and value[0] == value[-1] == '"'):
        if not HYDRA_PLAIN.fullmatch(value):
            raise ValueError(f"unquoted value Hydra splits or types: {value!r}")
        return value
    body, pieces, i = value[1:], [], 0  # the closing quote kept, as Hydra does
    for m in re.finditer(r'(\\+)"', body):
        closing = m.end() == len(body)
        if len(m.group(1)) % 2 == (0 if not closing else 1):  # Hydra's lexer ends the string at an even run's quote
            raise ValueError(f"the quoted value ends early: {value!r}")
        pieces += [body[i:m.start()], body[m.start() + 1:m.end():2]]
        i = m.end()
    pieces.append(body[i:-1])
    if any('"' in piece for piece in pieces[::2]):  # a quote with no backslash before it ends the string
        raise ValueError(f"an unescaped quote inside the quoted value: {value!r}")
    text = "".join(pieces)
    if text == "???":
        raise ValueError("OmegaConf's missing value")

    def unescape(m: re.Match[str]) -> str:
        k = len(m.group(1))
        if k % 2 == 0:
            raise ValueError(f"a live interpolation: {value!r}")
        return "\\" * ((k - 1) // 2) + "${"

    return re.sub(r"(\\*)\$\{", unescape, text) if "${" in text else text


class MlxLmLoader(yaml.SafeLoader):
    """The loader `mlx_lm.lora --config` reads its file with, written here from its source and not from the exporter:
    ml-explore/mlx-lm@d78bf58e mlx_lm/lora.py lines 28-42 (yaml.SafeLoader with an implicit float resolver that
    reads "1e5" or "5." as a float, which PyYAML's own leaves a string) and line 381 (yaml.load(file, yaml_loader))."""


MlxLmLoader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(r"""^(?:
     [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""", re.X), list("-+0123456789."))


def hostile_text(rng: random.Random) -> str:
    text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 25)))
    return text[:400]  # names are at most 500 characters (engine/input_bounds.py)


def _parsed(fmt: str, text: str, folder: Path) -> Any:
    if fmt == "deepspeed":
        data = json.loads(text)
        data.pop("_comment", None)  # the comment quotes the name; the rest is the plan
        return data
    if fmt == "torchtitan":
        return tomllib.loads(text)
    if fmt in ("megatron", "verl", "ms-swift-megatron"):
        script = folder / "launch.sh"
        script.write_text(text, encoding="utf-8")
        check = subprocess.run(["bash", "-n", str(script)], capture_output=True, timeout=CASE_SECONDS)
        if check.returncode:
            raise ValueError(f"bash -n: {check.stderr[:200]!r}")
        words = shlex.split(text, comments=True)
        if fmt == "ms-swift-megatron":  # argparse reads --model=NAME (a name starting with "-") as --model NAME
            return [part for w in words for part in (w.split("=", 1) if w.startswith("--model=") else [w])]
        if fmt != "verl":
            return words
        # verl's words are Hydra overrides: the models' paths (the only text from the user: the policy's and, for PPO,
        # the critic's, which user audit 8 added) as verl's config holds them
        keys = ("actor_rollout_ref.model.path=", "critic.model.path=")
        return [next(([k, hydra_reads(w[len(k):])] for k in keys if w.startswith(k)), w) for w in words]
    if fmt == "mlx-lm":
        return yaml.load(text, MlxLmLoader)  # noqa: S506 - a SafeLoader subclass, as mlx-lm reads it
    return yaml.safe_load(text)


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def parsed_back_case(rng: random.Random, folder: Path) -> tuple[str, str]:
    fmt = rng.choice(EXPORT_FORMATS)
    base = rng.choice(SCENARIOS[fmt])
    name, notes, model = hostile_text(rng), hostile_text(rng), hostile_text(rng)
    custom = fmt in CUSTOM_MODEL_FORMATS and rng.random() < 0.5
    if fmt in PRINTABLE_MODEL_FORMATS and rng.random() < 0.7:  # mostly names the command line can carry
        model = "".join(ch for ch in model if ch.isprintable()) or "m"
    if custom:  # the small dense model has no experts to spread, nor 5 layers a stage to recompute, nor 16 to adapt
        base = {k: v for k, v in base.items() if k not in ("ep", "recompute_num_layers", "lora_layers",
                                                              "frozen_layers")}
    try:
        scenarios = [scenario_from_dict({**base, "name": n, "notes": notes if n == name else "",
                                         **({"model": {"name": m, "hf_config": TINY_CONFIG}} if custom else {})})
                     for n, m in ((name, model), (PLAIN, PLAIN))]
    except PlannerError as exc:  # a name the scenario itself refuses, in one sentence
        return "refused", f"{fmt}: {exc}"[:200]
    try:
        hostile, plain = (export_config(s, fmt) for s in scenarios)
    except PlannerError as exc:  # the documented refusal: a model name a command line cannot carry
        unprintable = custom and fmt in PRINTABLE_MODEL_FORMATS and not model.isprintable()
        return ("refused model name", "") if unprintable else ("traceback", f"{fmt}: refused {exc}"[:300])
    try:
        hostile.encode("utf-8")
        back = _renamed(_renamed(_parsed(fmt, hostile, folder), name, PLAIN), model, PLAIN)
        same = back == _parsed(fmt, plain, folder) and hostile.count("\n") == plain.count("\n")
    except (ValueError, yaml.YAMLError, UnicodeError) as exc:  # the export no longer parses: text became syntax
        return "injected", f"{fmt}: {type(exc).__name__}: {exc}"[:300] + f" name={name!r}"
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{fmt}: {type(exc).__name__}: {exc}"[:300]
    return ("clean", "") if same else ("injected", f"{fmt}: name={name!r} model={model!r}"[:300])


# ---- -o outputs ----------------------------------------------------------------------------------------------------

TARGETS = ("new", "existing", "existing-force", "scenario", "scenario-force", "link", "link-force", "dangling",
           "loop", "loop-below", "folder", "folder-force", "missing-folder", "file-as-folder", "fifo", "fifo-force",
           "dev-full", "dev-null", "read-only-folder", "long-name", "empty", "link-folder-new")
# the only targets that may be written (root writes into a read-only folder too: permissions do not bind it)
ALLOWED = {"new", "existing-force", "link-folder-new"} | ({"read-only-folder"} if os.geteuid() == 0 else set())


def snapshot(paths: list[Path]) -> dict[str, tuple]:
    """What must not change: type, inode, device number, link target and bytes of each entry (links not followed)."""
    out: dict[str, tuple] = {}
    for p in paths:
        try:
            st = os.lstat(p)
        except OSError:
            out[str(p)] = ("absent",)
            continue
        body = p.read_bytes() if stat.S_ISREG(st.st_mode) else os.readlink(p) if stat.S_ISLNK(st.st_mode) else b""
        out[str(p)] = (stat.S_IFMT(st.st_mode), st.st_ino, st.st_rdev, body)
    return out


def make_target(kind: str, folder: Path, scenario: Path) -> tuple[str, list[str], list[Path]]:
    """(path to give -o, extra arguments, entries that must stay as they are)."""
    keep = folder / "keep.txt"
    keep.write_text("precious\n")
    extra = ["--force"] if kind.endswith("-force") else []
    watched = [keep, scenario, folder / "missing"]
    target: Path | str = folder / "out.sh"
    if kind.startswith("existing"):
        (folder / "out.sh").write_text("mine\n")
        watched += [] if kind == "existing-force" else [folder / "out.sh"]
    elif kind.startswith("scenario"):
        target = scenario
    elif kind.startswith("link"):
        target = folder / "link.sh"
        if kind == "link-folder-new":  # a link above the file is the user's layout: followed
            (folder / "real").mkdir()
            (folder / "via").symlink_to(folder / "real")
            target = folder / "via" / "out.sh"
        else:
            target.symlink_to(keep)
    elif kind == "dangling":
        target = folder / "dangling.sh"
        target.symlink_to(folder / "missing" / "made.sh")
    elif kind.startswith("loop"):
        (folder / "a").symlink_to(folder / "b")
        (folder / "b").symlink_to(folder / "a")
        target = folder / "a" / "x.sh" if kind == "loop-below" else folder / "a"
    elif kind.startswith("folder"):
        target = folder
    elif kind == "missing-folder":
        target = folder / "missing" / "deeper" / "out.sh"
    elif kind == "file-as-folder":
        target = keep / "out.sh"
    elif kind.startswith("fifo"):
        target = folder / "pipe"
        os.mkfifo(target)
    elif kind in ("dev-full", "dev-null"):
        target = "/dev/full" if kind == "dev-full" else "/dev/null"
        extra = ["--force"]
    elif kind == "read-only-folder":
        (folder / "ro").mkdir()
        (folder / "ro").chmod(0o555)
        target = folder / "ro" / "out.sh"
    elif kind == "long-name":
        target = folder / ("n" * 300 + ".sh")
    elif kind == "empty":
        target = ""
    watched += [Path(target)] if kind not in ALLOWED and target != "" else []
    return str(target), extra, [*dict.fromkeys(watched)]


def output_case(rng: random.Random, folder: Path, scenario_bytes: bytes, tried: Counter) -> tuple[str, str]:
    kind = rng.choice(TARGETS)
    tried[kind] += 1
    fmt = rng.choice(("deepspeed", "accelerate", "axolotl", "llama-factory", "megatron"))
    scenario = folder / "scenario.json"
    scenario.write_bytes(scenario_bytes)
    target, extra, watched = make_target(kind, folder, scenario)
    before = snapshot(watched)
    try:
        code, out, err = run_cli(["export-config", str(scenario), "--to", fmt, "-o", target, *extra], CASE_SECONDS)
    except Hang:
        return "hang", kind
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{kind}: {type(exc).__name__}: {exc}"[:300]
    finally:
        with contextlib.suppress(OSError):
            (folder / "ro").chmod(0o755)
    if snapshot(watched) != before:
        return "lost", kind
    if any(name.endswith(".tmp") for _, _, names in os.walk(folder) for name in names):
        return "leftover", kind
    if code == 70 or "Traceback" in err:
        return "traceback", f"{kind}: {err[-300:]}"
    if code == 2:
        lines = err.splitlines()
        one = out == "" and len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith(".")
        return ("refused", "") if one else ("absurd", f"{kind}: refusal {err[:200]!r}")
    written = Path(target).read_text(encoding="utf-8") if code == 0 and Path(target).is_file() else None
    expected = export_config(scenario_from_dict(json.loads(scenario_bytes)), fmt)
    if code == 0 and kind in ALLOWED and written == expected:
        return "written", ""
    return "absurd", f"{kind}: exit {code}, written {written is not None}"


def fuzz_exports(count: int, seed: int) -> Counter:
    """`count` cases, half parsed back (a), half -o outputs (b); outcome name -> count, plus the seconds taken."""
    import time

    rng = random.Random(seed)
    counts: Counter = Counter()
    details: list[str] = []
    tried: Counter = Counter()  # -o targets by kind, printed so a run's report can list the cases tried
    scenario_bytes = (REPO / "examples" / "llama3-8b-lora-4090.json").read_bytes()
    began = time.monotonic()
    for i in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            outcome, detail = (parsed_back_case(rng, Path(tmp)) if i % 2 == 0
                               else output_case(rng, Path(tmp), scenario_bytes, tried))
        counts[outcome] += 1  # "clean" only comes from (a), "written" only from (b)
        if detail and outcome != "refused":
            details.append(f"{outcome} ({'parsed back' if i % 2 == 0 else '-o'}): {detail}")
    counts["seconds"] = round(time.monotonic() - began)
    for line in details[:20]:
        print(line)
    print("export-config -o targets tried: " + ", ".join(f"{k} {v}" for k, v in sorted(tried.items())))
    return counts


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    result = fuzz_exports(args.count, args.seed)
    print(", ".join(f"{k} {v}" for k, v in sorted(result.items())))
    bad = sum(result[k] for k in BAD)
    print(f"failures: {bad}")
    sys.exit(1 if bad else 0)
