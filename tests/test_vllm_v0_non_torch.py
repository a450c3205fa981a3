"""vLLM V0's non-torch increase at tensor parallel 1 ("non_torch_memory takes ...GiB" in the profile's start-up line),
gathered from public logs (tests/data/published/vllm_v0_non_torch.json, each row with its URL) and held against the
planner's one constant for it (engine/serving/generation.py NON_TORCH_BYTES, 0.13 GiB, calibrated on vLLM V1's DEBUG
lines on H100 by llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md).

What the term is, read in the vLLM 0.8.3 and 0.9.1 wheels (PyPI): vllm/worker/worker.py init_device sets the device,
runs gc.collect + torch.cuda.empty_cache + reset_peak_memory_stats and takes the baseline MemorySnapshot before
init_worker_distributed_environment; vllm/utils.py MemorySnapshot.non_torch_memory = (total - free) of
torch.cuda.mem_get_info() - torch.cuda.memory_reserved(); memory_profiling's non_torch_increase = that figure after
the profile run (after gc + empty_cache) minus the baseline's. So what a process held before the engine (a trainer's
CUDA context, NCCL communicators, cuBLAS handles, kernels it had loaded) is in the baseline and outside the term; the
term is the device memory allocated outside torch's caching allocator while the engine starts: vLLM's own NCCL /
custom all-reduce buffers (none at tensor parallel 1), library handles and kernel images first loaded by the profile
(lazy module loading), and anything another process allocates on the device meanwhile. Sleep mode's CuMemAllocator
pool is torch memory (a MemPool whose segments the caching allocator counts in memory_reserved). The latest V1
worker (vllm/v1/worker/gpu_worker.py since vLLM PR #19312) measures the same quantity with the same utility.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from engine.accuracy import posttraining as pt
from engine.posttraining.estimate import step_parts
from engine.scenario import scenario_from_dict
from engine.serving.generation import NON_TORCH_BYTES

GIB = 2**30
DATA = json.loads((Path(__file__).parent / "data" / "published" / "vllm_v0_non_torch.json").read_text())
ROWS = DATA["rows"]
SEVEN_B = "verl-tuning-7b-grpo-lora-1xh100"


def _card(row: dict) -> str:
    """The card's generation, from the name vLLM or the notebook printed (total memory tells the A100s apart only)."""
    name = row["gpu"]
    for card in ("H100", "A100", "T4", "RTX 4090", "RTX 4060"):
        if card in name:
            return card
    raise AssertionError(f"unknown card {name}")


def _gib(rows: list[dict]) -> list[float]:
    return [r["non_torch_gib"] for r in rows]


def test_rows_are_v0_at_tp1_with_their_source():
    assert len(ROWS) >= 12
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    for r in ROWS:
        assert r["url"].startswith("https://github.com/") and r["tp"] == 1
        assert r["process"] in ("trainer", "standalone")
        assert 0 < r["non_torch_gib"] < 1 and r["weights_gib"] > 0
        assert r["non_torch_gib"] + r["weights_gib"] < r["total_gpu_memory_gib"]
    assert {r["process"] for r in ROWS} == {"trainer", "standalone"}


def test_a_trainer_process_does_not_shrink_the_term():
    """On the cards logged both ways (T4: seven Unsloth GRPO notebooks, vLLM built in the training process, against
    Unsloth's synthetic-data notebook whose engine is a vllm serve subprocess; A100: two Unsloth GRPO runs against
    vllm-project/vllm issue #12330), the medians differ by at most 0.02 GiB: what the profile loads is loaded in
    either process."""
    for card in ("T4", "A100"):
        trainer = _gib([r for r in ROWS if _card(r) == card and r["process"] == "trainer"])
        alone = _gib([r for r in ROWS if _card(r) == card and r["process"] == "standalone"])
        assert trainer and alone
        assert abs(statistics.median(trainer) - statistics.median(alone)) <= 0.02 + 1e-9


def test_the_term_follows_the_card():
    """T4 (sm_75) 0.03-0.05 GiB, A100 (sm_80) 0.09-0.10, H100 (sm_90) 0.16: the lines order by the card, not by the
    model (the T4 lines span 3B to 14B models and a vision-language model) or the process."""
    by_card = {c: statistics.median(_gib([r for r in ROWS if _card(r) == c])) for c in ("T4", "A100", "H100")}
    assert by_card["T4"] < by_card["A100"] < by_card["H100"]
    assert max(_gib([r for r in ROWS if _card(r) == "T4"])) < min(_gib([r for r in ROWS if _card(r) == "A100"]))


def test_no_v0_figure_below_the_constant_is_sourced_for_an_h100():
    """The 7B GRPO-LoRA tuning row (one H100, vLLM 0.8 V0) is short (judged 'tight' since h-vtight: the shortfall is
    within the start-up accounting's measured band, engine/serving/startup_band.py): at the CUDA-visible total vLLM
    budgets from,
    with the weight figure's allocator rounding and rotary cache, its budget holds no KV block, 200 MiB short of one
    1,536-token request (17 MiB before h-verl7b). The one V0 line on an H100 (vllm-project/vllm PR #12126) is above the
    planner's 0.13 GiB; the median over every card (0.05 GiB, T4-heavy) misses that line by 0.11 GiB when it is left
    out. The row would start only at a non-torch increase of 0.13 GiB less its shortfall, below zero and so below
    every line read on any card (the smallest, 0.03 GiB on a T4, is at least 0.025 before rounding); so no V0 figure
    that would start the row is sourced, and the V0 accounting keeps the constant."""
    h100 = _gib([r for r in ROWS if _card(r) == "H100"])
    assert h100 and min(h100) * GIB >= NON_TORCH_BYTES
    everything = _gib(ROWS)
    assert statistics.median(everything) == pytest.approx(0.05)
    errors = {r["id"]: abs(statistics.median(_gib([o for o in ROWS if o is not r])) - r["non_torch_gib"])
              for r in ROWS}
    worst = max(errors, key=errors.get)
    assert _card(next(r for r in ROWS if r["id"] == worst)) == "H100"
    row = next(r for r in pt.read_published() if r["id"] == SEVEN_B)
    engine = step_parts(scenario_from_dict(dict(row["scenario"]))).engine
    left = engine.requested_bytes - engine.weight_bytes - engine.activation_bytes - NON_TORCH_BYTES
    shortfall = 1536 * engine.kv_bytes_per_token - left
    assert shortfall > 0 and engine.refusal is None and engine.caution is not None
    room = NON_TORCH_BYTES - shortfall  # the largest non-torch increase at which the row would start
    assert room < (min(everything) - 0.005) * GIB
