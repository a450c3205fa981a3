"""A flag a command takes but does not use is said on stderr, one sentence naming it and why, and the output and exit
code stay as without it (engine/cli_flags.py): `fit --objective cost` of a served model dropped --deadline-days
silently, of a training run --users (h-review21 found, not fixed, item d)."""

import json

import pytest

from engine.cli import main

SERVE = "examples/serve-qwen3-32b-awq-2x4090.json"
TRAIN = "examples/llama3-8b-lora-4090.json"


@pytest.fixture
def prices(tmp_path):
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"currency": "USD", "prices": {"rtx-4090": 0.4, "l40s": 0.9}}))
    return str(path)


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_serve_cost_search_says_it_ignores_the_deadline(capsys, prices):
    plain = _run(capsys, "fit", SERVE, "--objective", "cost", "--prices", prices, "--users", "8", "--json")
    code, out, err = _run(capsys, "fit", SERVE, "--objective", "cost", "--prices", prices, "--users", "8", "--json",
                          "--deadline-days", "3")
    # the same rows and limits: only the search's own wall time (search.seconds) differs between two runs
    assert code == plain[0] == 0 and plain[2] == ""
    with_flag, without = json.loads(out), json.loads(plain[1])
    for report in (with_flag, without):
        report["search"].pop("seconds")
    assert with_flag == without
    assert err.startswith("warning: --deadline-days is ignored: a served model runs on") and err.count("\n") == 1
    # --budget and --budget-per-hour are one budget per hour for a served model: the first is dropped, and said
    code, _, err = _run(capsys, "fit", SERVE, "--objective", "cost", "--prices", prices, "--budget", "5",
                        "--budget-per-hour", "3", "--json")
    assert code == 0 and err.startswith("warning: --budget is ignored: --budget-per-hour is given")


def test_a_training_cost_search_says_it_ignores_the_serving_flags(capsys, prices, tmp_path):
    train = tmp_path / "train.json"  # the example with a run to price (the search needs tokens_to_train)
    train.write_text(json.dumps({**json.loads(open(TRAIN, encoding="utf-8").read()), "tokens_to_train": 10**8}))
    code, out, err = _run(capsys, "fit", str(train), "--objective", "cost", "--prices", prices, "--users", "32",
                          "--max-tpot-ms", "50", "--json")
    assert code == 0 and json.loads(out)["objective"] == "cost"
    assert err.splitlines() == [
        f"warning: {flag} is ignored: it applies to the cost search of an inference scenario, and this scenario trains."
        for flag in ("--users", "--max-tpot-ms")]


def test_the_other_objectives_say_they_ignore_every_cost_flag(capsys, prices):
    code, _, err = _run(capsys, "fit", TRAIN, "--prices", prices, "--deadline-days", "2", "--json")
    assert code == 0 and err.splitlines() == [f"warning: {f} is ignored: it applies to --objective cost only."
                                              for f in ("--prices", "--deadline-days")]


def test_export_config_says_force_without_output_does_nothing(capsys):
    code, out, err = _run(capsys, "export-config", TRAIN, "--to", "axolotl", "--force")
    assert code == 0 and out and "warning: --force is ignored: it replaces an --output file" in err


def test_a_refused_command_keeps_its_one_error_line(capsys):
    # the harnesses hold a refused command to one "error: ..." line (tests/fuzz_newest.py): the flags are said only
    # where the command ran
    code, out, err = _run(capsys, "fit", TRAIN, "--objective", "cost", "--users", "3")  # no tokens_to_train
    assert (code, out) == (2, "") and err.startswith("error: tokens_to_train") and err.count("\n") == 1
