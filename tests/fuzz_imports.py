"""Fuzzing the config import (issue 28, items 4-8 and 12): pipes and devices as inputs, adversarial launch scripts,
huge integers, terminal escapes in what `import` prints, paths that leave the job's folder, and (h-fuzz7) structures
whose parse grows faster than the file: TOML dotted keys, YAML merge keys and alias bombs.

    .venv/bin/python tests/fuzz_imports.py [--count 300] [--seed 28]

Each case imports one job in-process, through import_files() or through the `import` command (main()), in a
worker thread with a time limit (a FIFO read blocks the thread that reads it; the case then counts as a hang).

Outcome of one case:
  imported      the files became a scenario
  refused       one PlannerError sentence: one line, no "[Errno", no full path, no Python advice
  traceback     any other exception, or a refusal that is not one plain sentence
  hang          no answer within CASE_SECONDS
  escaped-raw   the `import` command printed a control, escape or bidi-override character from a file
  read outside  a value only a file outside the job's folder holds reached the scenario
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.cli import main as cli_main  # noqa: E402
from engine.configs import import_files  # noqa: E402
from engine.errors import PlannerError  # noqa: E402

CASE_SECONDS = 10  # a hang: a refused device or a bounded script takes milliseconds, the slowest 1 MB script ~2 s
BAD = ("escaped-raw", "read outside")  # besides fuzz_hostile's "traceback" and "hang"
HF_JOB = "model_name_or_path: meta-llama/Meta-Llama-3-8B\nper_device_train_batch_size: 2\n"
MEGATRON = "#!/bin/bash\ntorchrun pretrain_gpt.py --num-layers 2 \\\n"
NASTY = ["\x1b[2J\x1b[H", "\x1b]0;owned\x07", "\u202eSTIF", "\nVerdict: FITS", "\x9b31m", "\x07", "\u2066x\u2069",
         "\r\x1b[Kfake", "\x00", "\ud800"]
SECRET_BATCH = 7777  # only the file outside the job's folder says this


def _raw_controls(text: str) -> bool:
    """Whether text holds a character a terminal acts on (other than our own line breaks)."""
    return any(not ch.isprintable() and ch != "\n" for ch in text)


def _devices(rng: random.Random, folder: Path) -> list[Path]:
    kind = rng.choice(["/dev/zero", "/dev/full", "/dev/null", "/dev/urandom", "fifo", "loop", "folder", "link-zero",
                       "dangling", "fifo-beside"])
    path = folder / rng.choice(["train.yaml", "ds_config.json", "job.toml", "pretrain.sh", "config"])
    if kind.startswith("/dev/"):
        return [Path(kind)]
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link-zero":
        path.symlink_to("/dev/zero")
    elif kind == "dangling":
        path.symlink_to(folder / "missing")
    else:  # a FIFO where a job's DeepSpeed file is expected
        os.mkfifo(folder / "ds.json")
        path = folder / "train.yaml"
        path.write_text(HF_JOB + "deepspeed: ds.json\n")
    return [path]


def _script(rng: random.Random) -> str:
    kind = rng.choice(["doubling", "nested", "unclosed", "heredoc", "long line", "expr", "overflow", "defaults"])
    n = rng.randint(1, 60)
    if kind == "doubling":
        return "A0=" + "x" * rng.randint(1, 64) + "\n" + "".join(
            f"A{i}=${{A{i - 1}}}${{A{i - 1}}}\n" for i in range(1, n)) + MEGATRON + f"  --seq-length $A{n - 1}\n"
    if kind == "nested":
        depth = rng.randint(1, 3000)
        return MEGATRON + "  --seq-length $((" + "(" * depth + "1" + ")" * depth + "))\n"
    if kind == "unclosed":
        return MEGATRON + "  --seq-length " + rng.choice(["$((", "${A:-", "$(expr ", "$(("]) * rng.randint(1, 60_000)
    if kind == "heredoc":
        return MEGATRON + "cat <<EOF\n" + "$A ${B} $((C*2)) \\\n" * rng.randint(1, 40_000) + "EOF\n"
    if kind == "long line":
        return MEGATRON + "  --micro-batch-size " + rng.choice(["9", "x", "'a b", "\"$((1"]) * rng.randint(1, 300_000)
    if kind == "expr":
        return MEGATRON + "  --seq-length $(expr " + "(" * rng.randint(1, 100_000) + "\n"
    if kind == "overflow":
        return "N=" + "9" * rng.randint(1, 18) + "\nM=$((" + "*".join(["N"] * n) + "))\n" + MEGATRON + \
            "  --micro-batch-size $M --global-batch-size $((M*M))\n"
    return MEGATRON + "".join(f"  --seq-length ${{V{i}:-{i}}} \\\n" for i in range(n * 100)) + "\n"


# post-training launches (issue 22): verl overrides, an OpenRLHF command, TRL and ms-swift commands, TRL and verl YAML
RL_HEADS = [
    ("run.sh", "python3 -m verl.trainer.main_ppo algorithm.adv_estimator={v} actor_rollout_ref.rollout.n={v} \\\n"
               "  actor_rollout_ref.rollout.gpu_memory_utilization={v} data.max_prompt_length={v}\n"),
    ("run.sh", "python3 -m openrlhf.cli.train_ppo_ray --vllm_num_engines {v} --vllm_tensor_parallel_size {v} "
               "--n_samples_per_prompt {v} --vllm_gpu_memory_utilization {v} --advantage_estimator {v}\n"),
    ("run.sh", "accelerate launch examples/scripts/grpo.py --num_generations {v} --vllm_mode {v} "
               "--vllm_gpu_memory_utilization {v} --beta {v} --num_processes {v}\n"),
    ("run.sh", "swift rlhf --rlhf_type {v} --sleep_level {v} --use_vllm {v} --vllm_max_num_seqs {v}\n"),
    ("grpo.yaml", "num_generations: {v}\nuse_vllm: {v}\nvllm_gpu_memory_utilization: {v}\nmax_prompt_length: {v}\n"),
    ("ppo.yaml", "actor_rollout_ref:\n  rollout:\n    n: {v}\n    name: {v}\n    tensor_model_parallel_size: {v}\n"
                 "algorithm: {adv_estimator: {v}}\n"),
]
RL_VALUES = ["0", "-1", "1e400", "nan", "inf", "0.0", "2.5", "'${oc.select:x}'", "'???'", "[1, 2]", "{a: 1}", "null",
             "9" * 40, "grpo", "server", "\x1b[2J", "$((1/0))", "true", "'a b'"]


def _post_training(rng: random.Random) -> tuple[str, str]:
    name, template = rng.choice(RL_HEADS)
    parts = template.split("{v}")
    return name, parts[0] + "".join(rng.choice(RL_VALUES) + part for part in parts[1:])


def _huge_integer(rng: random.Random) -> tuple[str, str]:
    digits = rng.choice(["9" * rng.randint(4_000, 12_000), "0x" + "f" * rng.randint(3_000, 200_000),
                         "1" + "0" * rng.randint(4_290, 4_310), "-" + "9" * 5_000])
    if digits.startswith("0x"):
        return "train.yaml", HF_JOB + f"gradient_accumulation_steps: {digits}\n"
    return rng.choice([("train.yaml", HF_JOB + f"gradient_accumulation_steps: {digits}\n"),
                       ("ds.json", '{"zero_optimization": {"stage": ' + digits + '}}'),
                       ("job.toml", f"[job]\ndump_folder = 'x'\n[training]\nlocal_batch_size = {digits}\n")])


def _structure(rng: random.Random) -> tuple[str, str]:
    """h-fuzz7: files whose parse could grow faster than the file (TOML dotted keys and headers, which tomllib reads
    in time quadratic in the parts; YAML merge keys, which copy the merged mapping; alias bombs) or is large but
    linear (a long line, deep block nesting, many keys), under the 1 MB limit."""
    n = rng.choice([2, 31, 32, 33, 200, 5_000, rng.randint(1, 300_000)])
    kind = rng.choice(["toml-dotted", "toml-header", "toml-inline", "toml-quoted", "yaml-merge", "yaml-laughs",
                       "yaml-block", "long-line", "many-keys"])
    if kind == "toml-dotted":
        return "job.toml", "[training]\n" + "a" + rng.choice([".a", " . a"]) * n + " = 1\n"
    if kind == "toml-header":
        return "job.toml", rng.choice(["[", "[["]) + "a." * n + "a" + rng.choice(["]", "]]"]) + "\nx = 1\n"
    if kind == "toml-inline":
        return "job.toml", "x = {" + "a" + ".a" * n + " = 1}\n"
    if kind == "toml-quoted":
        return "job.toml", '"a".' * min(n, 100_000) + '"a" = 1\n'
    if kind == "yaml-merge":
        keys, merges = rng.choice([(10, 10), (5_000, 3_000), (20_000, 30_000)])
        return "train.yaml", (HF_JOB + "base: &base {" + ", ".join(f"k{i}: 1" for i in range(keys)) + "}\n"
                              + "".join(f"m{i}: {{<<: *base}}\n" for i in range(merges)))
    if kind == "yaml-laughs":
        width, levels = rng.choice([(2, 5), (9, 9), (10, 30)])
        return "train.yaml", HF_JOB + "l0: &l0 [lol]\n" + "".join(
            f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]\n" for i in range(1, levels))
    if kind == "yaml-block":
        depth = min(n, 1_000)
        return "train.yaml", HF_JOB + "".join(" " * i + f"k{i}:\n" for i in range(depth)) + " " * depth + "x: 1\n"
    if kind == "long-line":
        return "train.yaml", HF_JOB + "model_name_or_path: " + "x" * min(n * 3, 900_000) + "\n"
    return "train.yaml", HF_JOB + "".join(f"k{i}: {i}\n" for i in range(min(n, 20_000)))


def _escapes(rng: random.Random) -> str:
    bits = [json.dumps(rng.choice(NASTY) + rng.choice(NASTY)) for _ in range(3)]
    return (f"model_name_or_path: {bits[0]}\nper_device_train_batch_size: 2\noptim: {bits[1]}\n"
            f"{bits[2]}: 1\nattn_implementation: {json.dumps(rng.choice(NASTY))}\n")


def _outside(rng: random.Random, folder: Path) -> list[Path]:
    (folder / "secret.json").write_text(json.dumps({"train_micro_batch_size_per_gpu": SECRET_BATCH,
                                                    "zero_optimization": {"stage": 3}}))
    job = folder / "jobs" / "a"
    job.mkdir(parents=True)
    (job / "ds.json").symlink_to(folder / "secret.json")
    ref = rng.choice(["../../secret.json", str(folder / "secret.json"), "ds.json",
                                             "../a/../../secret.json"])
    (job / "train.yaml").write_text(f"model_name_or_path: x\ngradient_accumulation_steps: 1\ndeepspeed: {ref}\n")
    return [job / "train.yaml"]


def _with_limit(call: Callable[[], object]) -> tuple[str, object]:
    """("done", value) / ("raised", exception) / ("hang", None) for call() in a worker thread."""
    box: list[tuple[str, object]] = []

    def target() -> None:
        try:
            box.append(("done", call()))
        except BaseException as exc:  # noqa: BLE001 - every escape is an outcome to count
            box.append(("raised", exc))

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(CASE_SECONDS)
    return box[0] if box else ("hang", None)


def _refusal_outcome(exc: object) -> str:
    if not isinstance(exc, PlannerError):
        return "traceback"
    text = str(exc)
    plain = "\n" not in text and "Errno" not in text and "set_int_max_str_digits" not in text and "/tmp" not in text
    return "refused" if plain else "traceback"


def _run_case(paths: list[Path], via_cli: bool) -> str:
    if not via_cli:
        status, value = _with_limit(lambda: import_files(paths))
        if status == "hang":
            return "hang"
        if status == "raised":
            return _refusal_outcome(value)
        return "read outside" if SECRET_BATCH in (value.scenario.get("micro_batch"),) else "imported"
    out, err = io.StringIO(), io.StringIO()

    def run_cli() -> int:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return cli_main(["import", *map(str, paths)])

    streams = sys.stdout, sys.stderr
    status, value = _with_limit(run_cli)
    if status == "hang":
        sys.stdout, sys.stderr = streams  # the stuck thread never leaves its redirect_stdout()
        return "hang"
    if status == "raised" or value not in (0, 2):
        return "traceback"
    if _raw_controls(out.getvalue()) or _raw_controls(err.getvalue()):
        return "escaped-raw"
    if str(SECRET_BATCH) in out.getvalue():
        return "read outside"
    return "imported" if value == 0 else "refused"


def fuzz_imports(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` generated imports (see the module docstring)."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    for i in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            family = ("devices", "scripts", "integers", "escapes", "outside", "post-training", "structures")[i % 7]
            if family == "devices" and sys.platform != "win32":
                paths = _devices(rng, folder)
            elif family == "outside" and sys.platform != "win32":
                paths = _outside(rng, folder)
            else:
                name, text = (("pretrain.sh", _script(rng)) if family == "scripts" else _huge_integer(rng)
                              if family == "integers" else _post_training(rng) if family == "post-training"
                              else _structure(rng) if family == "structures" else ("train.yaml", _escapes(rng)))
                (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
                paths = [folder / name]
            outcome = _run_case(paths, via_cli=rng.random() < 0.5 or family == "escapes")
            counts[outcome] += 1
            counts[f"cases: {family}"] += 1
            if family == "devices" and outcome == "hang":  # let the blocked reader go before the folder goes
                for fifo in folder.glob("*"):
                    with contextlib.suppress(OSError):
                        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    counts = fuzz_imports(args.count, args.seed)
    print("config imports: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if v))
    bad = sum(counts[k] for k in ("traceback", "hang", *BAD))
    print(f"failures (tracebacks, hangs, raw escapes, reads outside the job's folder): {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
