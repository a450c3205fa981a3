"""Config imports that hung or lied (issue 28, items 4-8 and 12): pipes and devices, scripts whose variables double,
digit-limit overflows, terminal escapes in what `import` prints, paths that leave the job's folder, and messages
that quoted Python instead of saying what is wrong."""

from __future__ import annotations

import errno
import os
import sys
import threading
from pathlib import Path

import pytest
import yaml

from engine.cli import main
from engine.configs import ConfigFileError, import_files, import_texts
from engine.configs.shell import MAX_EXPANDED_CHARS, MAX_SCRIPT_EXPANSION_CHARS, ExpansionBudget, scan, substitute
from engine.errors import ModelConfigError, PlannerError
from engine.messages import SHOWN_CHARS
from engine.models.config_file import read_config_file

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev as on POSIX")
HF_JOB = "model_name_or_path: meta-llama/Meta-Llama-3-8B\nper_device_train_batch_size: 2\n"
MEGATRON_HEAD = "#!/bin/bash\ntorchrun pretrain_gpt.py --num-layers 2\n"


def _import_in_thread(paths: list[Path]) -> tuple[bool, BaseException | None]:
    """(finished, what it raised): a read that blocks on a FIFO must not hang the test run, so it runs aside."""
    outcome: list[BaseException | None] = []

    def target() -> None:
        try:
            import_files(paths)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test, which names what it expects
            outcome.append(exc)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(20)  # a hang guard, not a speed limit: the refusal takes milliseconds
    return not worker.is_alive(), outcome[0] if outcome else None


# ---- item 4: pipes, devices, folders ---------------------------------------------------------------------------------

@posix_only
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "ds_config.json"
    os.mkfifo(fifo)
    finished, exc = _import_in_thread([fifo])
    assert finished, "importing a FIFO blocked"
    assert isinstance(exc, ConfigFileError) and "pipe" in str(exc) and str(tmp_path) not in str(exc)


@posix_only
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/full"])
def test_a_device_is_refused_in_one_sentence(device, tmp_path):
    link = tmp_path / "train.yaml"
    link.symlink_to(device)
    for path in (Path(device), link):
        finished, exc = _import_in_thread([path])
        assert finished and isinstance(exc, ConfigFileError), exc
        assert "device" in str(exc) and str(exc).count(".") >= 1 and "\n" not in str(exc)


@posix_only
def test_a_folder_and_a_symlink_loop_are_refused(tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    for path in (tmp_path, loop):
        with pytest.raises(ConfigFileError) as info:
            import_files([path])
        assert "Errno" not in str(info.value) and str(tmp_path) not in str(info.value)


@posix_only
def test_a_fifo_next_to_the_job_is_listed_not_read(tmp_path):
    os.mkfifo(tmp_path / "ds.json")
    job = tmp_path / "train.yaml"
    job.write_text(HF_JOB + "deepspeed: ds.json\n")
    finished, exc = _import_in_thread([job])
    assert finished and exc is None, exc


# ---- item 5: the launch-script scanner is bounded ----------------------------------------------------------------------

def test_doubling_variables_stay_within_the_expansion_bound():
    lines = ["A=xxxxxxxxxxxxxxxx"] + [f"A{i}=${{A{i - 1 if i > 1 else ''}}}${{A{i - 1 if i > 1 else ''}}}"
                                       for i in range(1, 40)]
    env, _ = scan("\n".join(lines) + "\n" + MEGATRON_HEAD)
    assert max(len(v) for v in env.values()) <= MAX_EXPANDED_CHARS
    assert env["A1"] == "x" * 32  # a small expansion is still made
    assert len(env["A10"]) == 16 * 2**10 and "A11" not in env and "A39" not in env  # past the bound: left as written


def test_the_whole_script_has_an_expansion_budget():
    big = "B=" + "y" * 3000 + "\n" + "".join(f"C{i}=$B\n" for i in range(2000))
    with pytest.raises(ConfigFileError) as info:
        import_texts([("train.sh", big + MEGATRON_HEAD)])
    assert "expands" in str(info.value) and "\n" not in str(info.value)


def test_expansion_budget_counts_every_character_produced():
    budget = ExpansionBudget(MAX_SCRIPT_EXPANSION_CHARS)
    env = {"A": "z" * 1000}
    substitute("$A $A", env, budget)
    assert budget.left_chars == MAX_SCRIPT_EXPANSION_CHARS - 2000


@pytest.mark.parametrize("text", [
    "$((" * 40_000,  # 120 kB of unclosed arithmetic: each used to be scanned to the end of the text
    "${A:-" * 40_000,
    "$(expr " + "(" * 5000 + "1",
    "X=$(expr " + "(" * 5000 + "1" + ")" * 5000 + ")",
])
def test_unclosed_or_deep_arithmetic_is_left_as_written(text):
    out = substitute(text, {"A": "1"})
    assert out == text or len(out) <= len(text)


def test_arithmetic_that_overflows_is_left_as_written_not_quoted_from_python():
    script = "N=" + "9" * 400 + "\nM=$((N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N))\n" + MEGATRON_HEAD + "  --micro-batch-size $M\n"
    result = import_texts([("train.sh", script)])
    text = " ".join(str(u.why) for u in result.unmapped)
    assert "set_int_max_str_digits" not in text and "micro_batch" not in result.scenario


def test_reasonable_arithmetic_still_works():
    env, flags = scan("GPUS=8\nNODES=$((2 * (1 + 1)))\nWORLD=$(($GPUS*$NODES))\nX=$(expr $GPUS \\* 2)\n")
    assert env["NODES"] == "4" and env["WORLD"] == "32" and env["X"] == "16"


# ---- item 6: integers past Python's digit limit ------------------------------------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("train.yaml", "model_name_or_path: x\nper_device_train_batch_size: " + "9" * 5000 + "\n"),
    ("train.yaml", "model_name_or_path: x\nper_device_train_batch_size: 0x" + "f" * 5000 + "\n"),
    ("ds.json", '{"zero_optimization": {"stage": ' + "9" * 5000 + "}}"),
    ("job.toml", "[job]\ndump_folder = 'x'\n[training]\nlocal_batch_size = " + "9" * 5000 + "\n"),
])
def test_huge_integers_are_one_sentence(name, text):
    with pytest.raises(ConfigFileError) as info:
        import_texts([(name, text)])
    message = str(info.value)
    assert "digits" in message and "set_int_max_str_digits" not in message and "\n" not in message


