"""What the cross-validated figures would be if one source's rows stated a scenario key they do not state (a
diagnostic, issue 23 item 5; nothing here changes the time model or a row): the all-row figures of
docs/speed-accuracy.md's 'all' row (median and p90 of the absolute error, rows beyond 25%, median signed error), the
layout pairs ordered as measured (a pair predicted equal counting half, as the headline does) and the source's own
figures, first as the rows are, then with KEY=VALUE set on every row whose source contains SOURCE-SUBSTRING.

Its use so far (branch h-pairs4): how far the data-parallel exchange of Aleph Alpha's sweep (arXiv:2311.05610) is from
the one-NIC ring that NCCL 2.10.3 ran on Jean Zay (the BigScience rows' inter_node_ring_bandwidth_bytes_per_s,
engine/timing/links.py collective_link); which NCCL and NICs Aleph Alpha's cluster ran is not stated anywhere read,
so such a value is a question to the source, not a setting to take.

Run: .venv/bin/python benchmarks/source_key_sensitivity.py SOURCE-SUBSTRING KEY=VALUE [KEY=VALUE ...]
  VALUE is read as JSON (25e9, true, "flash2"), else kept as text; e.g.
  benchmarks/source_key_sensitivity.py 2311.05610 inter_node_ring_bandwidth_bytes_per_s=25e9
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import compare, layout_order, load_rows, quantile, source_of  # noqa: E402


def parsed(assignment: str) -> tuple[str, Any]:
    """KEY=VALUE with VALUE as JSON where it parses, else as text."""
    key, _, text = assignment.partition("=")
    try:
        return key, json.loads(text)
    except json.JSONDecodeError:
        return key, text


def figures(rows: list[dict[str, Any]], source_part: str) -> str:
    """The all-row figures, the layout pairs and the source's own figures of the rows as given, on one line each."""
    compared = compare(rows)
    errors = [c.error for c in compared]
    absolute = [abs(e) for e in errors]
    order = layout_order(rows, compared)
    own = [c.error for c in compared if source_part in c.source]
    own_pairs = [(ok, n) for source, (ok, n) in order.by_source.items() if source_part in source]
    ok, n = (sum(p[0] for p in own_pairs), sum(p[1] for p in own_pairs)) if own_pairs else (0, 0)
    return "\n".join((
        f"  all {len(errors)} rows: median abs {statistics.median(absolute):.2%}, p90 {quantile(absolute, 0.9):.2%}, "
        f"beyond 25% {sum(a > 0.25 for a in absolute)}, median signed {statistics.median(errors):+.2%}",
        f"  layout pairs: {order.agree:,} of {order.pairs:,} + {order.ties} equal ({order.share:.2%}); "
        f"the source's {ok:,} of {n:,} ({ok / n if n else 0:.1%})",
        f"  the source's {len(own)} rows: median abs {statistics.median([abs(e) for e in own]):.2%}, "
        f"median signed {statistics.median(own):+.2%}" if own else "  the source has no rows"))


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source_part, settings = sys.argv[1], dict(parsed(a) for a in sys.argv[2:])
    rows = load_rows()
    print(f"as the rows are (source matching {source_part!r}):\n{figures(rows, source_part)}")
    for row in rows:
        if source_part in source_of(row):
            row["scenario"].update(settings)
    print(f"with {settings} on its rows:\n{figures(rows, source_part)}")


if __name__ == "__main__":
    main()
