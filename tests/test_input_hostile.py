"""Hostile input through every door (scenario keys, config.json values, the command line, the window): one sentence
naming the key, exit 2, within a second; never a traceback, a hang, negative memory or injected terminal/HTML text."""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
import time

import pytest
from conftest import REPO

from engine import ScenarioError, estimate, load_scenario, scenario_from_dict
from engine.cli import main as cli_main
from engine.input_bounds import CONFIG_COUNTS
from engine.scenario import SCENARIO_MAXIMA

TINY = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
        "intermediate_size": 1024, "vocab_size": 1000}
TINY_MOE = {**TINY, "model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 2}


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli_main(list(argv))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def with_config(**changes) -> dict:
    base = TINY_MOE if any("expert" in k for k in changes) else TINY
    return {"model": {"name": "t", "hf_config": {**base, **changes}}}


@pytest.mark.parametrize(("key", "value"), [
    ("num_local_experts", -128), ("head_dim", -100_000), ("num_hidden_layers", 10**9), ("hidden_size", 0),
    ("vocab_size", "32000"), ("num_attention_heads", 8.5), ("intermediate_size", 1e308), ("head_dim", True),
    ("num_key_value_heads", -1), ("num_experts_per_tok", 64), ("attention_dropout", 7), ("tie_word_embeddings", "no"),
    ("sliding_window", -4096), ("max_position_embeddings", 2**200), ("rope_theta", math.inf), ("mlp_only_layers", [-1]),
])
def test_every_config_value_is_checked_and_the_key_named(key, value):
    began = time.monotonic()
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(with_config(**{key: value}))
    assert key in str(info.value) and time.monotonic() - began < 1


def test_config_bounds_admit_every_shipped_model():
    from engine import model_presets

    for preset in model_presets().values():  # the bounds are far above any real model (presets come from config.json)
        spec = preset.spec
        assert spec.layers <= CONFIG_COUNTS["num_hidden_layers"][1] and spec.hidden <= CONFIG_COUNTS["hidden_size"][1]


@pytest.mark.parametrize(("key", "value"), [
    ("micro_batch", 1e308), ("micro_batch", 2**200), ("seq_len", SCENARIO_MAXIMA["seq_len"] + 1), ("tp", 10**6),
    ("grad_accum", math.nan), ("lora_alpha", math.inf), ("nodes", -3), ("gpu", {"name": "x", "memory_bytes": 2**80}),
    ("schema_version", True), ("schema_version", 1.0), ("name", "x" * 10_000),
])
def test_scenario_values_out_of_range_are_refused(key, value):
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict({"model": "llama-3-8b", key: value})
    assert str(info.value).startswith(key)


HOSTILE_FILES = {
    "deep.json": '{"model": ' + "[" * 5000 + "]" * 5000 + "}",
    "digits.json": '{"model": "llama-3-8b", "micro_batch": ' + "9" * 5000 + "}",
    "big-float.json": '{"model": "llama-3-8b", "micro_batch": 1e999}',
    "nan.json": '{"model": "llama-3-8b", "k_factor": NaN}',
    "huge-fit.json": json.dumps({"model": "llama-3-8b", "micro_batch": 2**200}),
    "moe-layers.json": json.dumps(with_config(num_hidden_layers=10**9, num_local_experts=8)),
    "negative-experts.json": json.dumps(with_config(num_local_experts=-128)),
}


@pytest.mark.parametrize("command", ["estimate", "fit"])
@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_cli_hostile_files_exit_2_with_one_sentence_within_a_second(tmp_path, command, name):
    path = tmp_path / name
    path.write_text(HOSTILE_FILES[name])
    began = time.monotonic()
    code, out, err = run_cli(command, str(path))
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert time.monotonic() - began < 1


@pytest.mark.parametrize("name, said", [
    ("deep.json", "it nests lists or objects more than 32 levels deep"),
    ("digits.json", "a whole number with 5000 digits is longer than the 30 allowed"),
    ("big-float.json", "1e999 is too large for a number"),
    ("nan.json", "NaN is not a number JSON allows"),
])
def test_a_file_past_a_json_bound_says_which_bound_not_that_it_is_damaged(tmp_path, name, said):
    # h-fuzz7: these are valid JSON the bounded parser refuses (engine/bounded_json.py); the sentence said "is not
    # valid JSON; it may be truncated or damaged", which sends the user looking for damage that is not there
    path = tmp_path / name
    path.write_text(HOSTILE_FILES[name])
    code, out, err = run_cli("estimate", str(path))
    assert code == 2 and err == f"error: {name}: cannot be read: {said}.\n"


def test_names_cannot_inject_terminal_control_or_fake_lines(tmp_path):
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({"model": "llama-3-8b", "gpu": {"name": "card\x1b]0;pwned\x07", "memory_bytes": 2**30},
                                "name": "\x1b[2J\x1b[H\nVerdict: FITS (headroom 70 GiB per GPU)\u202e\ud800"}))
    code, out, _ = run_cli("estimate", str(path))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "\ud800" not in out
    assert [line for line in out.splitlines() if line.startswith("Verdict:")] == [
        line for line in out.splitlines() if line.startswith("Verdict: DOES NOT FIT")]
    code, _, err = run_cli("estimate", str(tmp_path / "missing\x1b[31m.json"))
    assert code == 2 and "\x1b" not in err
    bad_key = tmp_path / "key.json"
    bad_key.write_text(json.dumps({"model": "llama-3-8b", "x\nVerdict: FITS": 1}))
    code, _, err = run_cli("estimate", str(bad_key))
    assert code == 2 and err.count("\n") == 1


