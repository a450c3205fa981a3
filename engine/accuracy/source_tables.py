"""Which table of its source a published run was measured in: two runs of one table are the source's own ablation
(one software release, one day, one document), two runs of different tables also differ in what no scenario key
states (a release's kernels, a cluster's state that day)."""

from __future__ import annotations

import re
from typing import Any

# Megatron-Bridge: "25.11 NeMo container"; dgxc-benchmarking: "(release v25.02.02)"; NeMo's own tables: "(NeMo 25.02
# container)", "NeMo 24.07", "NeMo25.04.rc2", "NeMo24.03.01.framework"
RELEASE = re.compile(r"(\d\d\.\d\d(?:\.\d+)?) NeMo container|release v(\d\d\.\d\d(?:\.\d+)?)"
                     r"|NeMo ?(\d\d\.\d\d(?:\.\d+)*(?:\.rc\d+)?)")
# A repository's document: "pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md at b5bcd76..."
DOCUMENT = re.compile(r"^\S+/\S+ (\S+\.(?:md|mdx|rst|txt|html?)) at ")
# BigScience's chronicles: "table row of 02-25 (2022)"; the document warns not to compare numbers across its days
DAY = re.compile(r"table row of (\d\d-\d\d)")


def release_of(row: dict[str, Any]) -> str:
    """The release or container a row's table belongs to, as its source names it ('' where it names none)."""
    found = RELEASE.search(str(row["source"]))
    return next((g for g in found.groups() if g), "") if found else ""


def table_of(row: dict[str, Any]) -> str:
    """The table a row was measured in within its source: its release, its day in BigScience's chronicles, or else the
    repository's document its source text names ('' where it names none of them: one table)."""
    day, document = DAY.search(str(row["source"])), DOCUMENT.search(str(row["source"]))
    return release_of(row) or (day.group(1) if day else "") or (document.group(1) if document else "")
