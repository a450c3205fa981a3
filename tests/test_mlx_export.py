"""export-config --to mlx-lm: a plan as the YAML `mlx_lm.lora --config` reads (engine/configs/export_mlx_lm.py), read
back by the mlx-lm importer (engine/configs/mlx_lm.py). What mlx-lm does with each key is taken from
ml-explore/mlx-lm@d78bf58e: mlx_lm/lora.py (CONFIG_DEFAULTS lines 44-80, the config merged key by key over them in
main lines 372-391, train_model lines 224-253), tuner/utils.py linear_to_lora_layers, tuner/lora.py line 98 (the
adapter's output times scale) and tuner/trainer.py iterate_batches (batch_size split between the workers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.configs import ExportError, export_config, import_texts
from engine.configs.export_left_out import left_out_sentence, left_out_settings
from engine.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_exports import MlxLmLoader  # noqa: E402 - mlx-lm's own loader, written from its source

ROOT = Path(__file__).resolve().parent.parent
MAC = {"model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb", "framework": "mlx", "precision": "bf16", "micro_batch": 2,
       "grad_accum": 4, "seq_len": 2048}
TINY = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 8, "num_attention_heads": 8,
        "intermediate_size": 1024, "vocab_size": 1000}
# mlx_lm/lora.py CONFIG_DEFAULTS (lines 44-80), the keys this export touches
MLX_LM_DEFAULTS = {"fine_tune_type": "lora", "num_layers": 16, "batch_size": 4, "iters": 1000, "train": False,
                   "max_seq_length": 2048, "grad_checkpoint": False, "grad_accumulation_steps": 1, "optimizer": "adam",
                   "lora_parameters": {"rank": 8, "dropout": 0.0, "scale": 20.0}}


def mlx_lm_args(text: str) -> dict:
    """What mlx_lm.lora runs with: the file loaded as mlx-lm loads it, each key over CONFIG_DEFAULTS (lora.py main)."""
    return {**MLX_LM_DEFAULTS, **yaml.load(text, MlxLmLoader)}  # noqa: S506 - a SafeLoader subclass


def exported(data: dict) -> tuple[str, dict]:
    text = export_config(scenario_from_dict(data), "mlx-lm")
    return text, import_texts([("mlx_lm_lora.yaml", text)]).scenario


def test_lora_on_the_top_layers_round_trips():
    plan = {**MAC, "method": "lora", "lora_rank": 16, "lora_alpha": 32, "lora_targets": ["q_proj", "v_proj"],
            "lora_layers": 16, "checkpointing": "full"}
    text, back = exported(plan)
    args = mlx_lm_args(text)
    assert args["train"] is True  # run() raises "Must provide at least one of --train or --test" without it
    assert (args["fine_tune_type"], args["num_layers"], args["batch_size"], args["grad_accumulation_steps"],
            args["max_seq_length"], args["grad_checkpoint"]) == ("lora", 16, 2, 4, 2048, True)
    # the mapping replaces the default one whole, and to_lora reads rank, scale and dropout from it; the adapter's
    # output is multiplied by scale, PEFT's alpha / r = 32 / 16
    assert args["lora_parameters"] == {"rank": 16, "scale": 2.0, "dropout": 0.0,
                                       "keys": ["self_attn.q_proj", "self_attn.v_proj"]}
    assert {k: back[k] for k in ("framework", "method", "lora_rank", "lora_alpha", "lora_targets", "lora_layers",
                                 "micro_batch", "grad_accum", "seq_len", "checkpointing", "model")} == {
        "framework": "mlx", "method": "lora", "lora_rank": 16, "lora_alpha": 32, "lora_targets": ["q_proj", "v_proj"],
        "lora_layers": 16, "micro_batch": 2, "grad_accum": 4, "seq_len": 2048, "checkpointing": "full",
        "model": "qwen2.5-7b"}


def test_every_layer_and_every_linear_write_minus_one_and_no_keys():
    text, back = exported({**MAC, "method": "lora", "lora_targets": "all-linear"})
    args = mlx_lm_args(text)
    # -1: model.layers[-max(-1, 0):] is every layer; no keys: linear_to_lora_layers adapts every linear
    assert args["num_layers"] == -1 and "keys" not in args["lora_parameters"]
    assert (back["lora_layers"], back["lora_targets"]) == (0, "all-linear")
    _, back = exported({**MAC, "method": "lora", "lora_targets": "attention"})
    assert back["lora_targets"] == "attention"
    # Phi-3's fused projections (mlx_lm/models/phi3.py lines 62 and 124)
    text, back = exported({**MAC, "model": "phi-3-medium", "method": "lora", "lora_targets": ["qkv_proj", "gate_up_proj"]})
    assert mlx_lm_args(text)["lora_parameters"]["keys"] == ["self_attn.qkv_proj", "mlp.gate_up_proj"]
    assert back["lora_targets"] == ["gate_up_proj", "qkv_proj"]


def test_full_and_frozen_bottom_fine_tuning_round_trip():
    text, back = exported({**MAC, "method": "full"})
    assert (mlx_lm_args(text)["fine_tune_type"], mlx_lm_args(text)["num_layers"]) == ("full", -1)
    assert back["method"] == "full" and "lora_parameters" not in yaml.load(text, MlxLmLoader)  # noqa: S506
    # model.freeze(), then only model.layers unfrozen (train_model): the plan's trained embeddings are said
    assert "keeps the embeddings and the output layer frozen" in text
    # Qwen2.5-7B has 28 layers (config.json num_hidden_layers): 20 frozen from the bottom -> the top 8 trained
    text, back = exported({**MAC, "method": "freeze", "frozen_layers": 20})
    assert (mlx_lm_args(text)["fine_tune_type"], mlx_lm_args(text)["num_layers"]) == ("full", 8)
    assert (back["method"], back["frozen_layers"], back["freeze_from"]) == ("freeze", 20, "bottom")
    assert "keeps the embeddings" not in text  # freeze_embeddings (the default): the same as mlx-lm


def test_iters_come_from_the_tokens_to_train():
    # one iteration is one batch of batch_size sequences of at most max_seq_length tokens: 2 x 2,048 = 4,096 tokens
    text, back = exported({**MAC, "method": "lora", "tokens_to_train": 4_096_000})
    assert mlx_lm_args(text)["iters"] == 1000 and back["tokens_to_train"] == 4_096_000
    text, _ = exported({**MAC, "method": "lora", "tokens_to_train": 4_096_001})
    assert mlx_lm_args(text)["iters"] == 1001  # rounded up to whole batches
    assert "iters" not in yaml.load(exported({**MAC, "method": "lora"})[0], MlxLmLoader)  # noqa: S506


def test_several_macs_split_the_batch_and_launch_with_mlx_launch():
    text, _ = exported({**MAC, "method": "lora", "nodes": 2})
    # iterate_batches gives each of the 2 workers batch_size // 2 = the plan's micro-batch of 2
    assert mlx_lm_args(text)["batch_size"] == 4
    assert text.startswith("# Launch: mlx.launch -n 2 ")


@pytest.mark.parametrize("name", ["1e5", "5.", ".inf", "12:30.5", "org/m: x", "a\nb: 1", "'q'\"", "- x", "#x",
                                  "名前\u2028x", "true"])
def test_model_names_stay_one_string_as_mlx_lm_reads_them(name):
    # mlx-lm reads with SafeLoader plus a float resolver of its own: "1e5" and "5." are floats there
    text = export_config(scenario_from_dict({**MAC, "method": "full", "model": {"name": name, "hf_config": TINY}}),
                         "mlx-lm")
    assert mlx_lm_args(text)["model"] == name
    assert yaml.safe_load(text)["model"] == name


@pytest.mark.parametrize(("plan", "words"), [
    ({"method": "qlora"}, "mlx_lm.convert --hf-path Qwen/Qwen2.5-7B -q --q-bits 4"),
    ({"method": "freeze", "frozen_layers": 4, "freeze_from": "top"}, "top layers"),
    # mlx-lm's GPT-2 keeps its attention under attn.c_attn (mlx_lm/models/gpt2.py), not self_attn.qkv_proj
    ({"model": "gpt2-large", "method": "lora", "lora_targets": ["qkv_proj"]}, "'qkv_proj'"),
    ({"model": "qwen3-30b-a3b", "method": "lora", "lora_targets": ["q_proj", "gate_proj"]}, "mixture-of-experts"),
])
def test_what_mlx_lm_cannot_run_is_refused_in_one_sentence(plan, words):
    with pytest.raises(ExportError) as info:
        export_config(scenario_from_dict({**MAC, **plan}), "mlx-lm")
    text = str(info.value)
    assert words in text and text.endswith(".") and "\n" not in text


def test_the_left_out_sentence_names_what_mlx_lm_cannot_hold():
    plan = {**MAC, "method": "lora", "checkpointing": "selective", "optimizer": "adamw-8bit", "compile": True}
    # grad_checkpoint is whole layers (selective reads back as full), mlx-lm's optimizers have no 8-bit AdamW, and
    # mlx-lm has no compile switch (it compiles the step itself)
    assert left_out_settings(scenario_from_dict(plan), "mlx-lm") == {
        "optimizer": "adamw-8bit", "checkpointing": "selective", "compile": True}
    assert "Not in this mlx-lm file" in str(left_out_sentence(scenario_from_dict(plan), "mlx-lm"))
    assert left_out_settings(scenario_from_dict({**MAC, "method": "lora", "lora_layers": 8}), "mlx-lm") == {}


def test_other_formats_name_the_adapted_layers_they_lose():
    # axolotl writes no layers_to_transform: a LoRA on the top 16 layers would adapt every layer there
    assert left_out_settings(scenario_from_dict({**MAC, "framework": "huggingface", "method": "lora",
                                                 "lora_layers": 16}), "axolotl") == {"lora_layers": 16}


def test_cli_export_config_to_mlx_lm(tmp_path):
    scenario = tmp_path / "mac.json"
    scenario.write_text(json.dumps({**MAC, "method": "lora", "lora_layers": 16}), encoding="utf-8")
    out = tmp_path / "lora.yaml"
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "export-config", str(scenario), "--to", "mlx-lm",
                          "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    back = import_texts([("lora.yaml", out.read_bytes())])
    assert back.formats == ("mlx-lm",) and back.scenario["lora_layers"] == 16
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "export-config", str(ROOT / "examples" /
                          "qwen2.5-7b-lora-m4-max.json"), "--to", "mlx-lm"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("# Launch: mlx_lm.lora --config mlx_lm_lora.yaml")
    assert mlx_lm_args(run.stdout)["lora_parameters"]["rank"] == 16