# ---- item 7: what `import` prints is terminal-safe ------------------------------------------------------------------

def test_import_output_escapes_terminal_controls(tmp_path, capsys):
    job = tmp_path / "train.yaml"
    evil = "\x1b[2J\x1b]0;owned\x07\u202eSTIF\nVerdict: FITS\x9b31m"
    job.write_text(f'model_name_or_path: "{evil.encode("unicode_escape").decode()}"\n'
                   f'"key\\x1b[31m": 1\nper_device_train_batch_size: 2\n')
    assert main(["import", str(job)]) == 0
    out = capsys.readouterr().out
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in out
    assert not any(line.startswith("Verdict") for line in out.splitlines())


def test_import_review_cuts_long_values_from_the_files(tmp_path, capsys):
    """A 5,000-character model path and 3,000-character numbers in a verl command were printed whole in the review's
    "Not used" lines (one 5,096-character line): each value from a file is cut to messages.SHOWN_CHARS."""
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=" + "x" * 5000
                      + " data.max_prompt_length=" + "9" * 3000 + " actor_rollout_ref.rollout.n=a" + "q" * 3000 + "\n")
    assert main(["import", str(script)]) == 0
    out = capsys.readouterr().out
    not_used = out.split("Not used:")[1].splitlines()
    assert any("x" * 100 in line for line in not_used)  # the value is still shown, cut
    assert max(len(line) for line in out.splitlines()) < 2 * SHOWN_CHARS + 100  # the key, the sentence, the cut value


# ---- item 8: a path in a config stays inside the job's folder --------------------------------------------------------

def test_a_reference_outside_the_job_folder_is_not_read(tmp_path, monkeypatch):
    outside = tmp_path / "secret.json"
    outside.write_text('{"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 7}')
    job_dir = tmp_path / "jobs" / "a"
    job_dir.mkdir(parents=True)
    job = job_dir / "train.yaml"
    job.write_text(HF_JOB + "deepspeed: ../../secret.json\n")
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (opened.append(str(p)), real_open(p, *a, **k))[1])
    result = import_files([job])
    assert not any("secret" in p for p in opened) and "zero_stage" not in result.scenario
    why = [str(u.why) for u in result.unmapped if u.key.endswith("deepspeed")]
    assert why and "outside" in why[0]


@posix_only
def test_a_symlink_beside_the_job_pointing_outside_is_not_read(tmp_path):
    (tmp_path / "outside.json").write_text('{"zero_optimization": {"stage": 3}}')
    job_dir = tmp_path / "job"
    job_dir.mkdir()
    (job_dir / "ds.json").symlink_to(tmp_path / "outside.json")
    job = job_dir / "train.yaml"
    job.write_text(HF_JOB + "deepspeed: ds.json\n")
    assert "zero_stage" not in import_files([job]).scenario


def test_references_inside_the_folder_and_given_files_are_still_read(tmp_path):
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "ds.json").write_text('{"zero_optimization": {"stage": 2}}')
    job = tmp_path / "train.yaml"
    job.write_text(HF_JOB + "deepspeed: cfg/ds.json\n")
    assert import_files([job]).scenario["zero_stage"] == 2
    elsewhere = tmp_path.parent / f"{tmp_path.name}-other.json"
    elsewhere.write_text('{"zero_optimization": {"stage": 1}}')
    try:
        job.write_text(HF_JOB + f"deepspeed: ../{elsewhere.name}\n")
        assert import_files([job, elsewhere]).scenario["zero_stage"] == 1  # given on the command line
    finally:
        elsewhere.unlink()


