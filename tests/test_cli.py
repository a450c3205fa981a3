"""The command line: table, JSON contract keys, presets, and one clear line on bad input."""

import json
import subprocess
import sys

import pytest
from conftest import REPO

EXAMPLE = REPO / "examples" / "llama3-8b-lora-4090.json"


def run(*args):
    return subprocess.run([sys.executable, "main.py", *args], cwd=REPO, capture_output=True, text=True, timeout=60)


def test_estimate_json_contract():
    result = run("estimate", str(EXAMPLE), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("peak_allocated_bytes", "peak_phase", "phases", "total_bytes", "capacity_bytes", "fits",
                "headroom_bytes", "components", "per_stage", "warnings"):
        assert key in data
    assert set(data["phases"]) == {"forward", "backward", "optimizer"}
    assert data["phases"][data["peak_phase"]] == data["peak_allocated_bytes"]
    assert sum(c["bytes"] for c in data["components"]) == data["peak_allocated_bytes"] or abs(
        sum(c["bytes"] for c in data["components"]) - data["peak_allocated_bytes"]) <= len(data["components"])
    for comp in data["components"]:
        assert {"key", "name", "bytes", "category", "phase"} <= set(comp)
    assert data["headroom_bytes"] == data["capacity_bytes"] - data["total_bytes"]


def test_estimate_table_has_verdict():
    result = run("estimate", str(EXAMPLE), "--unit", "GB")
    assert result.returncode == 0
    assert "Verdict:" in result.stdout and " GB" in result.stdout


def test_presets_lists_ids():
    models = run("presets", "models").stdout
    gpus = run("presets", "gpus").stdout
    assert "llama-3-8b" in models and "qwen3-30b-a3b" in models
    assert "rtx-4090" in gpus and "h200" in gpus


def test_preset_lists_keep_their_columns_for_the_longest_ids():
    """nemotron-3-nano-30b-a3b (23 characters) and h100-sxm-96gb-hbm2e-500w (24) ran past fixed 20 / 22-character
    columns and pushed their rows' names out of line; each column is now as wide as its longest entry."""
    for kind, ids in (("models", ("gpt2", "nemotron-3-nano-30b-a3b")), ("gpus", ("t4", "h100-sxm-96gb-hbm2e-500w"))):
        lines = {line.split()[0]: line for line in run("presets", kind).stdout.splitlines()}
        starts = {i: len(lines[i]) - len(lines[i][len(i):].lstrip()) for i in ids}
        assert len(set(starts.values())) == 1 and len({len(lines[i]) for i in ids}) == 1, (kind, starts)


def test_bad_input_one_line_non_zero(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"model": "llama-3-8b", "micro_batch": -2}))
    result = run("estimate", str(bad))
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0
    assert "micro_batch" in result.stderr
    missing = run("estimate", str(tmp_path / "nope.json"))
    assert missing.returncode != 0 and missing.stderr.strip().count("\n") == 0


def test_scenario_format_doc_is_generated_from_the_defaults():
    from engine.scenario.docs import schema_markdown

    assert (REPO / "docs" / "scenario-format.md").read_text() == schema_markdown() + "\n"


def test_cli_tables_in_chinese():
    estimate_zh = run("--lang", "zh_CN", "estimate", str(EXAMPLE))
    fit_zh = run("--lang", "zh_CN", "fit", str(EXAMPLE))
    assert estimate_zh.returncode == 0 and fit_zh.returncode == 0, estimate_zh.stderr + fit_zh.stderr
    assert "组成部分" in estimate_zh.stdout and "结论" in estimate_zh.stdout
    assert "结论" in fit_zh.stdout and "此硬件上的上限" in fit_zh.stdout


def test_every_argument_of_every_command_says_what_it_is():
    """A bare "scenario", "model" or "--json" in a command's --help told the user nothing (issue: post-training,
    serving, rent and diagnose tried as a user): every positional argument and option carries a help line."""
    import argparse

    from engine.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    bare = [f"{name} {action.dest}" for name, parser in sub.choices.items() for action in parser._actions
            if not isinstance(action, argparse._HelpAction) and not action.help]
    assert bare == []


