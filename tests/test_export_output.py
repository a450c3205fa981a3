"""Issue 28, item 2: `export-config -o` never loses a file, never writes through a link, never opens a pipe or a
device, creates no folder, and says what went wrong in one sentence (exit 2)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from engine.cli import main as cli_main

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "llama3-8b-lora-4090.json"


class Hang(Exception):
    pass


def _raise_hang(_signum: int, _frame: object) -> None:
    raise Hang


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command in this process, stopped after 10 s (a FIFO opened for writing would block forever)."""
    old = signal.signal(signal.SIGALRM, _raise_hang)
    signal.alarm(10)
    try:
        code = cli_main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return code, out, err


def export_to(target: Path | str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    return run_cli(["export-config", str(EXAMPLE), "--to", "megatron", "-o", str(target), *extra], capsys)


def assert_one_sentence(code: int, out: str, err: str) -> None:
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith("."), err
    assert "Traceback" not in err and "Errno" not in err


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices and symbolic links as on POSIX")


def test_writes_a_new_file_and_leaves_no_temporary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = export_to(tmp_path / "args.sh", capsys)
    # the one line on stderr names what Megatron-LM's arguments cannot hold of this LoRA plan (h-polish7's note of
    # the settings a format leaves out; the model is carried by its shapes, so it is not named)
    assert code == 0 and out == ""
    assert err.splitlines() == [err.strip()] and err.startswith("Not in this megatron file") and "Model" not in err
    assert "Method: LoRA" in err
    assert (tmp_path / "args.sh").read_text().startswith("#!/bin/bash")
    assert os.listdir(tmp_path) == ["args.sh"]


def test_an_existing_file_is_kept_unless_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "mine.sh"
    target.write_text("my own script\n")
    assert_one_sentence(*export_to(target, capsys))
    assert target.read_text() == "my own script\n"
    code, _, err = export_to(target, capsys, "--force")
    assert code == 0, err
    assert target.read_text().startswith("#!/bin/bash")


def test_the_scenario_file_itself_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_bytes(EXAMPLE.read_bytes())
    for extra in ((), ("--force",)):
        assert_one_sentence(*run_cli(["export-config", str(scenario), "--to", "megatron", "-o", str(scenario),
                                      *extra], capsys))
        assert scenario.read_bytes() == EXAMPLE.read_bytes()


@posix_only
def test_a_final_link_is_neither_followed_nor_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "link.sh"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.sh"
    dangling.symlink_to(tmp_path / "nowhere" / "made.sh")
    for extra in ((), ("--force",)):
        assert_one_sentence(*export_to(link, capsys, *extra))
        assert_one_sentence(*export_to(dangling, capsys, *extra))
    assert victim.read_text() == "precious\n" and link.is_symlink() and os.readlink(link) == str(victim)
    assert not (tmp_path / "nowhere").exists()


@posix_only
def test_a_link_loop_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert_one_sentence(*export_to(tmp_path / "a", capsys, "--force"))
    assert_one_sentence(*export_to(tmp_path / "a" / "x.sh", capsys))


@posix_only
def test_a_fifo_is_refused_without_waiting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for extra in ((), ("--force",)):
        assert_one_sentence(*export_to(fifo, capsys, *extra))
    assert fifo.is_fifo()


@posix_only
def test_devices_are_never_opened(capsys: pytest.CaptureFixture[str]) -> None:
    for device in ("/dev/full", "/dev/null"):
        if os.path.exists(device):
            before = os.stat(device)
            assert_one_sentence(*export_to(device, capsys, "--force"))
            after = os.stat(device)
            assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_folders_missing_or_given_as_the_file_are_one_sentence(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_sentence(*export_to(tmp_path, capsys))
    assert_one_sentence(*export_to(tmp_path, capsys, "--force"))
    assert_one_sentence(*export_to(tmp_path / "missing" / "deeper" / "args.sh", capsys))
    assert not (tmp_path / "missing").exists()
    (tmp_path / "file").write_text("x")
    assert_one_sentence(*export_to(tmp_path / "file" / "args.sh", capsys))
    assert_one_sentence(*export_to("", capsys))


@posix_only
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert_one_sentence(*export_to(folder / "args.sh", capsys))
    finally:
        folder.chmod(0o755)


def test_a_failed_write_keeps_the_old_file_and_no_temporary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "args.sh"
    target.write_text("old\n")

    def full_disk(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    monkeypatch.setattr(os, "link", full_disk)
    assert_one_sentence(*export_to(target, capsys, "--force"))
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["args.sh"]


def test_a_nul_in_the_name_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_sentence(*export_to(f"{tmp_path}/a\0b.sh", capsys))
    assert os.listdir(tmp_path) == []
