"""benchmarks/layout_pairs.py's same-table pairs: a pair is the source's own ablation where both runs come from one
table, the same release (dgxc-benchmarking, Megatron-Bridge) or the same day of BigScience's chronicles (train/
tr11-176B-ml/chronicles-prequel.md at 9e64ede: 'do not compare today's numbers to yesterday's', 02-25)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from engine.accuracy.published_throughput import load_rows, source_of

ROOT = Path(__file__).resolve().parent.parent


def _layout_pairs():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import layout_pairs

    return layout_pairs


def test_bigscience_table_is_the_day_its_row_id_names():
    """Each prequel row's id ends in the day of its table row (its author's reading of the same source text), which
    table_of reads from the source text: the two must agree on every row."""
    table_of = _layout_pairs().table_of
    prequel = [r for r in load_rows() if r["id"].startswith("bigscience-prequel")]
    assert prequel
    for row in prequel:
        day = re.search(r"gbs\d+-(\d\d-\d\d)", row["id"])
        assert day and table_of(row) == day.group(1), row["id"]


def test_release_tables_are_their_release():
    """dgxc-benchmarking's rows name their release ('(release v24.11.1)'): that release is their table."""
    pairs = _layout_pairs()
    dgxc = [r for r in load_rows() if source_of(r) == "NVIDIA/dgxc-benchmarking"]
    assert dgxc
    for row in dgxc:
        assert pairs.table_of(row) == pairs.release_of(row) != "", row["id"]
        assert f"release v{pairs.table_of(row)}" in row["source"]


def test_bigscience_rows_quote_what_the_document_says_of_their_runs():
    """Where the chronicles (train/tr11-176B-ml/chronicles-prequel.md at 9e64ede) remark on a run or a day, the row
    quotes it: the 02-25 note before 'GBS Variations', the Notes column of 02-20's DP 4 x PP 10 x MBS 8 run at
    14,400 hidden, and the 'XXX' line under the 02-21 ZeRO stage table (its ZeRO 0 run)."""
    numa = ("'Note: A100s PCI-Express/NUMA was improved today so all TFLOPs have changed for the better (1-5%) - "
            "thus do not compare today's numbers to yesterday's.'")
    flagged = {
        "bigscience-prequel-fp16-h14400-l80-a64-n40-dp4-tp8-pp10-mbs8-gbs2048-02-20": "'02-20 too close to OOM'",
        "bigscience-prequel-fp16-h14336-l72-a64-n48-dp4-tp8-pp12-mbs2-gbs2048-02-21-25":
            "`ZeRO_STAGE=0` on master, or `ZeRO_STAGE=1` on the special branch",
    }
    prequel = [r for r in load_rows() if r["id"].startswith("bigscience-prequel")]
    day_of = _layout_pairs().table_of
    assert sum(day_of(r) == "02-25" for r in prequel) >= 20
    for row in prequel:
        assert (numa in row["notes"]) == (day_of(row) == "02-25"), row["id"]
        if row["id"] in flagged:
            assert flagged[row["id"]] in row["notes"], row["id"]
    assert set(flagged) <= {r["id"] for r in prequel}


def test_nemo_tables_are_the_container_their_source_names():
    """NVIDIA/NeMo's tables each name their container: the 25.02 performance summary ('(NeMo 25.02 container)',
    docs.nvidia.com performance_summary.html) and the long-sequence page ('NeMo25.04.rc2', docs/source/performance/
    performance_long_sequence.md at 19fadb67) are two tables, so their LLAMA3-8B B200 runs (MBS 2 and MBS 1) are no
    ablation of one table."""
    pairs = _layout_pairs()
    rows = {r["id"]: r for r in load_rows() if source_of(r) == "NVIDIA/NeMo"}
    assert rows and all(pairs.table_of(r) != "" for r in rows.values())
    for row in rows.values():
        assert pairs.table_of(row) in row["source"].replace("NeMo ", "NeMo"), row["id"]
    summary, long_sequence = (rows["nemo-25.02-llama3-8b-dgx-b200-fp8-8"],
                              rows["nemo-long-sequence-llama3-8b-b200-8k-8gpu"])
    assert (pairs.table_of(summary), pairs.table_of(long_sequence)) == ("25.02", "25.04.rc2")


def test_torchtitan_tables_are_its_dated_reports():
    """torchtitan's reports are separate documents run on torch builds six months apart (benchmarks/
    llama3_h100_202412_torchtitan.md: torch 1963fc8, 2024/12/23; benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md:
    torch 38410cf9, 2025/06/14, both at b5bcd76c): each is its own table."""
    pairs = _layout_pairs()
    rows = {r["id"]: r for r in load_rows() if source_of(r) == "pytorch/torchtitan"}
    assert rows
    for row in rows.values():
        assert pairs.table_of(row) and f" {pairs.table_of(row)} at " in row["source"], row["id"]
    assert (pairs.table_of(rows["torchtitan-70b-256gpu-2d"])
            != pairs.table_of(rows["torchtitan-asynctp-70b-256gpu-fp8"]))
