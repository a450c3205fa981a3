"""Importing real training configs (tests/data/configs/, copied from the frameworks' repositories: see each
folder's SOURCES). Every expected value below is read off the file it tests (the comment says which line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.configs import ConfigFileError, detect, import_files, import_texts

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "configs"

# (file, format, expected scenario values: each is what the file says, translated to planner words)
CASES = [
    # DeepSpeed: zero_optimization.stage / offload_*.device / fp16|bf16.enabled; "auto" batch = HF default 8
    ("deepspeed/accelerate_zero_stage1_config.json", "deepspeed",
     {"zero_stage": 1, "precision": "mixed-fp16", "optimizer": "adamw", "grad_accum": 1}),
    ("deepspeed/accelerate_zero_stage2_offload_config.json", "deepspeed",
     {"zero_stage": 2, "offload": "optimizer", "precision": "mixed-fp16"}),
    ("deepspeed/accelerate_zero_stage3_offload_config.json", "deepspeed",
     {"zero_stage": 3, "offload": "optimizer+params"}),
    ("deepspeed/axolotl_zero3_bf16_cpuoffload_params.json", "deepspeed",
     {"zero_stage": 3, "offload": "optimizer+params", "precision": "mixed-bf16"}),
    ("deepspeed/llamafactory_ds_z0_config.json", "deepspeed", {"zero_stage": 0}),
    ("deepspeed/llamafactory_ds_z2_offload_config.json", "deepspeed", {"zero_stage": 2, "offload": "optimizer"}),
    # accelerate: num_processes, mixed_precision, deepspeed_config.zero_stage, fsdp_config
    ("accelerate/trl_deepspeed_zero3.yaml", "accelerate",
     {"gpus_per_node": 8, "zero_stage": 3, "offload": "none", "precision": "mixed-bf16"}),
    ("accelerate/trl_deepspeed_zero2.yaml", "accelerate", {"gpus_per_node": 8, "zero_stage": 2}),
    # fsdp_version: 1 and 2 (trl_fsdp1.yaml line 17, trl_fsdp2.yaml line 14) say which FSDP wraps the model
    ("accelerate/trl_fsdp1.yaml", "accelerate",
     {"gpus_per_node": 8, "fsdp": True, "precision": "amp-bf16", "fsdp_version": 1}),
    ("accelerate/trl_fsdp2.yaml", "accelerate", {"gpus_per_node": 8, "fsdp": True, "offload": "none", "fsdp_version": 2}),
    ("accelerate/llamafactory_fsdp_config_offload.yaml", "accelerate",
     {"gpus_per_node": 2, "fsdp": True, "offload": "optimizer+params"}),
    ("accelerate/accelerate_multi_gpu.yaml", "accelerate", {"gpus_per_node": 2, "precision": "amp-bf16"}),
    # torchtune: model._component_, batch_size, gradient_accumulation_steps, dtype, enable_activation_checkpointing
    ("torchtune/llama3_8B_lora_single_device.yaml", "torchtune",
     {"model": "llama-3-8b", "method": "lora", "lora_rank": 8, "lora_alpha": 16, "micro_batch": 2, "grad_accum": 8,
      "precision": "bf16", "checkpointing": "full", "optimizer": "adamw-fused",
      "lora_targets": ["q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]}),
    ("torchtune/llama3_8B_qlora_single_device.yaml", "torchtune",
     {"model": "llama-3-8b", "method": "qlora", "qlora_bits": 4, "lora_rank": 8}),
    ("torchtune/llama3_8B_full.yaml", "torchtune",
     {"model": "llama-3-8b", "method": "full", "micro_batch": 2, "grad_accum": 1, "optimizer": "adamw-fused"}),
    ("torchtune/llama3_1_8B_full_single_device.yaml", "torchtune",
     {"model": "llama-3.1-8b", "optimizer": "adamw-8bit-paged", "checkpointing": "full"}),
    ("torchtune/llama3_2_1B_lora.yaml", "torchtune",
     {"model": "llama-3.2-1b", "lora_rank": 64, "lora_alpha": 128, "micro_batch": 4, "checkpointing": "none"}),
    ("torchtune/qwen2_5_1.5B_full_single_device.yaml", "torchtune", {"model": "qwen2.5-1.5b", "micro_batch": 4}),
    # axolotl: base_model, micro_batch_size, sequence_len, adapter, load_in_4bit, lora_r, optimizer
    ("axolotl/llama-3_qlora.yml", "axolotl",
     {"model": "llama-3-8b", "method": "qlora", "qlora_bits": 4, "lora_rank": 32, "micro_batch": 2, "grad_accum": 4,
      "seq_len": 4096, "lora_targets": "all-linear", "attention": "flash", "checkpointing": "full"}),
    ("axolotl/llama-3_lora-8b.yml", "axolotl",
     {"model": "llama-3-8b", "method": "qlora", "qlora_bits": 8, "optimizer": "adamw-8bit"}),
    ("axolotl/llama-3_fft-8b.yaml", "axolotl",
     {"model": "llama-3.1-8b", "method": "full", "seq_len": 8192, "grad_accum": 8, "optimizer": "adamw-8bit-paged"}),
    ("axolotl/llama-3_qlora-fsdp-70b.yaml", "axolotl",
     {"model": "llama-3-70b", "method": "qlora", "fsdp": True, "offload": "optimizer+params", "seq_len": 512}),
    ("axolotl/mistral_qlora.yml", "axolotl", {"model": "mistral-7b", "seq_len": 8192, "method": "qlora"}),
    ("axolotl/qwen2_adamw-pretrain-fsdp2.yaml", "axolotl",
     {"model": "qwen2.5-0.5b", "micro_batch": 4, "fsdp": True, "checkpointing": "none", "optimizer": "adamw-fused"}),
    # LLaMA-Factory: model_name_or_path, finetuning_type, lora_rank, lora_target, cutoff_len, quantization_bit
    ("llama-factory/qwen3_lora_sft.yaml", "llama-factory",
     {"model": "qwen3-4b", "method": "lora", "lora_rank": 8, "lora_targets": "all-linear", "seq_len": 2048,
      "micro_batch": 1, "grad_accum": 8, "precision": "bf16"}),
    ("llama-factory/qwen3_full_sft.yaml", "llama-factory",
     {"model": "qwen3-4b", "method": "full", "grad_accum": 2, "zero_stage": 3, "precision": "mixed-bf16"}),
    ("llama-factory/qwen3_lora_sft_otfq.yaml", "llama-factory", {"method": "qlora", "qlora_bits": 4}),
    ("llama-factory/fsdp_qlora_llama3_lora_sft.yaml", "llama-factory",
     {"model": "llama-3-8b", "method": "qlora", "qlora_bits": 4}),
    ("llama-factory/galore_llama3_full_sft.yaml", "llama-factory", {"method": "full", "precision": "bf16"}),
    # HF TrainingArguments / TRL (alignment-handbook recipes)
    ("hf-trainer/zephyr-7b-beta_sft_config_full.yaml", "huggingface",
     {"model": "mistral-7b", "micro_batch": 16, "seq_len": 2048, "checkpointing": "full", "precision": "bf16",
      "attention": "flash"}),
    ("hf-trainer/zephyr-7b-beta_sft_config_qlora.yaml", "huggingface",
     {"method": "qlora", "lora_rank": 16, "micro_batch": 4, "grad_accum": 2}),
    # ms-swift scripts
    ("ms-swift/lora_sft.sh", "ms-swift",
     {"model": "qwen2.5-7b", "method": "lora", "lora_rank": 8, "grad_accum": 16, "seq_len": 2048, "precision": "bf16"}),
    ("ms-swift/full_train.sh", "ms-swift", {"method": "full", "gpus_per_node": 1}),
    ("ms-swift/qlora_bnb_train.sh", "ms-swift", {"method": "qlora", "qlora_bits": 4, "qlora_double_quant": True}),
    ("ms-swift/deepspeed_train_zero3.sh", "ms-swift",
     {"gpus_per_node": 2, "zero_stage": 3, "grad_accum": 8, "precision": "mixed-bf16"}),
    # torchtitan TOML
    ("torchtitan/llama3_8b.toml", "torchtitan",
     {"model": "llama-3.1-8b", "micro_batch": 1, "seq_len": 8192, "fsdp": True, "optimizer": "adamw-fused"}),
    ("torchtitan/llama3_70b.toml", "torchtitan", {"model": "llama-3.1-70b", "tp": 8, "checkpointing": "full"}),
    ("torchtitan/qwen3_32b.toml", "torchtitan", {"model": "qwen3-32b", "seq_len": 4096, "micro_batch": 2}),
    # Megatron-LM scripts: GPUS_PER_NODE, --micro-batch-size, --global-batch-size / (mbs x dp)
    # (TP_SIZE=1 with --sequence-parallel: Megatron's validate_args switches it off at tensor-parallel size 1)
    # --grad-reduce-in-bf16 (line 128 of the script): a bf16 main_grad buffer; the shape (32 x 4096, ffn 14336, 8 query
    # groups, vocab 128256, 8192 positions) is Llama 3 8B's, LayerNorm-1p aside
    ("megatron/train_llama3_8b_h100_fp8.sh", "megatron",
     {"gpus_per_node": 8, "micro_batch": 1, "seq_len": 8192, "grad_accum": 16, "precision": "fp8",
      "distributed_optimizer": True, "sequence_parallel": None, "framework": "megatron", "optimizer": "adamw-fused",
      "main_grads_fp32": False, "model": "llama-3-8b"}),
    # --expert-model-parallel-size 8 with PP 4 needs 32 GPUs (4 nodes of GPUS_PER_NODE=8): --global-batch-size 256
    # over micro-batch 1 x 8 data-parallel ranks is 32 steps
    # --moe-grouped-gemm and --moe-token-dispatcher-type alltoall (lines 55-56)
    ("megatron/train_mixtral_8x7b_distributed.sh", "megatron",
     {"pp": 4, "ep": 8, "grad_accum": 32, "precision": "mixed-bf16", "tp": 1, "sequence_parallel": None,
      "moe_grouped_gemm": True, "moe_token_dispatcher_type": "alltoall"}),
    # USE_MEGATRON_FSDP=1 with SHARDING_STRATEGY optim_grads_params (lines 39-40, 112-117)
    ("megatron/train_llama3_8b_fsdp_h100_fp8.sh", "megatron", {"fsdp": True, "tp": 1, "sequence_parallel": None}),
    ("megatron/train_gpt3_175b_distributed.sh", "megatron", {"tp": 8, "pp": 16, "precision": "mixed-fp16"}),
    # axolotl: load_in_8bit LoRA (lora-8b.yml line 8) is LLM.int8, no double quantisation; sample_packing -> packed
    ("axolotl/llama-3_lora-8b.yml", "axolotl", {"qlora_bits": 8, "qlora_double_quant": False, "packing": "packed"}),
    # axolotl ALST (examples/alst): sequence_len 500_000 read as PyYAML's safe_load (axolotl's loader) reads it,
    # context_parallel_size 8, the CutCrossEntropyPlugin, activation_offloading legacy, fsdp_version 2
    ("axolotl/llama3-8b-fsdp2-alst.yaml", "axolotl",
     {"seq_len": 500000, "cp": 8, "cross_entropy": "fused-linear", "activation_offload": True, "fsdp": True,
      "checkpointing": "full", "optimizer": "adamw-8bit", "packing": "packed", "attention": "flash", "fsdp_version": 2}),
    # TRL: load_in_4bit without use_bnb_nested_quant (ModelConfig default false) -> no double quantisation
    ("hf-trainer/zephyr-7b-beta_sft_config_qlora.yaml", "huggingface", {"qlora_double_quant": False}),
    # alignment-handbook SmolLM3 recipes: packing: true (sft.yaml line 211), padding_free: true (apo.yaml line 58)
    ("hf-trainer/smollm3_sft.yaml", "huggingface", {"packing": "packed", "seq_len": 65536, "micro_batch": 1}),
    ("hf-trainer/smollm3_dpo_apo.yaml", "huggingface", {"packing": "padding-free", "seq_len": 24576}),
    # ms-swift examples/train/padding_free/sft.sh: --padding_free true, --attn_impl flash_attn
    ("ms-swift/padding_free_sft.sh", "ms-swift",
     {"packing": "padding-free", "attention": "flash", "micro_batch": 8, "seq_len": 8192, "zero_stage": 3}),
    # verl examples/grpo_trainer/run_qwen2-7b_seq_balance.sh: use_dynamic_bsz with ppo_max_token_len_per_gpu=24000 and
    # use_remove_padding -> padding-free micro-batches of at most 24,000 tokens; prompt 512 + response 1024 tokens; the
    # rank's mini-batch ppo_mini_batch_size 256 x rollout.n 5 // 8 GPUs = 160 sequences, which verl cuts by tokens, and
    # data.train_batch_size 1024 / 256 = 4 such mini-batches a step, as the export writes a budget plan's grad_accum
    # (engine/configs/verl_batch.py read_dynamic_batch, batch_args)
    ("verl/run_qwen2-7b_seq_balance.sh", "verl",
     {"packing": "padding-free", "max_tokens_per_micro_batch": 24000, "seq_len": 1536, "fsdp": True,
      "checkpointing": "full", "offload": "none", "gpus_per_node": 8, "precision": "amp-bf16", "micro_batch": 160,
      "grad_accum": 4}),
    # torchtune distributed recipes (usage comment: "tune run --nproc_per_node ... *_distributed") shard with FSDP2;
    # LoRA adapters are built in the model dtype; fsdp_cpu_offload: True offloads (70B_full.yaml line 84)
    ("torchtune/llama3_2_1B_lora.yaml", "torchtune", {"fsdp": True, "lora_adapter_dtype": "compute"}),
    ("torchtune/llama3_8B_full.yaml", "torchtune", {"fsdp": True}),
    ("torchtune/llama3_70B_full.yaml", "torchtune", {"fsdp": True, "offload": "optimizer+params"}),
    ("torchtune/llama3_8B_lora_single_device.yaml", "torchtune", {"fsdp": None, "lora_adapter_dtype": "compute"}),
    # torchtitan: tensor_parallel_degree 8 -> sequence parallel (apply_tp); expert_parallel_degree 8 -> ep
    ("torchtitan/llama3_70b.toml", "torchtitan", {"sequence_parallel": True}),
    ("torchtitan/deepseek_v3_16b.toml", "torchtitan",
     {"model": "deepseek-v2-lite", "ep": 8, "micro_batch": 8, "seq_len": 4096, "fsdp": True, "gpus_per_node": None}),
]


@pytest.mark.parametrize(("path", "fmt", "expected"), CASES, ids=[c[0] for c in CASES])
def test_real_config_maps_its_fields(path: str, fmt: str, expected: dict) -> None:
    result = import_files([DATA / path])
    assert result.formats == (fmt,)
    for key, value in expected.items():  # None: the import leaves the key out
        assert result.scenario.get(key) == value, (key, result.scenario.get(key), value)
        if key in {m.key for m in result.mapped}:
            assert any(m.source.startswith(Path(path).name) for m in result.mapped if m.key == key)


def test_collection_has_enough_real_files() -> None:
    files = [p for p in DATA.rglob("*") if p.is_file() and p.name != "SOURCES"]
    assert len(files) >= 30
    for fmt in ("deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory"):
        assert len([p for p in files if p.parent.name == fmt]) >= 5, fmt
    for folder in {p.parent for p in files}:
        sources = (folder / "SOURCES").read_text(encoding="utf-8")
        for p in folder.iterdir():
            if p.name != "SOURCES" and p.is_file():  # a sub-folder (a file's relative reference) has its own
                line = next(ln for ln in sources.splitlines() if ln.startswith(p.name + " |"))
                repo, path, commit, licence = (x.strip() for x in line.split("|")[1:])
                assert repo.startswith("https://github.com/") and len(commit) == 40 and licence


def test_every_real_file_imports_and_accounts_for_each_setting() -> None:
    for path in DATA.rglob("*"):
        if not path.is_file() or path.name == "SOURCES":
            continue
        result = import_files([path])
        listed = {m.source for m in result.mapped} | {u.key for u in result.unmapped}
        assert listed, path
        for u in result.unmapped:
            assert str(u.why), (path, u.key)
        json.dumps(result.to_json())  # the CLI's --json answer is plain JSON


def test_several_files_merge_into_one_job() -> None:
    # LLaMA-Factory YAML names examples/deepspeed/ds_z3_config.json; given together, the DeepSpeed file supplies
    # the stage and the YAML the batch (its "auto" values are filled from the YAML, as HF's integration does)
    result = import_files([DATA / "llama-factory/qwen3_lora_sft_ds3.yaml",
                           DATA / "deepspeed/llamafactory_ds_z3_config.json"])
    s = result.scenario
    assert (s["zero_stage"], s["micro_batch"], s["grad_accum"], s["method"]) == (3, 1, 2, "lora")
    assert s["precision"] == "mixed-bf16"  # bf16: true in the YAML, "auto" in the JSON -> DeepSpeed bf16
    sources = {m.key: m.source for m in result.mapped}
    assert sources["zero_stage"].startswith("llamafactory_ds_z3_config.json")
    assert sources["micro_batch"].startswith("qwen3_lora_sft_ds3.yaml")


def test_impossible_value_is_rejected_with_the_planners_sentence() -> None:
    # (The Mixtral script's EP 8 used to be the example; it is read as 4 nodes now, as Megatron needs.) Trainer
    # arguments with a sequence longer than the scenario allows (100,000,000 tokens):
    text = "output_dir: out\nper_device_train_batch_size: 2\nmax_length: 500000000\n"
    result = import_texts([("sft.yaml", text)])
    assert "seq_len" not in result.scenario and result.scenario["micro_batch"] == 2
    assert any(u.key.endswith("max_length") and "rejected" in str(u.why) for u in result.unmapped)


def test_gpu_counts_no_file_states_stay_as_the_set_up_has_them() -> None:
    """Issue 24: importing never changes what the files do not state. torchtitan's data_parallel_shard_degree -1
    takes what torchrun starts: the scenario gets no GPU count, the set-up's is kept (raised only where the files'
    layout needs more: EP 8 needs 8 GPUs); the Megatron GPT-3 script states GPUS_PER_NODE=8 but TP 8 x PP 16 = 128
    GPUs: its nodes are listed as assumed (16) and the set-up is raised to them."""
    from engine.configs import counts_for_import

    titan = import_files([DATA / "torchtitan/deepseek_v3_16b.toml"])
    assert "gpus_per_node" not in titan.scenario and "nodes" not in titan.scenario
    assert counts_for_import(titan.scenario, {"gpus_per_node": 16, "nodes": 2}) == (
        {"gpus_per_node": 16, "nodes": 2}, False)
    assert counts_for_import(titan.scenario, {"gpus_per_node": 4, "nodes": 1}) == (
        {"gpus_per_node": 8, "nodes": 1}, True)
    gpt3 = import_files([DATA / "megatron/train_gpt3_175b_distributed.sh"])
    assert gpt3.scenario["gpus_per_node"] == 8 and "nodes" not in gpt3.scenario
    assert any(a.key == "nodes" and a.value == 16 for a in gpt3.assumed)
    assert counts_for_import(gpt3.scenario, {"gpus_per_node": 1, "nodes": 1}) == ({"gpus_per_node": 8, "nodes": 16}, True)


def test_auto_values_without_trainer_args_are_assumed() -> None:
    result = import_files([DATA / "deepspeed/llamafactory_ds_z3_config.json"])
    assumed = {a.key: a for a in result.assumed}
    assert assumed["micro_batch"].value == 8 and "auto" in str(assumed["micro_batch"].why)  # TrainingArguments default
    assert "micro_batch" not in {m.key for m in result.mapped}


def test_unknown_hub_id_is_unmapped_with_the_id() -> None:
    result = import_files([DATA / "hf-trainer/smollm2_sft_config.yaml"])
    assert "model" not in result.scenario
    assert any("HuggingFaceTB/SmolLM2-1.7B" in str(u.why) for u in result.unmapped)


def test_framework_options_are_listed_not_dropped() -> None:
    from engine.scenario import DEFAULTS

    result = import_files([DATA / "torchtune/mistral_7B_full_low_memory.yaml"])
    keys = ("optimizer_in_backward", "activation_offload")
    for key in keys:
        if key in DEFAULTS:
            assert result.scenario[key] is True
        else:
            assert any(key in str(u.why) and "not modelled yet" in str(u.why) for u in result.unmapped)


@pytest.mark.parametrize(("name", "content", "words"), [
    ("big.yaml", b"a: 1\n" + b"#" * (1024 * 1024 + 10), "larger than 1 MB"),
    ("bin.json", b"\x00\x01\x02PK\x03\x04", "binary"),
    ("latin.yaml", "é: 1".encode("latin-1"), "not UTF-8"),
    ("deep.json", b"[" * 5000 + b"]" * 5000, "nested"),
    ("deep.yaml", b"a: " + b"[" * 5000 + b"]" * 5000, "nested"),
    ("bomb.yaml", (b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                   b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                   b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                   b"g: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"), "expands"),
    ("python.yaml", b"x: !!python/object/apply:os.system ['echo hacked']\n", "not valid YAML"),
    ("broken.json", b'{"zero_optimization": {"stage": 3,}', "not valid JSON"),
    ("list.yaml", b"- 1\n- 2\n", "named settings"),
    ("other.yaml", b"foo: 1\nbar: 2\n", "not a training config"),
    ("types.json", b'{"zero_optimization": "three", "train_micro_batch_size_per_gpu": [1]}', None),
    ("tt.yaml", b"model:\n  _component_: 5\nbatch_size: {a: 1}\n", None),
    ("titan.toml", b"[model]\nflavor = [1]\n[training]\nlocal_batch_size = 'x'\n", None),
    ("zero.sh", b"torchrun --nproc_per_node 0 pretrain_gpt.py --tensor-model-parallel-size 0 --global-batch-size 8\n", None),
])
def test_hostile_files_get_one_sentence(name: str, content: bytes, words: str | None) -> None:
    try:
        result = import_texts([(name, content)])
    except ConfigFileError as exc:
        text = str(exc)
        assert name in text and "\n" not in text and text.endswith(".")
        if words:
            assert words in text
        return
    assert words is None, "should have been refused"
    for u in result.unmapped:  # a wrong type is reported against its key, not crashed on
        assert str(u.why)


def test_file_too_big_on_disk_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "huge.yaml"
    big.write_bytes(b"a: 1\n" * 300_000)
    with pytest.raises(ConfigFileError, match="larger than 1 MB"):
        import_files([big])


def test_detect_names_each_format() -> None:
    assert detect("x.toml", (DATA / "torchtitan/llama3_8b.toml").read_text())[0] == "torchtitan"
    assert detect("x.sh", (DATA / "megatron/train_llama3_8b_h100_fp8.sh").read_text())[0] == "megatron"


def test_cli_import_json(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "import", str(DATA / "axolotl/llama-3_qlora.yml"),
                          "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"scenario", "mapped", "unmapped", "assumed"}
    assert data["scenario"]["model"] == "llama-3-8b"
    bad = tmp_path / "x.yaml"
    bad.write_bytes(b"\x00\x00")
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "import", str(bad)], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "binary" in out.stderr


def test_hub_id_found_in_the_local_cache_becomes_that_model(empty_model_cache: Path) -> None:
    """A Hub id that is no preset but sits in the Hugging Face cache takes its config.json from there (issue 14)."""
    config = json.loads((ROOT / "presets" / "models" / "llama-3.2-1b.json").read_text(encoding="utf-8"))["hf_config"]
    snapshot = empty_model_cache / "hf_hub_cache" / "models--acme--tiny-llama" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps(config), encoding="utf-8")
    result = import_texts([("train.yaml", "base_model: acme/tiny-llama\nmicro_batch_size: 2\nsequence_len: 1024\n")])
    assert result.scenario["model"] == {"name": "acme/tiny-llama", "hf_config": config}
    assert result.scenario["micro_batch"] == 2
    unknown = import_texts([("train.yaml", "base_model: acme/not-here\nmicro_batch_size: 2\n")])
    assert "model" not in unknown.scenario or unknown.scenario["model"] != {"name": "acme/not-here"}


def test_a_huge_rejected_value_is_shown_cut_short(tmp_path) -> None:
    """A hostile config's 309-digit batch size is named and refused, not printed in full (issue 15)."""
    from engine.configs import import_files

    path = tmp_path / "ds_config.json"
    path.write_text('{"train_micro_batch_size_per_gpu": 1e308, "zero_optimization": {"stage": 2}}')
    result = import_files([str(path)])
    why = " ".join(str(u.why) for u in result.unmapped)
    assert "rejected" in why and "…" in why and len(why) < 400