def test_a_refused_serving_plan_says_its_speed_is_for_reference_only(tmp_path):
    """vLLM refuses a max_model_len beyond the model's (Llama 3.1 8B: 131,072, its config.json): the speed line
    that follows is what the engine would do, marked as the training estimate marks a plan that does not fit."""
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb",
                                "workload": "inference", "serving_engine": "vllm", "max_model_len": 200000}))
    out = run("estimate", str(path))
    assert out.returncode == 0 and "trained for 131072" in out.stdout
    assert "time shown for reference only" in out.stdout.split("Speed at")[0]


def test_help_names_the_command_the_user_ran(monkeypatch):
    """Issue 25, also: `llm-memory-planner --help` printed "usage: main.py"."""
    from engine.cli import build_parser

    monkeypatch.setattr(sys, "argv", ["/home/u/.local/bin/llm-memory-planner", "--help"])
    assert build_parser().format_usage().startswith("usage: llm-memory-planner ")
    monkeypatch.setattr(sys, "argv", ["main.py"])
    assert build_parser().format_usage().startswith("usage: main.py ")


def test_a_scenario_files_error_is_said_in_the_chosen_language(tmp_path):
    """`--lang zh_CN estimate` of a file with max_num_seqs 0 printed "错误：…: must be a whole number of at least 1,
    not 0.": a ScenarioError carries its detail as English text (and a file's error wraps the key's), so only the
    prefix was translated. The detail now comes from its own template, as in the window."""
    path = tmp_path / "zero.json"
    path.write_text(json.dumps({"schema_version": 1, "model": "qwen3-32b", "gpu": "rtx-4090", "workload": "inference",
                                "max_num_seqs": 0}))
    zh, en = run("--lang", "zh_CN", "estimate", str(path)), run("estimate", str(path))
    assert zh.returncode == en.returncode == 2
    assert en.stderr.strip() == "error: zero.json: max_num_seqs: must be a whole number of at least 1, not 0."
    assert "must be" not in zh.stderr and zh.stderr.startswith("错误：zero.json: max_num_seqs: ")


def test_serve_fit_reads_well_in_both_languages():
    """serve-fit printed "(over 1 engine instances)" for one instance, and "按当前设置fits" in Chinese (the verdict
    was not translated). One engine instance: no parenthesis; the verdict in the chosen language. The context is the
    file's max_model_len 32,768, printed whole as `estimate` and the window print it (it read "32.8K tokens each")."""
    scenario = str(REPO / "examples" / "serve-qwen3-32b-awq-2x4090.json")  # tp 2 on 2 GPUs: one instance
    en, zh = run("serve-fit", scenario), run("--lang", "zh_CN", "serve-fit", scenario)
    assert en.returncode == zh.returncode == 0, en.stderr + zh.stderr
    assert "engine instances" not in en.stdout and "Most users at once at 32,768 tokens each: 2" in en.stdout
    assert "fits" not in zh.stdout and "放得下" in zh.stdout and "引擎实例" not in zh.stdout


def test_an_unknown_preset_is_said_in_the_chosen_language(tmp_path):
    """`--lang zh_CN estimate` of a file naming no preset printed "错误：x.json: model: Unknown model preset ..." and
    `--lang zh_CN kv-cache` kept its hint ("Run 'python main.py presets models' for the list.") in English: the
    preset's sentence is now a template of its own down every wrapper, as the other scenario errors are."""
    path = tmp_path / "typo.json"
    path.write_text(json.dumps({"schema_version": 1, "model": "qq-9x", "gpu": "h100-sxm-80gb"}))
    en, zh = run("estimate", str(path)), run("--lang", "zh_CN", "estimate", str(path))
    assert en.returncode == zh.returncode == 2
    assert en.stderr.strip() == ("error: typo.json: model: Unknown model preset 'qq-9x'. Run 'python main.py "
                                 "presets models' for the list.")
    assert zh.stderr.startswith("错误：typo.json: model: 未知的模型预设 'qq-9x'。") and "Unknown" not in zh.stderr
    hint = run("--lang", "zh_CN", "kv-cache", "llama")  # a part of several ids: the close ones are named
    assert hint.returncode == 2 and "llama-3-8b" in hint.stderr and "Did you mean" not in hint.stderr


