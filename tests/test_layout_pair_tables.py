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
