"""Export a scenario as each framework's launch settings, and read it back: import(export(s)) == s on the keys
the format carries (engine/configs/exporting.py CARRIED). The scenarios are ones each framework can run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Estimate, estimate
from engine.configs import CARRIED, EXPORT_FORMATS, FILE_NAMES, ExportError, counts_for_import, export_config, import_texts
from engine.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parent.parent

BASE = {"model": "llama-3.1-8b", "micro_batch": 2, "grad_accum": 4, "seq_len": 4096, "gpus_per_node": 8}
# one Mac (mlx-lm's batch_size is split between workers; one worker reads back as micro_batch)
MAC = {"model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb", "framework": "mlx", "precision": "bf16", "micro_batch": 2,
       "grad_accum": 4, "seq_len": 2048}
READ_AS = {"ms-swift-megatron": "ms-swift"}  # the importer's name of the format an export is read back as
SCENARIOS = {
    "deepspeed": [
        {**BASE, "zero_stage": 3, "offload": "optimizer+params", "precision": "mixed-bf16"},
        {**BASE, "zero_stage": 2, "offload": "optimizer", "precision": "mixed-fp16", "micro_batch": 1},
        {**BASE, "zero_stage": 1, "precision": "fp32"},
        # MiCS: ZeRO-3 within groups of 8 of the 16 ranks (mics_shard_size)
        {**BASE, "zero_stage": 3, "precision": "mixed-bf16", "nodes": 2, "dp_shard": 8},
    ],
    "accelerate": [
        {**BASE, "fsdp": True, "precision": "amp-bf16", "checkpointing": "full", "reshard_after_forward": False},
        {**BASE, "fsdp": True, "offload": "optimizer+params", "precision": "amp-fp16", "nodes": 2},
        {**BASE, "zero_stage": 3, "offload": "optimizer", "precision": "mixed-bf16"},
        {**BASE, "precision": "amp-bf16"},
        # HSDP over accelerate's parallelism_config: 2 replicas of a group of 8
        {**BASE, "fsdp": True, "precision": "amp-bf16", "nodes": 2, "dp_shard": 8},
    ],
    "torchtune": [
        {**BASE, "method": "lora", "lora_rank": 16, "lora_alpha": 32, "precision": "bf16", "checkpointing": "full",
         "optimizer": "adamw-fused", "compile": True},
        {**BASE, "method": "qlora", "lora_rank": 8, "lora_targets": "all-linear", "precision": "bf16"},
        {**BASE, "method": "full", "precision": "bf16", "optimizer": "adamw-8bit", "optimizer_in_backward": True,
         "grad_accum": 1, "activation_offload": True, "checkpointing": "full"},
        {**BASE, "model": "qwen2.5-7b", "method": "full", "precision": "bf16", "tp": 2},
    ],
    "axolotl": [
        {**BASE, "method": "qlora", "lora_rank": 32, "lora_alpha": 16, "lora_targets": "all-linear",
         "precision": "bf16", "checkpointing": "full", "optimizer": "adamw-8bit", "attention": "flash"},
        {**BASE, "method": "qlora", "qlora_bits": 8, "lora_targets": ["q_proj", "v_proj"], "precision": "bf16"},
        {**BASE, "method": "full", "precision": "bf16", "fsdp": True, "offload": "optimizer+params",
         "optimizer": "adamw-fused", "compile": True},
    ],
    "llama-factory": [
        {**BASE, "model": "qwen3-4b", "method": "lora", "lora_rank": 8, "lora_targets": "all-linear",
         "precision": "bf16", "checkpointing": "full", "attention": "flash"},
        {**BASE, "method": "qlora", "qlora_bits": 4, "lora_targets": ["q_proj", "k_proj"], "precision": "bf16"},
        {**BASE, "method": "full", "precision": "amp-bf16", "attention": "sdpa"},
        {**BASE, "method": "full", "precision": "bf16"},
    ],
    "torchtitan": [
        {**BASE, "fsdp": True, "tp": 2, "checkpointing": "op-selective", "compile": True, "precision": "amp-bf16"},
        {**BASE, "model": "qwen3-32b", "fsdp": True, "pp": 2, "checkpointing": "full", "gpus_per_node": 8},
        # HSDP: 16 GPUs, tp 2, cp 2: 8 dp x cp ranks in groups of 4 (shard degree 2 x cp 2), replicated twice
        {**BASE, "fsdp": True, "tp": 2, "cp": 2, "gpus_per_node": 16, "dp_shard": 4, "precision": "amp-bf16"},
        # torchtitan's ZBVZeroBubble: two stages a rank in a V (pipeline_parallel_schedule, not its default 1F1B)
        {**BASE, "model": "qwen3-32b", "fsdp": True, "pp": 2, "vpp": 2, "pp_schedule": "zbv", "gpus_per_node": 8},
        # torchao's float8 ([quantize.linear.float8]): tensorwise with FSDP's float8 all-gather, and rowwise
        {**BASE, "fsdp": True, "precision": "fp8", "fp8_recipe": "auto", "fp8_all_gather": True},
        {**BASE, "fsdp": True, "precision": "fp8", "fp8_recipe": "rowwise_with_gw_hp"},
    ],
    "megatron": [
        {**BASE, "tp": 2, "pp": 2, "sequence_parallel": True, "precision": "mixed-bf16",
         "distributed_optimizer": True, "checkpointing": "selective", "framework": "megatron"},
        {**BASE, "tp": 4, "precision": "mixed-fp16", "checkpointing": "full", "nodes": 2, "framework": "megatron"},
        {**BASE, "model": "mixtral-8x7b", "pp": 4, "vpp": 2, "pp_schedule": "interleaved-1f1b", "ep": 2,
         "precision": "mixed-bf16", "framework": "megatron"},
        # the Zero Bubble fork's flags (--enable-zero-bubble, --zero-bubble-max-pending-backward p or 2p)
        {**BASE, "pp": 4, "pp_schedule": "zb-h1", "precision": "mixed-fp16", "framework": "megatron-zb"},
        {**BASE, "pp": 4, "pp_schedule": "zb-2p", "precision": "mixed-fp16", "framework": "megatron-zb"},
        # ZB-V: --zero-bubble-v-schedule, which sets the two chunks itself (megatron/arguments.py lines 192-203)
        {**BASE, "pp": 4, "vpp": 2, "pp_schedule": "zbv", "precision": "mixed-fp16", "framework": "megatron-zb"},
        # the experts one after another (Megatron-LM's default without --moe-grouped-gemm), gathered dispatch
        {**BASE, "model": "mixtral-8x7b", "pp": 4, "ep": 2, "precision": "mixed-bf16", "framework": "megatron",
         "moe_grouped_gemm": False, "moe_token_dispatcher_type": "allgather"},
        {**BASE, "tp": 2, "sequence_parallel": True, "precision": "fp8", "fp8_param_gather": True,
         "distributed_optimizer": True, "framework": "megatron"},
        # NVFP4 (Megatron --fp4-format e2m1 on --bf16, Transformer Engine's NVFP4 recipe) on a Blackwell GPU
        {**BASE, "tp": 2, "sequence_parallel": True, "precision": "nvfp4", "gpu": "gb200", "gpus_per_node": 4,
         "distributed_optimizer": True, "framework": "megatron"},
        {**BASE, "tp": 2, "precision": "mixed-bf16", "distributed_optimizer": True, "offload": "optimizer",
         "optimizer_offload_fraction": 0.35, "framework": "megatron"},
        # full recomputation of only some layers (--recompute-method block / uniform --recompute-num-layers N)
        {**BASE, "pp": 2, "precision": "mixed-bf16", "checkpointing": "full", "recompute_num_layers": 5,
         "framework": "megatron"},
        {**BASE, "tp": 2, "precision": "mixed-bf16", "checkpointing": "full", "recompute_num_layers": 4,
         "recompute_method": "uniform", "framework": "megatron"},
        # two distributed-optimizer instances of the 8 data-parallel ranks (--num-distributed-optimizer-instances)
        {**BASE, "tp": 2, "nodes": 2, "precision": "mixed-bf16", "distributed_optimizer": True, "dp_shard": 4,
         "framework": "megatron"},
    ],
    # ms-swift's `megatron sft` (export_swift_megatron.py): full and LoRA, MoE with EP, fp32, hybrid offload, packing
    "ms-swift-megatron": [
        {**BASE, "tp": 2, "pp": 2, "sequence_parallel": True, "precision": "mixed-bf16",
         "distributed_optimizer": True, "checkpointing": "selective", "framework": "megatron"},
        {**BASE, "model": "mixtral-8x7b", "pp": 4, "vpp": 2, "pp_schedule": "interleaved-1f1b", "ep": 2,
         "precision": "mixed-bf16", "framework": "megatron", "method": "lora", "lora_rank": 16, "lora_alpha": 32,
         "lora_targets": "all-linear", "checkpointing": "full", "recompute_num_layers": 4, "recompute_method": "block"},
        {**BASE, "tp": 4, "precision": "mixed-fp16", "checkpointing": "full", "nodes": 2, "framework": "megatron",
         "packing": "packed"},
        {**BASE, "tp": 2, "precision": "mixed-bf16", "distributed_optimizer": True, "offload": "optimizer",
         "optimizer_offload_fraction": 0.35, "framework": "megatron", "method": "lora", "lora_targets": "all-linear"},
        {**BASE, "tp": 2, "sequence_parallel": True, "precision": "fp8", "fp8_param_gather": True,
         "distributed_optimizer": True, "framework": "megatron", "dp_shard": 2},
        {**BASE, "precision": "fp32", "distributed_optimizer": False, "checkpointing": "none", "framework": "megatron"},
    ],
    # mlx-lm's `mlx_lm.lora --config` YAML (export_mlx_lm.py): LoRA on the top layers, on every layer with the
    # attention projections, a layer list, full and frozen-bottom fine-tuning, on one Mac
    "mlx-lm": [
        {**MAC, "method": "lora", "lora_rank": 16, "lora_alpha": 32, "lora_targets": "all-linear", "lora_layers": 16,
         "checkpointing": "full"},
        {**MAC, "method": "lora", "lora_rank": 8, "lora_alpha": 20, "lora_targets": "attention"},
        {**MAC, "model": "qwen3-0.6b", "method": "lora", "lora_targets": ["q_proj", "v_proj"], "lora_layers": 16},
        {**MAC, "method": "full", "grad_accum": 1, "optimizer": "adamw"},
        {**MAC, "method": "freeze", "frozen_layers": 20, "checkpointing": "full"},
    ],
    "trl": [
        {**BASE, "framework": "trl", "training_objective": "grpo", "prompt_len": 512, "completion_len": 1024,
         "num_generations": 8, "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.3,
         "rollout_sleep": "level-2", "reference_model": "none", "precision": "bf16", "checkpointing": "full"},
        {**BASE, "framework": "trl", "training_objective": "dpo", "method": "lora", "lora_rank": 16, "lora_alpha": 32,
         "reference_model": "precomputed", "precision": "amp-bf16", "prompt_len": 256, "completion_len": 768},
        {**BASE, "framework": "trl", "training_objective": "rloo", "rollout_engine": "none", "method": "qlora",
         "lora_targets": "all-linear", "precision": "bf16", "num_generations": 4},
        {**BASE, "framework": "trl", "training_objective": "ipo", "precision": "bf16", "checkpointing": "none"},
        {**BASE, "framework": "trl", "training_objective": "grpo", "rollout_engine": "vllm", "rollout_tp": 2,
         "rollout_sleep": "none", "precision": "amp-bf16", "num_generations": 16},
        # sharded: TRL's predefined accelerate configs (accelerate_config zero3 / fsdp2; huggingface/trl 02fcdef
        # docs/source/clis.md), which the launch line dropped (a ZeRO-3 plan ran as plain data parallelism)
        {**BASE, "model": "qwen2.5-32b", "framework": "trl", "training_objective": "grpo", "rollout_engine": "vllm",
         "rollout_tp": 8, "zero_stage": 3, "precision": "bf16", "checkpointing": "full"},
        {**BASE, "framework": "trl", "training_objective": "dpo", "fsdp": True, "fsdp_version": 2,
         "precision": "amp-bf16"},
    ],
    "verl": [
        {**BASE, "framework": "verl", "fsdp": True, "training_objective": "grpo", "prompt_len": 512,
         "completion_len": 1024, "num_generations": 5, "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.6,
         "rollout_tp": 2, "reference_model": "none", "checkpointing": "full"},
        {**BASE, "framework": "verl", "fsdp": True, "training_objective": "ppo", "critic_model": "same",
         "rollout_engine": "sglang", "offload": "optimizer+params", "nodes": 2, "rollout_max_num_seqs": 128},
        {**BASE, "framework": "verl", "fsdp": True, "model": "qwen2.5-3b", "training_objective": "grpo",
         "method": "lora", "lora_rank": 64, "lora_alpha": 32, "rollout_engine": "vllm", "gpus_per_node": 2,
         "rollout_max_model_len": 1536, "rollout_enforce_eager": True},
        # by token count (verl's use_dynamic_bsz with ppo_max_token_len_per_gpu): micro_batch the rank's mini-batch
        {**BASE, "framework": "verl", "fsdp": True, "training_objective": "grpo", "micro_batch": 20, "grad_accum": 1,
         "seq_len": 1536, "prompt_len": 512, "completion_len": 1024, "num_generations": 5, "rollout_engine": "vllm",
         "packing": "padding-free", "max_tokens_per_micro_batch": 12000},
    ],
}


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_export_then_import_gives_the_scenario_back(fmt: str) -> None:
    for data in SCENARIOS[fmt]:
        original = scenario_from_dict(data)
        text = export_config(original, fmt)
        assert "LLM Memory Planner" in text.splitlines()[0] + text.splitlines()[1]
        result = import_texts([(FILE_NAMES[fmt], text)])
        assert result.formats == (READ_AS.get(fmt, fmt),)
        # the GPU counts a format does not carry stay as the set-up has them, as the window applies an import
        back = {**counts_for_import(result.scenario, original.to_dict())[0], **result.scenario}
        back.setdefault("model", data["model"])  # formats that do not name the model (DeepSpeed, accelerate)
        if isinstance(back["model"], dict):  # Megatron describes the model by its shape
            back["model"] = data["model"]
        rebuilt = scenario_from_dict(back).to_dict()
        want = original.to_dict()
        diffs = {k: (want[k], rebuilt[k]) for k in CARRIED[fmt] if want[k] != rebuilt[k]}
        assert not diffs, (fmt, data, diffs)


def test_megatron_export_describes_the_model_shape() -> None:
    s = scenario_from_dict({**BASE, "precision": "mixed-bf16"})
    text = export_config(s, "megatron")
    # the shape flags are Llama-3.1-8B config.json's (32 layers, hidden 4096, 8 KV heads, vocabulary 128256, 131072
    # positions): read back, the shape is that preset's (Llama 3 8B's too, but for its 8192 positions)
    assert import_texts([("args.sh", text)]).scenario["model"] == "llama-3.1-8b"
    # one layer more is no preset's shape: a custom model with the script's shape
    cfg = import_texts([("args.sh", text.replace("--num-layers 32", "--num-layers 33"))]).scenario["model"]["hf_config"]
    assert (cfg["num_hidden_layers"], cfg["hidden_size"], cfg["num_key_value_heads"], cfg["vocab_size"]) == (
        33, 4096, 8, 128256)


def test_formats_without_the_model_say_so() -> None:
    custom = scenario_from_dict({"model": {"name": "mine", "hf_config": {
        "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
        "vocab_size": 1000, "intermediate_size": 1024}}})
    for fmt in ("torchtune", "torchtitan"):
        with pytest.raises(ExportError) as info:
            export_config(custom, fmt)
        assert str(info.value).endswith(".") and "\n" not in str(info.value)


def test_cli_export_config(tmp_path: Path) -> None:
    out = tmp_path / "ds.json"
    example = ROOT / "examples" / "llama3-8b-lora-4090.json"
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "export-config", str(example), "--to", "deepspeed",
                          "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    back = import_texts([("ds.json", out.read_bytes())])
    assert back.formats == ("deepspeed",)
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "export-config", str(example), "--to", "axolotl"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("# Written by LLM Memory Planner")


@pytest.mark.parametrize(("fmt", "data"), [
    ("trl", {**BASE, "training_objective": "ppo", "critic_model": "same"}),
    ("trl", {**BASE, "training_objective": "dpo", "zero_stage": 3, "offload": "optimizer"}),
    ("trl", {**BASE, "training_objective": "grpo", "rollout_engine": "sglang"}),
    ("trl", {**BASE, "training_objective": "grpo", "rollout_engine": "vllm", "rollout_sleep": "level-1"}),
    ("verl", {**BASE, "training_objective": "dpo"}),
    ("verl", {**BASE, "training_objective": "grpo", "rollout_engine": "none"}),
    ("verl", {**BASE, "training_objective": "grpo", "model": {"name": "a\nb", "hf_config": {
        "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
        "vocab_size": 1000, "intermediate_size": 1024}}}),
])
def test_post_training_exports_refuse_what_the_framework_cannot_run(fmt: str, data: dict) -> None:
    with pytest.raises(ExportError) as info:
        export_config(scenario_from_dict(data), fmt)
    assert str(info.value).endswith(".") and "\n" not in str(info.value)


@pytest.mark.parametrize("recomputed", [0, 8, 16])
def test_torchtitan_every_nth_block_round_trips_where_it_divides(recomputed: int) -> None:
    """torchtitan states recomputing some blocks as selective_ac_option N (every N-th block, activation_checkpoint.py
    _apply_layer_sac): 32 layers with 8 or 16 recomputed are every 4th or 2nd block, read back as the same count."""
    s = scenario_from_dict({**BASE, "fsdp": True, "checkpointing": "full", "recompute_num_layers": recomputed})
    text = export_config(s, "torchtitan")
    every = 32 // recomputed if recomputed else 0
    assert (f'selective_ac_option = "{every}"' in text) == bool(recomputed)
    back = import_texts([("torchtitan.toml", text)]).scenario
    assert back["checkpointing"] == "full" and back.get("recompute_num_layers", 0) == recomputed


def test_torchtitan_float8_settings_as_its_toml_spells_them() -> None:
    """torchtitan v0.2.2 (73a0e697) config/job_config.py lines 731-745 and components/quantization/float8.py lines
    65-100, 238: the converter "quantize.linear.float8"; recipe_name unset is torchao's tensorwise, the only recipe
    with enable_fsdp_float8_all_gather (set with a recipe_name it asserts); a recipe torchao lacks is refused. v0.1.0's
    [float8] section and "float8" converter read the same."""
    s = scenario_from_dict({**BASE, "fsdp": True, "precision": "fp8", "fp8_recipe": "rowwise"})
    text = export_config(s, "torchtitan")
    assert 'converters = ["quantize.linear.float8"]' in text and 'recipe_name = "rowwise"' in text
    assert "enable_fsdp_float8_all_gather" not in text
    auto = export_config(s.replace(fp8_recipe="auto"), "torchtitan")  # torchtitan's own default: all-gather off
    assert "recipe_name" not in auto and "enable_fsdp_float8_all_gather = false" in auto
    assert "float8" not in export_config(s.replace(precision="amp-bf16"), "torchtitan")
    with pytest.raises(ExportError, match="delayed"):
        export_config(s.replace(fp8_recipe="delayed"), "torchtitan")
    old = ('[model]\nname = "llama3"\nflavor = "8B"\nconverters = ["float8"]\n\n'
           '[float8]\nenable_fsdp_float8_all_gather = true\nprecompute_float8_dynamic_scale_for_fsdp = true\n')
    back = import_texts([("torchtitan.toml", old)]).scenario
    assert back["precision"] == "fp8" and back["fp8_all_gather"] is True


def test_torchtitan_mxfp8_is_its_mx_converter_and_is_refused_where_torchtitan_asserts() -> None:
    """torchtitan v0.2.2 (73a0e697): MXFP8 is the converter "quantize.linear.mx" (components/quantization/mx.py line
    171) with [quantize.linear.mx] recipe_name, default "mxfp8_cublas" (config/job_config.py lines 767-790); the
    converter asserts CUDA SM100 / ROCm gfx950 or later (mx.py lines 42-44) and no TP with torch.compile (lines
    47-52), so those plans are refused in one sentence. Read back, it is fp8 with fp8_recipe mxfp8."""
    s = scenario_from_dict({**BASE, "gpu": "b200", "fsdp": True, "precision": "fp8", "fp8_recipe": "mxfp8"})
    text = export_config(s, "torchtitan")
    assert 'converters = ["quantize.linear.mx"]' in text and "[quantize.linear.mx]" in text
    assert 'recipe_name = "mxfp8_cublas"' in text and "float8" not in text
    back = import_texts([("torchtitan.toml", text)]).scenario
    assert back["precision"] == "fp8" and back["fp8_recipe"] == "mxfp8"
    export_config(s.replace(gpu="mi355x"), "torchtitan")  # CDNA4 (gfx950): torchao's MX runs there too
    for before in ("h100-sxm-80gb", "mi300x"):  # fp8 tensor cores, no MX ones: the converter asserts
        with pytest.raises(ExportError, match="SM100"):
            export_config(s.replace(gpu=before), "torchtitan")
    with pytest.raises(ExportError, match=r"torch\.compile"):
        export_config(s.replace(tp=2, compile=True), "torchtitan")
    mxfp4 = '[model]\nname = "llama3"\nflavor = "8B"\nconverters = ["quantize.linear.mx"]\n\n' \
            '[quantize.linear.mx]\nrecipe_name = "mxfp4_cutlass"\n'
    assert import_texts([("torchtitan.toml", mxfp4)]).scenario.get("precision") != "fp8"


@pytest.mark.parametrize("dp_shard", [0, 4])
def test_torchtitan_zero3_without_the_fsdp_key_exports_a_sharded_mesh(dp_shard: int) -> None:
    """zero_stage 3 in torchtitan is its FSDP (the estimate shards so: Scenario.effective_zero; the shipped example
    examples/qwen3-30b-a3b-8x-h100.json states it so): the export shards over every rank, or over groups of dp_shard,
    never a replicate-only mesh that keeps the states whole on every GPU. Read back, it is FSDP with the same group
    and the same memory on each GPU: its ZeRO-3 is costed as its FSDP2 (behaviour.fsdp_shards), gather buffers too."""
    data = {**BASE, "framework": "torchtitan", "zero_stage": 3, "gpus_per_node": 8, "dp_shard": dp_shard}
    s = scenario_from_dict(data)
    text = export_config(s, "torchtitan")
    shard, replicate = (dp_shard, 8 // dp_shard) if dp_shard else (-1, 1)  # -1: all ranks left (job_config.py)
    assert f"data_parallel_shard_degree = {shard}" in text and f"data_parallel_replicate_degree = {replicate}" in text
    back = import_texts([("torchtitan.toml", text)]).scenario
    assert back["fsdp"] and back.get("dp_shard", 0) == dp_shard
    rebuilt = scenario_from_dict({**data, **back, "zero_stage": 0})
    def states(e: Estimate) -> dict[str, float]:
        return {c.key: b for c, b in e.stages[0].at_peak() if c.key in ("weights", "gradients", "optimizer_states")}
    assert states(estimate(rebuilt)) == states(estimate(s)) and len(states(estimate(s))) == 3
    assert estimate(rebuilt).peak_reserved_bytes == estimate(s).peak_reserved_bytes


def test_accelerate_refuses_a_deepspeed_shard_group_it_cannot_state(tmp_path: Path) -> None:
    """accelerate's deepspeed_config keys (zero_stage, offload devices, accumulation) have no MiCS shard group, so a
    ZeRO-3 plan within groups of 4 would have been written as ZeRO-3 over all 8 GPUs, less memory than the plan's;
    the command says so in one sentence and writes nothing. The DeepSpeed export states it (mics_shard_size)."""
    data = {**BASE, "framework": "deepspeed", "zero_stage": 3, "dp_shard": 4}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    out = subprocess.run([sys.executable, "main.py", "export-config", str(path), "--to", "accelerate"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and "deepspeed_config_file" in out.stderr
    assert '"mics_shard_size": 4' in export_config(scenario_from_dict(data), "deepspeed")


def test_megatron_export_writes_the_layer_the_model_has():
    """Every model was written with Llama's flags (--swiglu, RMSNorm, RoPE, no biases), so NeMo's GPT-3 became a gated
    MLP (3 matrices, 50% more MLP weights) and Nemotron a SwiGLU model. GPT-3 keeps Megatron's GPT defaults (LayerNorm,
    GELU, learned positions, biases: presets/models/nemo-gpt3-5b.json's source); Nemotron-3 gets squared ReLU,
    LayerNorm1p and half rotary as Megatron-LM's own Nemotron-3 8B script spells them (d98e8a64
    examples/mamba/run_text_gen_server_8b_gpt3.sh lines 24-38); Llama's flags are unchanged; a hybrid Mamba-2 stack
    is refused in one sentence, as these flags would build a transformer."""
    def flags(model: str) -> set[str]:
        text = export_config(scenario_from_dict({**BASE, "model": model, "framework": "megatron"}), "megatron")
        return {line.strip().rstrip("\\").strip() for line in text.splitlines() if line.strip().startswith("--")}

    gpt3 = flags("nemo-gpt3-5b")
    assert {"--normalization LayerNorm", "--position-embedding-type learned_absolute"} <= gpt3
    assert not {"--swiglu", "--disable-bias-linear", "--group-query-attention"} & gpt3
    nemotron = flags("nemotron-3-8b")
    assert {"--squared-relu", "--apply-layernorm-1p", "--rotary-percent 0.5", "--position-embedding-type rope",
            "--disable-bias-linear", "--normalization LayerNorm"} <= nemotron and "--swiglu" not in nemotron
    llama = flags("llama-3.1-8b")
    assert {"--swiglu", "--normalization RMSNorm", "--position-embedding-type rope", "--disable-bias-linear",
            "--group-query-attention"} <= llama and not any(f.startswith("--rotary-percent") for f in llama)
    # any partial rotary, not Nemotron's alone: Phi-2's config.json partial_rotary_factor 0.4 and GLM-4.5-Air's 0.5
    # (presets/models/*.json) were exported as a full rotation (Megatron's default 1.0)
    assert "--rotary-percent 0.4" in flags("phi-2")
    assert "--rotary-percent 0.5" in flags("glm-4.5-air")
    with pytest.raises(ExportError) as info:
        flags("nemotron-3-nano-30b-a3b")
    assert "Mamba-2" in str(info.value) and str(info.value).endswith(".") and "\n" not in str(info.value)


def test_megatron_export_of_qwen2_biases_and_gemma():
    """Qwen2.5 has biases on q, k and v only (its config.json: attention_bias with model_type qwen2; transformers
    Qwen2Attention o_proj without one): Megatron-LM spells it --disable-bias-linear with --add-qkv-bias
    (TransformerConfig.add_qkv_bias, d98e8a64 transformer_config.py line 218), which the import reads back as a
    Qwen2-style model with the same weights. Gemma's GeGLU (tanh GELU) and sqrt(hidden) embedding scale have no
    Megatron-LM flag (argument_utils.py lines 314-327: --swiglu, --squared-relu, --quick-geglu; Megatron-Bridge's
    EmbeddingScalingMixin): refused in one sentence."""
    s = scenario_from_dict({**BASE, "model": "qwen2.5-7b", "framework": "megatron", "precision": "mixed-bf16"})
    text = export_config(s, "megatron")
    assert "--disable-bias-linear" in text and "--add-qkv-bias" in text
    back = import_texts([("args.sh", text)])
    assert not back.unmapped
    rebuilt = scenario_from_dict({**s.to_dict(), "model": back.scenario["model"]})
    assert estimate(rebuilt).trainable_params == estimate(s).trainable_params  # the q/k/v biases counted again
    assert "--add-qkv-bias" not in export_config(s.replace(model="llama-3.1-8b"), "megatron")
    for gemma in ("gemma-2-9b", "gemma-3-1b"):
        with pytest.raises(ExportError) as info:
            export_config(s.replace(model=gemma), "megatron")
        assert "GeGLU" in str(info.value) and str(info.value).endswith(".") and "\n" not in str(info.value)


@pytest.mark.parametrize("precision", ["fp8", "nvfp4"])
def test_an_fp8_or_nvfp4_plan_exports_bf16_where_the_format_has_no_fp8_setting(precision: str) -> None:
    """The weights and everything outside the fp8 / NVFP4 GEMMs stay in bf16 (the estimate counts them as mixed-bf16:
    bf16 weights and fp32 master weights), but the DeepSpeed and HF-style exports wrote fp32 (bf16 off), a config
    with twice the weights' memory; they now state bf16, read back as mixed-bf16 with the same states."""
    data = {**BASE, "precision": precision, "framework": "megatron", "gpu": "b200"}
    s = scenario_from_dict(data)
    ds = json.loads(export_config(s, "deepspeed"))
    assert ds["bf16"]["enabled"] and not ds["fp16"]["enabled"]
    # accelerate has fp8 mixed precision of its own (Transformer Engine / torchao), no fp4
    assert f"mixed_precision: {'fp8' if precision == 'fp8' else 'bf16'}" in export_config(s, "accelerate")
    assert "bf16: true" in export_config(s, "axolotl")
    back = import_texts([("ds_config.json", export_config(s, "deepspeed"))]).scenario
    assert back["precision"] == "mixed-bf16"