# ---- item 12: messages --------------------------------------------------------------------------------------------

def test_utf16_with_a_bom_is_read(tmp_path):
    path = tmp_path / "train.yaml"
    path.write_bytes("model_name_or_path: meta-llama/Meta-Llama-3-8B\nper_device_train_batch_size: 3\n".encode("utf-16"))
    assert import_files([path]).scenario["micro_batch"] == 3
    with pytest.raises(ConfigFileError) as info:
        import_texts([("x.yaml", b"\xff\xfe\x00\xd8")])  # a BOM, then a lone surrogate
    assert "binary" not in str(info.value) and "UTF-16" in str(info.value)


def _deny(*args, **kwargs):
    raise PermissionError(errno.EACCES, "Permission denied", "/very/long/private/path/config.json")


def test_unreadable_config_json_is_one_plain_sentence(tmp_path, monkeypatch):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama"}')
    monkeypatch.setattr(os, "open", _deny)
    with pytest.raises(ModelConfigError) as info:
        read_config_file(path)
    assert str(info.value) == "Cannot read config.json: permission denied."


def test_unreadable_import_is_one_plain_sentence(tmp_path, monkeypatch):
    path = tmp_path / "train.yaml"
    path.write_text("per_device_train_batch_size: 2\n")
    monkeypatch.setattr(os, "open", _deny)
    with pytest.raises(PlannerError) as info:
        import_files([path])
    assert str(info.value) == "Cannot read train.yaml: permission denied."


# ---- h-fuzz7: parses whose time grows faster than the file -----------------------------------------------------------

# The bombs, each under the 1 MB limit. Before the bounds: tomllib took 16 s on a 64 kB dotted key and minutes on
# these (it copies the key tuple at each part: CPython 3.11.7 Lib/tomllib/_parser.py:387); PyYAML built 15 million
# pairs in 30 s for 3,000 merges of a 5,000-key mapping (SafeConstructor.flatten_mapping copies the merged pairs).
MERGE_BOMB = ("base: &base {" + ", ".join(f"k{i}: 1" for i in range(5000)) + "}\n"
              + "".join(f"m{i}: {{<<: *base}}\n" for i in range(3000)))


@pytest.mark.parametrize("name, text, said", [
    ("job.toml", "a" + ".a" * 400_000 + " = 1\n", "nested more than"),
    ("job.toml", "[" + "a." * 400_000 + "a]\nx = 1\n", "nested more than"),
    ("job.toml", "[[" + "a ." * 300_000 + "a]]\n", "nested more than"),
    ("job.toml", "x = {" + "a" + ".a" * 400_000 + " = 1}\n", "nested more than"),
    ("job.toml", '"a".' * 200_000 + '"a" = 1\n', "nested more than"),
    ("train.yaml", MERGE_BOMB, "expands to more than"),
])
def test_superlinear_parses_are_refused_before_the_parser_runs(tmp_path, name, text, said):
    path = tmp_path / name
    path.write_text(text)
    finished, exc = _import_in_thread([path])
    assert finished, f"importing {name} ran past the guard"
    assert isinstance(exc, ConfigFileError) and said in str(exc) and "\n" not in str(exc)


@pytest.mark.parametrize("text", [
    "x = [" + ", ".join(["1.5"] * 200) + "]\n",  # many dots on a line, none of them a key's
    'x = "' + "a." * 200 + '"\n',  # a string's dots
    '"' + "a." * 40 + 'b" = 1\n',  # one quoted key holding dots
    "x = 1  # " + "." * 200 + "\n",  # a comment
])
def test_dots_that_are_not_a_deep_key_pass_the_toml_bound(text):
    from engine.configs.reading import parse_toml

    assert isinstance(parse_toml("job.toml", text), dict)


def test_yaml_within_the_bounds_is_read_as_the_safe_loader_reads_it():
    from engine.configs.reading import parse_yaml

    text = "a: &a {x: 1, y: [1, 2]}\nb:\n  <<: *a\n  y: 3\nc: [*a, *a]\n"
    assert parse_yaml("train.yaml", text) == yaml.load(text, Loader=yaml.SafeLoader)


@pytest.mark.parametrize("name, text", [("ds.json", "[" + "1," * 150_000 + "1]"),
                                        ("job.toml", "x = [" + "1, " * 150_000 + "]\n")])
def test_a_json_or_toml_file_of_too_many_values_does_not_blame_yaml_aliases(name, text):
    # h-fuzz7: the sentence asked "(YAML aliases?)" of a JSON file, which has none
    with pytest.raises(ConfigFileError) as info:
        import_texts([(name, text)])
    assert str(info.value) == (f"{name} holds more than 100,000 values; a training config holds a few hundred, so it "
                               "is not imported.")