def test_liger_kernels_are_read_where_the_frameworks_switch_them_on() -> None:
    # axolotl's example (lines 12-16): liger_rope, liger_rms_norm, liger_glu_activation, liger_fused_linear_cross_entropy
    result = import_files([DATA / "axolotl/llama-3_3b-fp8-fsdp2.yaml"])
    assert result.scenario["liger_kernels"] is True and result.scenario["cross_entropy"] == "fused-linear"
    # transformers TrainingArguments use_liger_kernel applies every Liger kernel of the model's family
    args = import_texts([("args.json", json.dumps({"per_device_train_batch_size": 2, "use_liger_kernel": True,
                                                    "bf16": True}))])
    assert args.scenario["liger_kernels"] is True and args.scenario["cross_entropy"] == "fused-linear"


def test_axolotl_alst_job_reads_its_paired_deepspeed_file() -> None:
    """axolotl examples/alst/llama3-8b-deepspeed-alst.yaml names deepspeed_configs/zero3_bf16_cpuoffload_all.json
    (stored next to it under that relative path): ZeRO-3 with optimizer and parameters offloaded to CPU, read from
    the DeepSpeed file; the long-sequence settings from the axolotl file; tiled_mlp is listed, not dropped."""
    result = import_files([DATA / "axolotl/llama3-8b-deepspeed-alst.yaml"])
    assert result.formats == ("axolotl", "deepspeed")
    sc = result.scenario
    assert (sc["zero_stage"], sc["offload"], sc["seq_len"], sc["cp"]) == (3, "optimizer+params", 500000, 8)
    assert sc["cross_entropy"] == "fused-linear" and sc["activation_offload"] is True
    assert any(u.key.endswith("tiled_mlp") and "tile" in str(u.why) for u in result.unmapped)


