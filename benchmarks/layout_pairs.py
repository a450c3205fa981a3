"""Layout pairs of the published set that the time model orders against the measurement, or cannot tell apart
(issue 23 item 5; engine/accuracy/published_throughput.py layout_order counts them): per source, each pair with what
differs between its two runs, then the pairs grouped by the settings that differ and by how far apart the two runs
were measured, and the repeat noise: runs of identical settings measured more than once (another date, another
release), the spread of their measurements (max / min - 1), and how many mis-ordered pairs were measured closer
together than their source's median spread. Cross-validated, as docs/speed-accuracy.md counts them.

A pair is two runs of one model on the same GPUs (source, GPU, GPU count, sequence length and number format) whose
settings differ. grad_accum and global_batch follow from the layout and are listed only where nothing else differs; "release"
is listed where the two rows come from different releases or containers of their source (read from the row's source
text), a difference no scenario key states.

A pair is "same-table" where both runs come from one table of their source: the same release or container
(Megatron-Bridge, dgxc-benchmarking, NeMo: "NeMo 25.02 container", "NeMo25.04.rc2"), for BigScience's chronicles the
same day (the row's "table row of MM-DD"; the document warns not to compare numbers across its days), and otherwise
the same document of the repository (torchtitan's dated reports, benchmarks/llama3_h100_202412_torchtitan.md and
benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md, ran torch builds six months apart). Those are the source's own
ablations; the share of them ordered as measured is printed per source at the end.

Run: .venv/bin/python benchmarks/layout_pairs.py [SOURCE-SUBSTRING ...] [--all] [--same-table]
  SOURCE-SUBSTRING: only sources whose name contains one of them (default: every source)
  --all: list the pairs ordered as measured too (default: mis-ordered and predicted-equal pairs only)
  --same-table: list only same-table pairs (the tables by what differs and by gap count only them too)
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import Compared, compare, layout_groups, load_rows, source_of  # noqa: E402
from engine.accuracy.source_tables import release_of, table_of  # noqa: E402

FOLLOWS_FROM_LAYOUT = {"grad_accum", "global_batch"}
GAPS = ((0.02, "<= 2%"), (0.05, "2-5%"), (0.10, "5-10%"), (float("inf"), "> 10%"))
def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The scenario keys whose values differ between two rows (and 'release' where their tables' releases do)."""
    sa, sb = a["scenario"], b["scenario"]
    keys = sorted(k for k in set(sa) | set(sb) if k != "name" and sa.get(k) != sb.get(k))
    keys = [k for k in keys if k not in FOLLOWS_FROM_LAYOUT] or keys
    return keys + (["release"] if keys and release_of(a) != release_of(b) else [])


def repeat_spreads(rows: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]], float]]:
    """(source, rows, spread) of each setting measured more than once in a source (its scenario, the name aside, the
    same): the spread is max / min - 1 of their measurements, the noise a layout pair's two runs also carry."""
    same: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        settings = {k: v for k, v in r["scenario"].items() if k != "name"}
        same[(source_of(r), json.dumps(settings, sort_keys=True))].append(r)
    return [(source, group, max(r["measured"] for r in group) / min(r["measured"] for r in group) - 1)
            for (source, _), group in same.items() if len(group) > 1]


def print_repeat_noise(rows: list[dict[str, Any]], mis_ordered_gaps: dict[str, list[float]]) -> None:
    """Per source: identical settings measured more than once, their spread (median, largest), and the mis-ordered
    pairs whose two runs were measured closer together than that median spread (within the repeat noise)."""
    spreads = repeat_spreads(rows)
    print(f"\n{'source':32s} repeat noise: identical settings measured again (spread = max / min - 1)")
    by_source: dict[str, list[float]] = defaultdict(list)
    for source, group, spread in spreads:
        by_source[source].append(spread)
        releases = sorted({release_of(r) for r in group})
        measured = ", ".join(f"{r['measured']:.0f}" for r in group)
        other = "; releases " + ", ".join(releases) if len(releases) > 1 else ""
        print(f"{source[:32]:32s} {group[0]['id'][:80]:80s} x{len(group)} {spread:6.1%} ({measured}){other}")
    print(f"\n{'source':32s} settings  median spread  largest  mis-ordered pairs measured closer than the median")
    for source, values in sorted(by_source.items()):
        median = statistics.median(values)
        gaps = mis_ordered_gaps.get(source, [])
        print(f"{source[:32]:32s} {len(values):8d} {median:14.1%} {max(values):8.1%}  "
              f"{sum(g < median for g in gaps)} of {len(gaps)}")


