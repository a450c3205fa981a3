"""A ceiling group of one source's runs does not bind alone (engine/timing/ceiling.py POOLED_SOURCES).

The rule on a constructed set of runs (the expected values are the constructed MFUs, carried between GPUs at
hardware.rate_share as ceiling._best does), and on the case a user-style audit found: Mixtral 8x7B on 16 A100 80GB
under Megatron was held to the only A100 MoE run, modelscope/ms-swift's Qwen3-30B-A3B on 16 A800 (MFU 0.1028,
presets/mfu_ceilings.json), and every layout tied at MFU 11%."""

import json

import pytest

from engine.scenario import scenario_from_dict
from engine.timing import ceiling as ceiling_module
from engine.timing.ceiling import CEILINGS_FILE, POOLED_SOURCES, ceiling_format, leave_out, mfu_ceiling
from engine.timing.hardware import rate_share
from engine.timing.model import step_time


def _run(gpu: str, kind: str, source: str, mfu: float, training: str = "full", fmt: str = "bf16") -> dict:
    return {"gpu": gpu, "arch": "hopper", "format": fmt, "kind": kind, "training": training, "source": source,
            "row": f"{source}-{gpu}-{kind}", "mfu": mfu}


@pytest.fixture
def constructed(monkeypatch):
    """Replace the published set's ceilings with the runs a test gives (the caches cleared before and after)."""
    def use(runs: list[dict]) -> None:
        monkeypatch.setattr(ceiling_module, "read_preset_json", lambda _path: {"margin": 0.1, "best_by_source": runs})
        ceiling_module.forget_ceilings()
    yield use
    monkeypatch.undo()
    ceiling_module.forget_ceilings()


def test_one_source_is_pooled_with_the_next_kind_until_two_sources_hold_it(constructed):
    """H100 bf16: MoE runs by source A only (0.10), dense runs by B (0.50) and C (0.45). The MoE plan is no longer
    held to A's run alone: pooled with the dense runs (which bound an MoE step from above), it takes B's 0.50."""
    constructed([_run("h100-sxm-80gb", "moe", "A", 0.10), _run("h100-sxm-80gb", "dense", "B", 0.50),
                 _run("h100-sxm-80gb", "dense", "C", 0.45)])
    assert POOLED_SOURCES == 2
    held = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True)
    assert held is not None and held.source == "B" and held.measured == pytest.approx(0.50)
    assert held.mfu == pytest.approx(1.1 * 0.50)
    with leave_out("B"):  # C's dense run is the second source then
        assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True).measured == pytest.approx(0.45)
    # a dense plan's own group has two sources: it binds as before
    assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16").measured == pytest.approx(0.50)


def test_a_group_of_two_sources_binds_as_it_is(constructed):
    """MoE runs by A (0.10) and D (0.20): two sources, so the better holds the MoE plan, not the dense 0.50."""
    constructed([_run("h100-sxm-80gb", "moe", "A", 0.10), _run("h100-sxm-80gb", "moe", "D", 0.20),
                 _run("h100-sxm-80gb", "dense", "B", 0.50)])
    assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True).measured == pytest.approx(0.20)
    with leave_out("D"):  # A alone again: pooled with B's dense run
        assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True).measured == pytest.approx(0.50)


def test_the_pool_takes_the_architecture_first_and_stays_within_the_gpus_best_run(constructed):
    """Pooling never lifts a plan above issue 23 item 5's bound, the best run of any kind on its GPU in its format:
    on H100 source A ran MoE (0.10) and dense (0.30); on H200 source B ran MoE at 0.40 (carried to H100 at the two
    GPUs' rate shares). The MoE plan's pool reaches two sources at the architecture's MoE runs (B's), but H100's own
    best run is A's dense 0.30, so the plan is held there: above A's MoE run alone, not above what H100 was seen to
    reach. On a GPU with no run of its own, the architecture's best is the bound."""
    constructed([_run("h100-sxm-80gb", "moe", "A", 0.10), _run("h100-sxm-80gb", "dense", "A", 0.30),
                 _run("h200", "moe", "B", 0.40)])
    held = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True)
    assert held.measured == pytest.approx(0.30) and held.source == "A"
    carried = 0.40 * rate_share("h100-sxm-80gb", "bf16") / rate_share("h200", "bf16")
    assert carried > 0.30  # the pool's best, clamped
    assert mfu_ceiling("h200", "hopper", "bf16", moe=True).measured == pytest.approx(0.40)  # H200's own best


