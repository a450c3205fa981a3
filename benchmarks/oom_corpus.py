"""The out-of-memory corpus judged (issue 27): for each real message whose thread states the job, the plan's verdict
on that GPU, the message's demand (allocated + tried) against what the plan holds at the failing phase, what most
likely grew, and whether the planner's fixes include the one the thread says worked. Prints a table and the counts;
`--markdown` prints the table docs/diagnosis-corpus.md carries.

Run: .venv/bin/python benchmarks/oom_corpus.py [--markdown]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.oom_corpus import CorpusCheck, check_corpus, corpus_summary  # noqa: E402

GIB = 2**30
COLUMNS = ("entry", "GPU", "plan verdict", "right", "phase", "run GiB", "plan GiB", "run/plan", "thread's fix", "fix",
           "grown past the plan")


def cells(c: CorpusCheck) -> tuple[str, ...]:
    return (c.file.removesuffix(".txt"), c.gpu, c.verdict, "yes" if c.verdict_right else "NO", c.phase or "peak",
            "-" if c.demand_bytes is None else f"{c.demand_bytes / GIB:.2f}", f"{c.plan_bytes / GIB:.2f}",
            "-" if c.demand_over_plan is None else f"{c.demand_over_plan:.2f}", ", ".join(c.thread_fix) or "-",
            c.fix, c.grown or "")


def summary_line(checks: list[CorpusCheck]) -> str:
    s = corpus_summary(checks)
    return (f"{s['entries']} entries with the thread's job: the plan says does not fit / tight on {s['verdict_right']}; "
            f"the thread names the fix on {s['fix_known']}: the planner offers it on {s['fix_confirmed']}, "
            f"something else on {s['fix_different']}; a change others proposed (not confirmed) on {s['suggested']}: "
            f"the planner offers it on {s['suggestion_offered']}")


def main() -> None:
    checks = check_corpus()
    rows = [cells(c) for c in checks]
    if "--markdown" in sys.argv:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "---|" * len(COLUMNS))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [min(28, max(len(x) for x in col)) for col in zip(COLUMNS, *rows, strict=True)]
        for r in (COLUMNS, *rows):
            print("  ".join(x[:w].ljust(w) for x, w in zip(r, widths, strict=True)).rstrip())
    print()
    print(summary_line(checks))


if __name__ == "__main__":
    main()