def test_a_misspelt_model_id_names_the_nearest_ids(tmp_path):
    """A typo'd model ("llama-3-8bb", "llama3-8b") only said "Run 'python main.py presets models' for the list.": the
    hint matched ids containing what was typed, which a typo never is. The nearest spellings are named now (the
    GPU's hint already named "h100-sxm-80gb" for "h100")."""
    for typed in ("llama-3-8bb", "llama3-8b", "lama-3-8b"):
        path = tmp_path / "typo.json"
        path.write_text(json.dumps({"schema_version": 1, "model": typed, "gpu": "h100-sxm-80gb"}))
        done = run("estimate", str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"error: typo.json: model: Unknown model preset '{typed}'. Did you mean: "
                                      "llama-3-8b"), done.stderr
    far = run("kv-cache", "qq-9x")  # nothing near: the list to read
    assert far.returncode == 2 and "presets models' for the list" in far.stderr


def test_serve_fit_says_why_no_gpu_count_serves_a_context_beyond_the_model(tmp_path):
    """Llama 3.1 8B was trained for 131,072 tokens (its config.json max_position_embeddings), which vLLM refuses to
    go beyond at any GPU count (vllm/config/model.py _get_and_verify_max_len): serve-fit said "Fewest GPUs: none up to
    64" as if more GPUs might help. It now names the model's limit; the header names the engine as vLLM."""
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb",
                                "workload": "inference", "serving_engine": "vllm", "max_model_len": 200000}))
    en, zh = run("serve-fit", str(path)), run("--lang", "zh_CN", "serve-fit", str(path))
    assert en.returncode == zh.returncode == 0, en.stderr + zh.stderr
    assert en.stdout.startswith("Llama 3.1 8B on vLLM: does not fit as set") and "up to 64" not in en.stdout
    assert ("Fewest GPUs: none, as a context of 200,000 tokens is longer than the model was trained for (131,072 "
            "tokens); more GPUs cannot help") in en.stdout
    assert "131,072" in zh.stdout and "trained" not in zh.stdout and "64" not in zh.stdout
    data = json.loads(run("serve-fit", str(path), "--json").stdout)
    assert (data["gpus"], data["trained_context"], data["beyond_trained_context"]) == (0, 131072, True)


def test_the_post_training_examples_read_in_chinese_without_english_ids():
    """`--lang zh_CN estimate` of the shipped DPO and GRPO examples printed the estimator's id ("（detailed）") and
    the time band's regime ("（all：1619 个…") in English; both now come through the engine's translations."""
    for name in ("dpo-llama3-8b-lora-trl.json", "grpo-qwen2.5-1.5b-trl-vllm-colocate.json"):
        zh = run("--lang", "zh_CN", "estimate", str(REPO / "examples" / name))
        assert zh.returncode == 0, zh.stderr
        assert "（detailed）" not in zh.stdout and "逐算子模型" in zh.stdout.splitlines()[0]
        assert "（all：" not in zh.stdout
        # the DPO example takes the training runs' band ("（全部：…"); GRPO generates, so its range is the post-training
        # regime's (engine/posttraining/band_text.py), in Chinese too
        assert ("（全部：" if "dpo" in name else "后训练实测运行") in zh.stdout
    en = run("estimate", str(REPO / "examples" / "dpo-llama3-8b-lora-trl.json")).stdout
    assert en.splitlines()[0].endswith("(detailed)") and "(all: " in en  # English as it was


def test_export_config_offers_every_export_format():
    """The CLI spells its --to choices out (so `main.py` starts without loading engine.configs), beside
    engine/configs/exporting.py EXPORT_FORMATS: the two lists must stay one (ms-swift-megatron was added to both)."""
    import argparse

    from engine.cli import build_parser
    from engine.configs.exporting import EXPORT_FORMATS

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    to = next(a for a in sub.choices["export-config"]._actions if "--to" in a.option_strings)
    assert tuple(to.choices) == EXPORT_FORMATS


