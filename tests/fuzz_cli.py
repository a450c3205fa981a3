"""What the fuzz classes share: a time limit that turns a hang into an outcome, and one command line run in this
process (engine.cli.main) with its exit code and captured output."""

from __future__ import annotations

import contextlib
import io
import signal
from collections.abc import Iterator


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
