"""engine/accuracy/regimes.py: the regimes issue 23 named when it was filed, each a predicate over a published run's
scenario. Expected memberships come from the rows' own settings (tests/data/published/, each row with its source)."""

from engine import scenario_from_dict
from engine.accuracy.published_throughput import compare, load_rows, source_of
from engine.accuracy.regimes import REGIMES, regime_summary


def _regimes_of(row: dict) -> set[str]:
    s = scenario_from_dict(row["scenario"])
    return {r.name for r in REGIMES if r.holds(s, source_of(row))}


def test_each_regime_takes_the_runs_the_issue_described():
    rows = {r["id"]: r for r in load_rows()}
    # Meta's Llama 3 405B at 131,072 tokens with CP 16 (arXiv:2407.21783 Table 4): long context and CP; dense
    meta_128k = _regimes_of(rows["meta-llama3-405b-16384gpu-seq131072"])
    assert {"sequence 16K tokens or more", "context parallelism (CP > 1)"} <= meta_128k
    assert "MoE at micro-batch 1-2" not in meta_128k
    # SC21's ZeRO-3 strong-scaling runs of GPT-3 175B on 384-1,536 A100s (arXiv:2104.04473 Table 2)
    zero3 = _regimes_of(rows["megatron-sc21-table2-zero3-gpt-174.6b-1536xa100"])
    assert {"ZeRO-3 / FSDP", "ZeRO-3 / FSDP on more than 64 GPUs"} <= zero3
    # ms-swift's Qwen3-30B-A3B on 16 A800 at micro-batch 1, EP 8 inside a node of 8 (ms-swift Quick-start.md)
    swift = _regimes_of(rows["ms-swift-megatron-qwen3-30b-a3b-16xa800-pp2-ep8"])
    assert "MoE at micro-batch 1-2" in swift and "expert parallelism across nodes" not in swift


def test_the_summary_counts_every_member_once_per_regime():
    rows = load_rows()
    compared = compare(rows, cross_validated=True)
    table = regime_summary(rows, compared)
    for regime in REGIMES:
        members = sum(regime.holds(scenario_from_dict(r["scenario"]), source_of(r)) for r in rows)
        assert table.get(regime.name, {"rows": 0})["rows"] == members, regime.name
    # the 750 W B200 rows are torchao's (pytorch/ao torchao/float8/README.md): every one of them is in its regime
    assert table["power-limited B200 (750 W)"]["rows"] == sum(r["scenario"].get("gpu") == "b200-750w" for r in rows)