def print_table_shares(by_table: dict[tuple[str, bool], Counter]) -> None:
    """Per source and in all, the pairs of one table (release, BigScience day, document) and of two, and the share ordered as
    measured (a pair predicted equal counts half, as layout_order counts it)."""
    def share(counts: Counter) -> str:
        n = sum(counts.values())
        if not n:
            return "-"
        ordered = (counts["ordered"] + counts["equal"] / 2) / n
        return f"{counts['ordered']:5d} of {n - counts['equal']:5d} + {counts['equal']:3d} equal {ordered:6.1%}"
    print(f"\n{'source':32s} {'same table (release, day, document)':38s} {'other tables':38s}")
    total: dict[bool, Counter] = {True: Counter(), False: Counter()}
    for source in sorted({source for source, _ in by_table}):
        for same in (True, False):
            total[same].update(by_table[(source, same)])
        print(f"{source[:32]:32s} {share(by_table[(source, True)]):38s} {share(by_table[(source, False)]):38s}")
    print(f"{'all':32s} {share(total[True]):38s} {share(total[False]):38s}")


def main(argv: list[str]) -> None:
    wanted = [a for a in argv if not a.startswith("--")]
    show_all, same_only = "--all" in argv, "--same-table" in argv
    rows = load_rows()
    by_id: dict[str, Compared] = {c.id: c for c in compare(rows)}
    by_diff: dict[tuple[str, str], Counter] = defaultdict(Counter)
    by_gap: dict[tuple[str, str], Counter] = defaultdict(Counter)
    mis_ordered_gaps: dict[str, list[float]] = defaultdict(list)  # |measured apart| of each mis-ordered pair
    by_table: dict[tuple[str, bool], Counter] = defaultdict(Counter)  # (source, same table) -> kinds
    for (source, model_key, gpu, gpus, *_rest), group in layout_groups(rows).items():
        model = model_key if isinstance(group[0]["scenario"]["model"], str) else (
            group[0]["scenario"]["model"].get("name", model_key)[:40])
        if wanted and not any(w in source for w in wanted):
            continue
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                diff = differences(a, b)
                ca, cb = by_id[a["id"]], by_id[b["id"]]
                if not diff or ca.measured == cb.measured:
                    continue  # the same settings (published twice), or a tie in the table
                measured, predicted = ca.measured / cb.measured - 1, ca.predicted / cb.predicted - 1
                kind = "equal" if ca.predicted == cb.predicted else (
                    "ordered" if (measured > 0) == (predicted > 0) else "MIS-ORDERED")
                same_table = table_of(a) == table_of(b)
                by_table[(source, same_table)][kind] += 1
                if same_only and not same_table:
                    continue
                by_diff[(source, ", ".join(diff))][kind] += 1
                gap = next(label for limit, label in GAPS if abs(measured) <= limit)
                by_gap[(source, gap)][kind] += 1
                if kind == "MIS-ORDERED":
                    mis_ordered_gaps[source].append(abs(measured))
                if kind != "ordered" or show_all:
                    print(f"{kind:11s} {source} | {model} on {gpus} x {gpu} | {a['id']} {ca.measured:.0f} "
                          f"({ca.error:+.1%}) vs {b['id']} {cb.measured:.0f} ({cb.error:+.1%}) | measured "
                          f"{measured:+.1%}, predicted {predicted:+.1%} | "
                          + "; ".join(f"{k}: {a['scenario'].get(k)!r} / {b['scenario'].get(k)!r}"
                                      if k != "release" else f"release: {release_of(a)} / {release_of(b)}"
                                      for k in diff))
    for title, table in (("what differs", by_diff), ("measured apart", by_gap)):
        print(f"\n{'source':32s} {title:70s} ordered  mis-ordered  equal")
        for (source, label), counts in sorted(table.items()):
            print(f"{source[:32]:32s} {label[:70]:70s} {counts['ordered']:7d} {counts['MIS-ORDERED']:12d} "
                  f"{counts['equal']:6d}")
    print_table_shares(by_table)
    print_repeat_noise([r for r in rows if not wanted or any(w in source_of(r) for w in wanted)], mis_ordered_gaps)


if __name__ == "__main__":
    main(sys.argv[1:])
