"""Settings of mis-ordered same-table layout pairs, read from the code the runs ran (issue 23 item 5).

InternEvo's scaling table (InternLM/InternEvo doc/en/train_performance.md, written with c18bec9 on 2023-07-08; rows
from c628a8c's copy): tp=2 against tp=1 of InternLM-7B on 8 to 1,024 A100s. At c18bec9 every tensor-parallel linear is
built with sequence_parallel=False (internlm/model/modeling_internlm.py lines 90 and 122, internlm/model/linear.py
FeedForward lines 151, 156, 163); sequence parallelism arrived with the merge 54f85a6 (2023-08-24)."""

from __future__ import annotations

from engine.accuracy.published_throughput import compare, load_rows

GPUS = (8, 16, 32, 64, 128, 256, 512, 1024)


def _internevo() -> dict[str, dict]:
    return {r["id"]: r for r in load_rows() if r["id"].startswith("internevo-7b-a100-")}


def test_internevo_tp2_runs_without_sequence_parallelism():
    rows = _internevo()
    tp2 = [r for r in rows.values() if r["scenario"]["tp"] == 2]
    assert len(tp2) == 2 * len(GPUS)  # the zero1=-1 series and the zero1=4 one (dp_shard 4, h-hsdp)
    for row in tp2:
        assert row["scenario"]["sequence_parallel"] is False, row["id"]
        assert "sequence_parallel=False" in row["notes"], row["id"]


def test_internevo_tp2_costs_what_the_table_measures_inside_the_data_parallel_regime():
    """Where the broadcasts' growth with the ranks does not dominate (8 to 128 GPUs), tp=2 runs at 0.926-0.941 of
    tp=1's tokens/s in the table; the estimate's ratio (cross-validated) stays within 3 points of each (2.6 at 128
    GPUs). From 256 GPUs tp=1's rank-by-rank broadcasts over twice tp=2's data-parallel ranks take over: measured
    0.964, 1.046 and 1.226 at 256, 512 and 1,024 GPUs; the estimate rises with the ranks too (1.013, 1.047, 1.105),
    tp=2 the faster at 512 and 1,024 as measured, since each broadcast is a ring across DGX A100 nodes whose every step
    costs at least the AMD host's network overhead (NVIDIA/nccl tuning.cc at 5067397c lines 228-233, 404-410: 2 us x
    3); at 256 GPUs it puts tp=2 1.3% ahead where the table has it 3.6% behind (a mis-ordered pair)."""
    rows = _internevo()
    by_id = {c.id: c for c in compare(list(rows.values()))}
    ratios = {}
    for gpus in GPUS:
        one, two = (by_id[f"internevo-7b-a100-tp{tp}-zero1_all-{gpus}gpu"] for tp in (1, 2))
        ratios[gpus] = measured, predicted = two.measured / one.measured, two.predicted / one.predicted
        if gpus <= 128:
            assert abs(predicted - measured) < 0.03, (gpus, measured, predicted)
    large = [ratios[g][1] for g in (256, 512, 1024)]
    assert large == sorted(large) and large[1] > 1 and large[2] > 1, ratios