def test_a_megatron_moe_script_without_grouped_gemm_runs_the_experts_one_by_one(tmp_path):
    """Megatron-LM's --moe-grouped-gemm is a store_true flag (megatron/training/arguments.py), so a script without it
    runs SequentialMLP: the import says so as an assumption (FlagPerf's Qwen1.5-MoE script is such a case)."""
    text = (DATA / "megatron/train_mixtral_8x7b_distributed.sh").read_text().replace("--moe-grouped-gemm", "")
    script = tmp_path / "mixtral_no_grouped.sh"
    script.write_text(text)
    result = import_files([script])
    assert result.scenario["moe_grouped_gemm"] is False
    assert any(a.key == "moe_grouped_gemm" and "SequentialMLP" in str(a.why) for a in result.assumed)


def test_a_colocated_engine_split_over_gpus_raises_the_gpu_count_it_needs() -> None:
    """A TRL GRPO config as its docs write one for a large model (docs/source/vllm_integration.md: vllm_mode colocate,
    vllm_tensor_parallel_size 8 over the 8 training GPUs): no file states the GPU count, so the set-up's is raised
    to the 8 the engine's split needs. It was dropped as "must divide the 1 training GPUs" (the default 1)."""
    from engine.configs import counts_for_import

    text = ("model_name_or_path: Qwen/Qwen2.5-32B-Instruct\ntorch_dtype: bfloat16\nuse_vllm: true\nvllm_mode: colocate\n"
            "vllm_gpu_memory_utilization: 0.3\nvllm_tensor_parallel_size: 8\nnum_generations: 8\n"
            "per_device_train_batch_size: 4\nmax_prompt_length: 512\nmax_completion_length: 2048\n")
    result = import_texts([("grpo.yaml", text)])
    assert result.scenario["rollout_tp"] == 8
    assert not any(u.key.endswith("vllm_tensor_parallel_size") for u in result.unmapped)
    assert any(a.key == "gpus_per_node" and a.value == 8 for a in result.assumed)
    assert counts_for_import(result.scenario, {"gpus_per_node": 1, "nodes": 1}) == (
        {"gpus_per_node": 8, "nodes": 1}, True)
    # an engine on GPUs of its own does not split the trainer's
    apart = import_texts([("grpo.yaml", text.replace("vllm_mode: colocate", "vllm_mode: server"))])
    assert counts_for_import({**apart.scenario, "rollout_placement": "separate"}, {"gpus_per_node": 1, "nodes": 1})[0][
        "gpus_per_node"] == 1