def test_calibrate_names_only_the_arguments_that_are_missing():
    """`calibrate SCENARIO` said "the following arguments are required: figure, measured, others", though the other
    scenarios are optional (argparse counts a '*' positional without a default as required)."""
    done = run("calibrate", str(EXAMPLE))
    assert done.returncode == 2 and done.stderr.strip().endswith("required: figure, measured"), done.stderr
    ok = run("calibrate", str(EXAMPLE), "peak_reserved", "20GiB")
    assert "others" not in ok.stderr and "Traceback" not in ok.stderr


def test_estimate_of_a_run_that_does_not_fit_says_what_to_change():
    """`estimate` of a run that does not fit ended on its verdict and a time "for reference only", never saying what to
    change or that `fit` answers it: its last line now names Make it fit's first two plans (engine/plan_card.py
    change_sentence, from engine/planning/solver.py plans) and the command that lists the rest."""
    from engine import estimate, load_scenario
    from engine.plan_card import change_sentence

    over = REPO / "examples" / "7b-full-finetune-one-gpu.json"
    done = run("estimate", str(over))
    assert done.returncode == 0, done.stderr
    s = load_scenario(over)
    expected = str(change_sentence(s, estimate(s), "GiB"))
    assert expected.startswith("To make it fit: ")
    assert done.stdout.rstrip().splitlines()[-1] == f"{expected} More plans and the limits: python main.py fit {over}"
    fits = run("estimate", str(EXAMPLE))
    assert fits.returncode == 0 and "To make it fit" not in fits.stdout and "python main.py fit" not in fits.stdout


def test_a_mistyped_command_is_named_not_opened_as_a_scenario(capsys):
    """`main.py serve x.json` said "open one scenario file at a time", `main.py serve --help` "unknown option --help;
    try --help", and `main.py estimat FILE` tried to open the window on a file named "estimat"."""
    from gui import launch

    for argv in (["serve", "x.json"], ["serve", "--help"], ["estimat", "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json"]):
        assert launch.main(argv) == 2
        err = capsys.readouterr().err
        assert f"unknown command '{argv[0]}'" in err and "serve-fit" in err
    assert "did you mean estimate?" in err
    # --help among the window's options prints the help; a scenario path (with a suffix or a folder) is still a file
    with pytest.raises(SystemExit) as exc:
        launch.main(["examples/x.json", "--help"])
    assert exc.value.code == 0 and "serve-fit" in capsys.readouterr().out
    assert launch.parse_window_args(["missing.json"]).scenario == "missing.json"


def test_a_mistyped_command_after_the_language_is_named_too(capsys):
    """`main.py --lang zh_CN estimat FILE` opened the window on a file named "estimat" (gui/launch.py checked only the
    first word for a command): it says "unknown command", as `main.py estimat FILE` does, --help or not; a scenario
    file after the window's options still opens."""
    from gui import launch

    for argv in (["--lang", "zh_CN", "estimat", "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json"],
                 ["--lang", "zh_CN", "estimat"], ["--theme", "dark", "--lang", "en", "estimat", "--help"]):
        assert launch.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "unknown command 'estimat'" in err and "did you mean estimate?" in err
    opts = launch.parse_window_args(["--lang", "zh_CN", "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json"])
    assert opts.scenario == "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json" and opts.language == "zh_CN"
    with pytest.raises(SystemExit) as exc:
        launch.main(["--lang", "zh_CN", "examples/x.json", "--help"])
    assert exc.value.code == 0 and "serve-fit" in capsys.readouterr().out


def test_the_verdict_line_does_not_close_a_sentence_inside_its_brackets():
    """The GRPO example at 32B on 8 x H100 (engine TP 1) read "Verdict: DOES NOT FIT (vLLM refuses: ... budget).)"."""
    from engine import scenario_from_dict
    from engine.estimate_output import render_table
    from engine.workloads import estimate

    data = json.loads((REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text())
    s = scenario_from_dict({**data, "model": "qwen2.5-32b", "gpus_per_node": 8, "zero_stage": 3})
    line = next(x for x in render_table(estimate(s), "GiB").splitlines() if x.startswith("Verdict:"))
    assert "vLLM refuses" in line and ".)" not in line