def test_kv_cache_refuses_negative_and_absurd_numbers():
    for argv in (["--batch", "-8"], ["--seq-len", "0"], ["--bytes", "-2"], ["--batch", "9" * 400]):
        code, out, err = run_cli("kv-cache", "llama-3-8b", *argv)
        assert code == 2 and out == "" and "must be a whole number" in err
    code, out, _ = run_cli("kv-cache", "llama-3-8b", "--batch", "8", "--json")
    assert code == 0 and json.loads(out)["kv_cache_bytes"] > 0


def test_byte_order_mark_and_old_format_files_are_read_by_the_cli(tmp_path):
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"model": "llama-3-8b"}).encode())
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"model": "llama-3-8b", "batch_size": 3, "gpus": 2}))  # schema_version 0 names
    assert run_cli("estimate", str(bom))[0] == 0
    scenario = load_scenario(old)
    assert (scenario.micro_batch, scenario.gpus_per_node) == (3, 2)
    assert run_cli("estimate", str(old))[0] == 0


def test_default_lora_targets_follow_the_model():
    phi = scenario_from_dict({"model": "phi-3-mini", "method": "lora"})
    assert phi.lora_targets == ("qkv_proj",) and estimate(phi).trainable_params > 0
    assert scenario_from_dict({"model": "llama-3-8b", "method": "lora"}).lora_targets == ("q_proj", "v_proj")


@pytest.mark.parametrize("layout", [{"tp": 2, "gpus_per_node": 2}, {"pp": 2, "gpus_per_node": 2},
                                    {"tp": 2, "pp": 2, "gpus_per_node": 4}])
@pytest.mark.parametrize("model", ["llama-3-8b", "qwen2.5-0.5b", "gemma-2-2b"])
@pytest.mark.parametrize("method", ["full", "lora"])
def test_trainable_never_exceeds_total_and_ignores_the_layout(model, method, layout):
    """The counts describe the model, not a rank: TP-replicated norms and a tied embedding on two pipeline stages
    count once (source: the same scenario on one GPU, where nothing is replicated)."""
    try:
        single = estimate(scenario_from_dict({"model": model, "method": method}))
    except ScenarioError:
        pytest.skip(f"{model} is not a preset here")
    split = estimate(scenario_from_dict({"model": model, "method": method, **layout}))
    assert split.trainable_params == single.trainable_params <= split.total_params == single.total_params


def test_screenshot_into_a_missing_folder_fails(tmp_path):
    target = tmp_path / "no" / "such" / "folder" / "x.png"
    result = subprocess.run([sys.executable, "main.py", "--screenshot", str(target)], cwd=REPO, capture_output=True,
                            text=True, timeout=120, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 2 and "could not be written" in result.stderr and not target.exists()


def test_window_labels_show_user_text_as_typed(qtbot):
    """A custom GPU name full of HTML must not paint itself into the verdict banner as "12.30 GiB free"."""
    from gui.app import build_window

    window, _ = build_window(None)
    qtbot.addWidget(window)
    evil = "<span style='color:#2e7d32'>12.30 GiB free</span><img src=x>"
    assert window.state.edit({"gpu": {"name": evil, "memory_bytes": 2**30}, "name": "<b>bold</b>\ud800"})
    assert evil not in window.verdict.text() and "&lt;span" in window.verdict.text()
    assert window.hardware_picker.summary.textFormat().name == "PlainText"
    window.tabs.setCurrentWidget(window.library_panel)
    assert window.library_save()  # the lone surrogate in the name survives the table and the file
    window.library_panel.refresh()


def test_image_counts_and_sides_have_sane_bounds():
    """Issue 15 with issue 12's keys: a billion images or a 10^8-pixel side is refused in one sentence naming the
    key (not estimated as FITS with a warning); the window's spin boxes reach the same bounds, so a file's value shows
    as it is."""
    from engine import ScenarioError, scenario_from_dict
    from engine.scenario import SCENARIO_MAXIMA

    base = {"model": "qwen2.5-vl-7b", "method": "lora"}
    for key, value in (("images_per_sample", 10**9), ("image_resolution", 10**8)):
        with pytest.raises(ScenarioError) as err:
            scenario_from_dict({**base, key: value})
        assert err.value.key == key and f"{SCENARIO_MAXIMA[key]:,}" in str(err.value)
    scenario_from_dict({**base, "images_per_sample": SCENARIO_MAXIMA["images_per_sample"]})


def test_image_spin_boxes_reach_the_engine_bounds(qtbot):
    from engine.scenario import SCENARIO_MAXIMA
    from gui.app import build_window

    window, _ = build_window(None)
    qtbot.addWidget(window)
    panel = window.setup_panel
    assert panel.images_per_sample.maximum() == SCENARIO_MAXIMA["images_per_sample"]
    assert panel.image_resolution.maximum() == SCENARIO_MAXIMA["image_resolution"]


def test_custom_gpu_fields_are_checked_by_name():
    """A misspelt speed field (bf16_flops for bf16_tflops) is refused naming it, like an unknown scenario key; the
    descriptive fields `presets gpus --json` prints for a card are accepted."""
    from engine import ScenarioError, scenario_from_dict

    gpu = {"name": "x", "memory_bytes": 80 * 10**9}
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict({"model": "llama-3-8b", "gpu": {**gpu, "bf16_flops": 989}})
    assert err.value.key == "gpu" and "'bf16_flops'" in str(err.value) and "bf16_tflops" in str(err.value)
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": {**gpu, "id": "x", "vendor": "NVIDIA", "bf16_tflops": 989}})
    assert dict(s.gpu.speed) == {"bf16_tflops": 989}