def test_a_lone_source_still_binds_where_nothing_else_was_published(constructed):
    """Issue 23 item 5: a plan keeps the one published run's bound where no other evidence is at hand (unlike
    requiring_sources, which drops such a group)."""
    constructed([_run("h100-sxm-80gb", "moe", "A", 0.10)])
    assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True).measured == pytest.approx(0.10)
    assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16").measured == pytest.approx(0.10)  # a dense plan: the MoE run
    with leave_out("A"):
        assert mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", moe=True) is None


MIXTRAL_ON_16_A100 = {
    "model": "mixtral-8x7b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 2, "framework": "megatron",
    "method": "full", "precision": "mixed-bf16", "optimizer": "adamw", "micro_batch": 1, "grad_accum": 16,
    "seq_len": 4096, "tp": 2, "pp": 2, "ep": 4, "zero_stage": 1, "sequence_parallel": True,
    "checkpointing": "selective", "attention": "flash",
}


def _entries() -> list[dict]:
    return json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["best_by_source"]


def test_mixtral_on_a100_is_held_to_the_a100_moe_runs_of_two_sources():
    """presets/mfu_ceilings.json holds two sources' A100 80GB MoE runs in bf16: ms-swift's fine-grained Qwen3-30B-A3B
    (0.1028) and FlagPerf's coarse 8-expert top-2 pretraining on Qwen1.5-1.8B's shape (tests/data/published/
    throughput/flagperf-qwen1.5-moe.json, 0.4503 in bf16 and 0.4556 in fp16 by this project's FLOPs count). Two
    sources bind on their own, so a Mixtral plan on A100 is held to 1.1 x the better of them, below the dense runs'
    bound (torchtune's Llama 3.2 3B with chunked cross-entropy, 0.6911, that held it while ms-swift's run was the only
    one). Left without either source (cross-validation), the other stands alone and pools with the dense runs again."""
    # fp16 runs are filed with bf16 on the A100, whose dense peaks of the two are one figure (ceiling_format): FlagPerf's
    # fp16 run (0.4556) is its best
    a100 = [e for e in _entries() if e["gpu"] == "a100-80gb" and ceiling_format(e["gpu"], e["format"]) == "bf16"]
    moe = [e for e in a100 if e["kind"] == "moe" and e["training"] == "full"]
    assert {e["source"] for e in moe} == {"modelscope/ms-swift", "FlagOpen/FlagPerf"}
    best_moe = max(moe, key=lambda e: e["mfu"])
    best = max(a100, key=lambda e: e["mfu"])
    assert best_moe["source"] == "FlagOpen/FlagPerf" and best_moe["mfu"] < best["mfu"]
    held = mfu_ceiling("a100-80gb", "default", "bf16", moe=True)
    assert held is not None and held.row == best_moe["row"] and held.mfu == pytest.approx(1.1 * best_moe["mfu"])
    t = step_time(scenario_from_dict(MIXTRAL_ON_16_A100))
    assert t.mfu <= held.mfu  # the time model's own figure (0.645 for this plan) held to the MoE runs'
    for lone in ("modelscope/ms-swift", "FlagOpen/FlagPerf"):
        with leave_out(lone):  # the other source alone: pooled with the dense runs, whose best binds
            pooled = mfu_ceiling("a100-80gb", "default", "bf16", moe=True)
            assert pooled is not None and pooled.row == best["row"] and pooled.mfu == pytest.approx(1.1 * best["mfu"])
