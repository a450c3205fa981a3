"""What the fuzz classes share: a time limit that turns a hang into an outcome, and one command line run in this
process (engine.cli.main) with its exit code and captured output."""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
from collections import Counter
from collections.abc import Callable, Iterator


class Hang(Exception):
    """The case did not answer within its time limit."""


def _alarm(_signum: int, _frame: object) -> None:
    raise Hang


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise Hang in the block after `seconds` (SIGALRM: the main thread of a POSIX process)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_cli(argv: list[str], seconds: int) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `main.py ARGV` run in this process; argparse's exits count as their code.
    Raises Hang past `seconds`; any other exception escapes (a traceback, to the caller's count)."""
    from engine.cli import main as cli_main

    out, err = io.StringIO(), io.StringIO()
    with time_limit(seconds), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli_main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def suite_main(doc: str, label: str, fuzz: Callable[[int, int], Counter[str]], count: int, seed: int,
               bad: tuple[str, ...]) -> int:
    """A fuzz class's command line: --count and --seed, its counts on one line, the failures' sum; exit 1 on any."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--count", type=int, default=count)
    parser.add_argument("--seed", type=int, default=seed)
    args = parser.parse_args()
    counts = fuzz(args.count, args.seed)
    print(f"{label}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    failures = sum(counts[k] for k in bad)
    print(f"failures (tracebacks, hangs, absurd outputs or refusals): {failures}")
    return 1 if failures else 0
