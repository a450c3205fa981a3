"""The evidence rule of MFU ceilings (engine/timing/ceiling.py requiring_sources; benchmarks/ceiling_evidence.py).

Expected values come from presets/mfu_ceilings.json (generated from tests/data/published/throughput.json): MI300X fp8
dense runs come from two sources, ROCm/TransformerEngine (issue #78's FSDP1 proxy, MFU 0.218) and pytorch/ao
(torchao's float8 tensorwise table, 0.137); MI300X bf16 from one (torchao, 0.238)."""

import json

import pytest

from engine.timing.ceiling import CEILINGS_FILE, leave_out, mfu_ceiling, requiring_sources


def _margin() -> float:
    return float(json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["margin"])


def _best(gpu: str, fmt: str, source: str | None = None) -> float:
    entries = json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["best_by_source"]
    return max(e["mfu"] for e in entries if e["gpu"] == gpu and e["format"] == fmt and e["kind"] == "dense"
               and e["training"] == "full" and e["source"] != source)


def test_the_planner_holds_a_plan_to_the_one_published_run_there_is():
    """Issue 23 item 5: no plan claims more than 10% above the best published run on its GPU and format, even where
    one source published it; with one of MI300X's two fp8 sources left out, the other one's run holds the plan."""
    ceiling = mfu_ceiling("mi300x", "cdna3", "bf16")
    assert ceiling is not None and ceiling.source == "pytorch/ao" and ceiling.measured == _best("mi300x", "bf16")
    with leave_out("ROCm/TransformerEngine"):
        held = mfu_ceiling("mi300x", "cdna3", "fp8")
    assert held is not None and held.source == "pytorch/ao"
    assert held.mfu == pytest.approx((1 + _margin()) * _best("mi300x", "fp8", "ROCm/TransformerEngine"))


def test_requiring_two_sources_drops_the_ceilings_one_source_sets():
    with requiring_sources(2):
        assert mfu_ceiling("mi300x", "cdna3", "bf16") is None  # torchao alone, on the GPU and its architecture
        both = mfu_ceiling("mi300x", "cdna3", "fp8")
        assert both is not None and both.measured == _best("mi300x", "fp8")  # two sources: the better one holds
        with leave_out("ROCm/TransformerEngine"):
            assert mfu_ceiling("mi300x", "cdna3", "fp8") is None
    # outside the block the planner's rule is back
    with leave_out("ROCm/TransformerEngine"):
        assert mfu_ceiling("mi300x", "cdna3", "fp8") is not None