def test_accelerate_states_the_stage_a_distributed_optimizer_shards_at():
    """A Megatron plan with --use-distributed-optimizer shards as ZeRO-1 whatever zero_stage reads
    (Scenario.effective_zero; the DeepSpeed export already wrote that stage): accelerate's deepspeed_config wrote
    zero_stage 0."""
    s = scenario_from_dict({**BASE, "framework": "megatron", "distributed_optimizer": True, "tp": 2})
    assert s.zero_stage == 0 and s.effective_zero == 1
    assert "zero_stage: 1" in export_config(s, "accelerate")


def test_trl_accelerate_config_profiles_paths_and_unknown_names() -> None:
    """accelerate_config takes TRL's predefined profile names or a path (huggingface/trl 02fcdef docs/source/clis.md):
    a profile sets the sharding, a path is accelerate's own file to import beside it, anything else is named."""
    base = "model_name_or_path: Qwen/Qwen2.5-7B\nuse_vllm: true\nnum_generations: 8\naccelerate_config: "
    assert import_texts([("g.yaml", base + "fsdp2\n")]).scenario["fsdp_version"] == 2
    path = import_texts([("g.yaml", base + "./my_accel.yaml\n")])
    assert "zero_stage" not in path.scenario and any("my_accel.yaml" in str(u.why) for u in path.unmapped)
    unknown = import_texts([("g.yaml", base + "zero4\n")])
    assert any("predefined accelerate configs" in str(u.why) for u in unknown.unmapped)
