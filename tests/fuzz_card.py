"""Fuzz class of issue 25 item 4 (plan cards): PNG and PDF cards, intact and damaged, opened as scenarios.

    .venv/bin/python tests/fuzz_card.py [--count 2000] [--seed 25]

Cases: a valid card of a drawn scenario (PNG or PDF) must read back identical; then the same card truncated,
with bytes flipped, chunk lengths made huge, the scenario chunk marked compressed, duplicated or hostile
scenario JSON (control characters, 1e999, deep nesting, a list, non-UTF-8), a PDF marker with bad base64 or no
end, plain images and documents without a scenario, and random bytes behind the signatures. Pure engine, no Qt.

Outcome of one case:
  ok         an intact card read back to the identical scenario.to_dict()
  refused    a PlannerError whose text is one line that starts with the file's name and holds no control character
  lost       an intact card read back to a different scenario, or refused
  absurd     a damaged card accepted as a scenario that differs from the one written, or a refusal that is not
             one clean line
  injected   a refusal that carries a control character from the file (escape codes, newlines)
  traceback  any other exception
  hang       no answer within CASE_SECONDS
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import struct
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fuzz_cli import Hang, time_limit  # noqa: E402

from engine import PlannerError, load_scenario, scenario_from_dict  # noqa: E402
from engine.scenario.card_file import CARD_KEYWORD, card_xmp, png_with_scenario  # noqa: E402

CASE_SECONDS = 10
BASES = [
    {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "lora_rank": 32, "precision": "bf16"},
    {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "zero_stage": 3, "offload": "optimizer",
     "tokens_to_train": 2_000_000_000, "gpu_hour_price": 2.5},
    {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "ep": 8, "name": "MoE \u540d\u5b57"},
    # the newest sections (h-fuzz6): a post-training run and a served model, with user text in their names
    {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "training_objective": "grpo", "framework": "verl",
     "rollout_engine": "vllm", "num_generations": 16, "max_completion_len": 4096, "rollout_gpu_memory_utilization": 0.5,
     "critic_model": None, "reward_model": {"name": "rm \x1b[2J $(id)", "hf_config": {
         "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
         "intermediate_size": 1024, "vocab_size": 1000}}},
    {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_K_M", "n_ctx": 32768, "n_parallel": 4, "kv_cache_dtype": "q8_0", "name": "serve\u202e \u540d"},
]
HOSTILE_JSON = [
    b'{"model": "\x1b[2J\x1b[31mFITS", "gpu": "h100-sxm-80gb"}',
    b'{"model": "llama-3-8b", "micro_batch": 1e999}',
    b'{"model": "llama-3-8b", "\x1b]0;owned\x07": 1}',
    b"[" * 3000 + b"]" * 3000,
    b'["model"]',
    b"\xff\xfe\x00garbage",
    b'{"model": "llama-3-8b", "seq_len": ' + b"9" * 5000 + b"}",
    b'{"model": "llama-3-8b", "name": "line one\\nVerdict: FITS"}',
]


def tiny_png(rng: random.Random) -> bytes:
    """A small valid PNG made here (no Qt): one IHDR, one IDAT, IEND."""
    width, height = rng.randint(1, 8), rng.randint(1, 8)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(width * 3)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def tiny_pdf(xmp: bytes) -> bytes:
    return (b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Metadata 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Metadata "
            b"/Subtype /XML /Length " + str(len(xmp)).encode() + b" >>\nstream\n" + xmp + b"\nendstream\nendobj\n%%EOF\n")


def damage(raw: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return raw[: rng.randrange(len(raw))]
    if kind == 1:
        out = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(8, len(out))] = rng.randrange(256)
        return bytes(out)
    if kind == 2:  # a chunk length (or any 4 bytes) set to 4 GiB - 1
        at = rng.randrange(8, max(9, len(raw) - 4))
        return raw[:at] + b"\xff\xff\xff\xff" + raw[at + 4:]
    if kind == 3:  # the scenario chunk claims compressed text
        return raw.replace(CARD_KEYWORD + b"\x00\x00", CARD_KEYWORD + b"\x00\x01", 1)
    return raw + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))


def valid_scenario(payload: bytes) -> dict | None:
    """The scenario a payload holds when it is one, read the way a dict is (not through the card reader)."""
    try:
        return scenario_from_dict(json.loads(payload)).to_dict()
    except (PlannerError, ValueError, TypeError, RecursionError):
        return None


def make_case(rng: random.Random) -> tuple[bytes, str, dict | None, dict]:
    """(file bytes, suffix, the scenario dict it must read back to or None when a refusal is right, the scenario
    written into the card: a damaged card may still hold it intact, and then must read back to exactly it)."""
    base = scenario_from_dict(rng.choice(BASES))
    text = (json.dumps(base.to_dict(), indent=2, ensure_ascii=False) + "\n").encode()
    png = rng.random() < 0.5
    card = png_with_scenario(tiny_png(rng), text) if png else tiny_pdf(card_xmp(text, base.name))
    suffix = ".png" if png else ".pdf"
    roll = rng.random()
    if roll < 0.3:
        return card, suffix, base.to_dict(), base.to_dict()
    if roll < 0.65:
        return damage(card, rng), suffix, None, base.to_dict()
    if roll < 0.85:
        payload = rng.choice(HOSTILE_JSON)
        written = valid_scenario(payload) or base.to_dict()  # a hostile name is still a scenario's name
        if png:
            return png_with_scenario(tiny_png(rng), payload), suffix, None, written
        return tiny_pdf(card_xmp(payload, base.name)), suffix, None, written
    choices = [tiny_png(rng), tiny_pdf(b""), b"%PDF-1.7\n<planner:scenario>@@@</planner:scenario>",
               b"%PDF-1.7\n<planner:scenario>e30=", b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(64))]
    raw = rng.choice(choices)
    return raw, ".pdf" if raw.startswith(b"%PDF") else ".png", None, base.to_dict()


def judge(path: Path, expected: dict | None, written: dict) -> str:
    try:
        got = load_scenario(path).to_dict()
    except PlannerError as exc:
        text = str(exc)
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
            return "injected"
        if not text.startswith(path.name):
            return "absurd"
        if len(text) > 600:  # the scenario format's own "Known keys: ..." list (issue 25 item 6 shortens it)
            return "refused-long" if expected is None else "lost"
        return "lost" if expected is not None else "refused"
    if expected is not None:
        return "ok" if got == expected else "lost"
    return "ok" if got == written else "absurd"  # damage that spared the scenario (bytes after it, say)


def fuzz_card(count: int, seed: int) -> Counter:
    rng = random.Random(seed)
    counts: Counter = Counter()
    limit = time_limit if hasattr(signal, "SIGALRM") else lambda _seconds: contextlib.nullcontext()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            raw, suffix, expected, written = make_case(rng)
            path = Path(tmp) / f"card{i}{suffix}"
            path.write_bytes(raw)
            try:
                with limit(CASE_SECONDS):
                    counts[judge(path, expected, written)] += 1
            except Hang:
                counts["hang"] += 1
            except Exception:  # noqa: BLE001 - the outcome this fuzzer exists to find
                counts["traceback"] += 1
            path.unlink()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    counts = fuzz_card(args.count, args.seed)
    print(dict(sorted(counts.items())))
    return 1 if any(counts[k] for k in ("lost", "absurd", "injected", "traceback", "hang")) else 0


if __name__ == "__main__":
    sys.exit(main())
