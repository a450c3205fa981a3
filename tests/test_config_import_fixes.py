"""Real configs (tests/data/configs/*/SOURCES names each file's repository, path and commit) that used to be refused,
misread or changed on the way back: each test says which line of the file gives the expected value."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.configs import ExportError, export_config, import_files, import_texts
from engine.configs.deepspeed_launcher import launcher_counts
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

DATA = Path(__file__).resolve().parent / "data" / "configs"
GIB = 2**30


def _not_read(result, key: str) -> bool:
    return any(u.key.endswith(": " + key) for u in result.unmapped)


def _estimated(result):
    counts = {a.key: a.value for a in result.assumed if a.key in ("gpus_per_node", "nodes")}
    return estimate(scenario_from_dict({**counts, **result.scenario}))


def test_ms_swift_megatron_lora_235b_is_a_megatron_job_that_fits_its_gpus() -> None:
    # `megatron sft` (line 8) with --tensor_model_parallel_size 4, --expert_tensor_parallel_size 1,
    # --expert_model_parallel_size 8 (lines 20-22), --micro_batch_size 8 and --global_batch_size 16 (lines 26-27) on
    # NPROC_PER_NODE=8 (line 6): TP 4 x DP 2 dense, ETP 1 x EP 8 experts, 16 / (8 x 2) = 1 micro-batch a step
    result = import_files([DATA / "ms-swift/megatron_qwen3_235b.sh"])
    s = result.scenario
    assert s["framework"] == "megatron"  # the row that holds ms-swift's Megatron facts (LoRA on experts)
    assert (s["tp"], s["ep"], s["etp"], s["gpus_per_node"]) == (4, 8, 1, 8)
    assert (s["micro_batch"], s["grad_accum"], s["seq_len"]) == (8, 1, 2048)
    assert (s["method"], s["lora_rank"], s["lora_alpha"], s["lora_targets"]) == ("lora", 8, 32, "all-linear")
    assert s["sequence_parallel"] is True and s["checkpointing"] == "full"
    assert s["model"] == "qwen3-235b-a22b"
    # ms-swift's default use_distributed_optimizer True (megatron_args.py line 587), stated as an assumption
    assert s["distributed_optimizer"] is True
    assert any(a.key == "distributed_optimizer" for a in result.assumed)
    for key in ("tensor_model_parallel_size", "expert_tensor_parallel_size", "global_batch_size", "tuner_type"):
        assert not _not_read(result, key), key
    # the file's "8 * 80GiB" (line 1): read as a Hugging Face job it was 886 GiB a GPU
    assert _estimated(result).fits


def test_ms_swift_megatron_scripts_that_were_refused_are_read() -> None:
    # moe/qwen3_moe.sh: --pipeline_model_parallel_size 2, --expert_model_parallel_size 8 (lines 15-16), no GPU count
    # (NNODES=$WORLD_SIZE): the least the layout needs, 16 GPUs, the file's "16 * 60GiB" (line 2)
    result = import_files([DATA / "ms-swift/megatron_qwen3_moe.sh"])
    s = result.scenario
    assert (s["framework"], s["pp"], s["ep"], s["model"], s["method"]) == ("megatron", 2, 8, "qwen3-30b-a3b", "full")
    assert {a.key: a.value for a in result.assumed}["gpus_per_node"] == 16
    assert s["grad_accum"] == 2  # --global_batch_size 16 over micro-batch 1 x DP 8 (16 GPUs / PP 2)
    assert s["packing"] == "packed"  # --packing true (line 23)
    # dense/72b_offload.sh: TP 8 (line 12), the optimizer on the CPU (--optimizer_cpu_offload true,
    # --optimizer_offload_fraction 1, lines 31-33)
    s = import_files([DATA / "ms-swift/megatron_72b_offload.sh"]).scenario
    assert (s["framework"], s["tp"], s["gpus_per_node"], s["grad_accum"]) == ("megatron", 8, 8, 16)
    assert (s["offload"], s["optimizer_offload_fraction"]) == ("optimizer", 1.0)
    # a Megatron-LM script whose comment mentions `megatron sft` stays a Megatron-LM script
    text = "# compare with: megatron sft --model x\npython pretrain_gpt.py --tensor-model-parallel-size 2\n"
    assert import_texts([("run.sh", text)]).scenario["tp"] == 2


def test_alignment_handbook_orpo_recipe_is_orpo_not_dpo() -> None:
    # "# ORPOTrainer arguments" (line 13) heads beta and max_prompt_length, DPO-like keys: ORPO loads no reference
    # model (trl ORPOTrainer; engine/posttraining/settings.py REFERENCE_FREE)
    result = import_files([DATA / "trl/zephyr-141b_orpo_config_full.yaml"])
    assert result.scenario["training_objective"] == "orpo"
    # the DPO recipes of the same repository say "# DPOTrainer arguments" and stay DPO
    text = (DATA / "trl/zephyr-141b_orpo_config_full.yaml").read_text().replace("ORPOTrainer", "DPOTrainer")
    assert import_texts([("dpo.yaml", text)]).scenario["training_objective"] == "dpo"


def test_axolotl_dp_shard_size_is_the_shard_group_and_says_the_world() -> None:
    # dp_shard_size: 4, dp_replicate_size: 2, tensor_parallel_size: 2 (lines 6-8): FSDP within groups of 4, DDP over
    # 2 of them (examples/distributed-parallel/README.md "FSDP within each 4-GPU group"), on 4 x 2 x 2 = 16 GPUs
    result = import_files([DATA / "axolotl/llama-3_1-8b-hsdp-tp.yaml"])
    assert (result.scenario["dp_shard"], result.scenario["tp"]) == (4, 2)
    assert {a.key: a.value for a in result.assumed}["gpus_per_node"] == 16
    assert not _not_read(result, "dp_shard_size") and not _not_read(result, "dp_replicate_size")
    _estimated(result)


def test_llamafactory_fp8_is_the_precision_with_its_backends_recipe() -> None:
    # fp8: true, fp8_backend: torchao (lines 39-40): accelerate's fp8 with torchao's rowwise Float8LinearConfig
    # (LLaMA-Factory ff6d4d1 src/llamafactory/train/fp8_utils.py create_fp8_kwargs)
    result = import_files([DATA / "llama-factory/llama3_fp8_fsdp_sft.yaml"])
    assert (result.scenario["precision"], result.scenario["fp8_recipe"]) == ("fp8", "rowwise")
    assert not _not_read(result, "fp8") and not _not_read(result, "fp8_backend")
    text = (DATA / "llama-factory/llama3_fp8_fsdp_sft.yaml").read_text()
    te = import_texts([("lf.yaml", text.replace("fp8_backend: torchao", "fp8_backend: te"))]).scenario
    assert te["fp8_recipe"] == "delayed"  # FP8RecipeKwargs(backend="TE", fp8_format="HYBRID", amax_history_len=16)


def test_torchtitan_expert_tensor_parallel_degree_and_float8_sections_without_the_converter() -> None:
    # expert_tensor_parallel_degree = 1 (deepseek_v3_671b.toml line 53): read as the experts' TP
    result = import_files([DATA / "torchtitan/deepseek_v3_671b.toml"])
    assert result.scenario["etp"] == 1 and not _not_read(result, "parallelism.expert_tensor_parallel_degree")
    # [float8] (deepseek_v3_16b.toml lines 71-75) with its converter commented out (line 24): no fp8, and its keys
    # are not listed as settings the planner left out
    result = import_files([DATA / "torchtitan/deepseek_v3_16b.toml"])
    assert result.scenario["precision"] != "fp8"
    assert not any("float8." in u.key for u in result.unmapped)


def test_round_trips_keep_the_loss_the_shard_degree_and_the_accumulation() -> None:
    # torchtune: loss LinearCrossEntropyLoss (llama3_3_70B_full_multinode.yaml line 67), the chunked output projection
    # + CE (engine/configs/torchtune.py _LOSSES), was dropped by the export: it is written as torchtune's chunked loss
    result = import_files([DATA / "torchtune/llama3_3_70B_full_multinode.yaml"])
    assert result.scenario["cross_entropy"] == "chunked"
    text = export_config(scenario_from_dict({**result.scenario, "gpus_per_node": 8}), "torchtune")
    assert "_component_: torchtune.modules.loss.CEWithChunkedOutputLoss" in text
    assert import_texts([("torchtune.yaml", text)]).scenario["cross_entropy"] == "chunked"
    # torchtitan: data_parallel_shard_degree = -1 (llama3_8b.toml) is written back as -1 (torchtitan shards over
    # every rank the other degrees leave, config/job_config.py), not the 1 of a one-GPU plan; the launch comment
    # gives the world back, so the accumulation is read again
    result = import_files([DATA / "torchtitan/llama3_8b.toml"])
    text = export_config(scenario_from_dict({**result.scenario, "gpus_per_node": 8, "grad_accum": 2}), "torchtitan")
    assert "data_parallel_shard_degree = -1\n" in text
    back = import_texts([("torchtitan.toml", text)]).scenario
    assert (back["gpus_per_node"], back["grad_accum"], back["fsdp"]) == (8, 2, True)


def test_openrlhf_global_batch_is_the_accumulation_where_the_gpus_are_stated() -> None:
    # --actor_num_gpus_per_node 2 (line 20), --micro_train_batch_size 8, --train_batch_size 128 (lines 27-28):
    # 128 / (8 x 2) = 8 micro-batches a step (openrlhf/utils/deepspeed/deepspeed.py accumulated_gradient)
    result = import_files([DATA / "openrlhf/train_ppo_with_reward_fn.sh"])
    assert result.scenario["grad_accum"] == 8
    # train_sft under the deepspeed launcher states no GPU count: the review says why, not "not read"
    result = import_files([DATA / "openrlhf/train_sft_mixtral_lora.sh"])
    assert "grad_accum" not in result.scenario
    assert any(u.key.endswith(": train_batch_size") and "every GPU of the node" in str(u.why) for u in result.unmapped)


def test_openrlhf_under_the_deepspeed_launcher_takes_its_gpu_count() -> None:
    # A launch written for this test in the form of OpenRLHF's examples/scripts/train_sft_llama.sh, with the launcher
    # and batch flags of a public run whose licence is not stated (xiusic/Rubric-RM@1ed5c4b4 rubric_rm/OpenRLHF/
    # run_baselines/2sft_math18k_code_2_5k_skyfiltered_qwen14b.sh): `deepspeed --include localhost:0,1,2,3,4,5,6,7`,
    # 8 GPUs on one node (deepspeed/launcher/runner.py NODE_SPEC=NAME:SLOT,...); --train_batch_size 128,
    # --micro_train_batch_size 1: 128 / (1 x 8) = 16
    result = import_files([DATA.parent / "written_configs/openrlhf_sft_deepspeed_include.sh"])
    s = result.scenario
    assert (s["gpus_per_node"], s["nodes"], s["grad_accum"]) == (8, 1, 16)
    assert not _not_read(result, "include")
    # runner.py's own examples: --num_gpus N per node, localhost only without a hostfile; "worker-0@worker-1:0,2"
    # names two hosts but not how many GPUs worker-0 gives
    assert launcher_counts({"num_gpus": "4"}) == (4, 1, "num_gpus")
    assert launcher_counts({"num_gpus": "4", "hostfile": "hosts"}) == (4, None, "num_gpus")
    assert launcher_counts({"include": "worker-0@worker-1:0,2"}) == (None, 2, "include")
    assert launcher_counts({}) == (None, None, None)


def test_bitsandbytes_paged_optimizers_say_where_their_states_live() -> None:
    # bitsandbytes.optim.PagedAdamW8bit (llama3_1_8B_full_single_device.yaml line 60): the planner's paged 8-bit AdamW,
    # states in unified memory outside PyTorch's allocator (engine/memory/model_states.py)
    result = import_files([DATA / "torchtune/llama3_1_8B_full_single_device.yaml"])
    assert result.scenario["optimizer"] == "adamw-8bit-paged"
    text = export_config(scenario_from_dict({**result.scenario}), "torchtune")
    assert "bitsandbytes.optim.PagedAdamW8bit" in text
    # bitsandbytes.optim.PagedAdamW (phi4_14B_full_low_memory.yaml line 65): 32-bit paged, which the planner cannot
    # page: AdamW on the GPU, and the review says so in one sentence
    result = import_files([DATA / "torchtune/phi4_14B_full_low_memory.yaml"])
    why = {a.key: str(a.why) for a in result.assumed}
    assert result.scenario["optimizer"] == "adamw" and "unified memory" in why["optimizer"]


def test_ms_swift_megatron_yaml_is_a_megatron_job_like_its_scripts() -> None:
    # examples/yaml/megatron/sft.yaml: micro_batch_size / global_batch_size / expert_model_parallel_size are
    # `megatron sft` arguments (was read as a `swift sft` Hugging Face job); tuner_type lora, lora_rank 8 (lines
    # 10-11), micro 1 / global 4 (lines 38-39), recompute full (line 62), packing (line 29); sft.sh gives
    # NPROC_PER_NODE=4: 4 data-parallel ranks x micro 1 = the global 4, one micro-batch a step
    result = import_files([DATA / "ms-swift/megatron_yaml_sft.sh", DATA / "ms-swift/megatron_yaml_sft.yaml"])
    s = result.scenario
    assert (s["framework"], s["method"], s["lora_rank"], s["micro_batch"]) == ("megatron", "lora", 8, 1)
    assert (s["gpus_per_node"], s["grad_accum"], s["checkpointing"], s["packing"]) == (4, 1, "full", "packed")
    assert not _not_read(result, "ENV")


def test_ms_swift_megatron_export_refuses_lora_targets_it_cannot_name() -> None:
    # ms-swift's Megatron LoRA targets Megatron-Core's fused modules (linear_qkv holds q, k and v), so peft's
    # q_proj + v_proj default has no spelling there
    s = scenario_from_dict({"model": "llama-3.1-8b", "framework": "megatron", "method": "lora"})
    with pytest.raises(ExportError):
        export_config(s, "ms-swift-megatron")


def test_verl_megatron_actor_offloads_say_why_they_are_not_counted() -> None:
    # run_qwen3moe-30b_megatron_96gb.sh lines 123-131: the verl-megatron row (engine/frameworks/verl_megatron.py) counts
    # actor.megatron.optimizer_offload as the scenario's offload between phases (verl megatron_workers.py update_actor
    # loads it back); param_offload (weights the planner offloads only under ZeRO-3 / FSDP), grad_offload (read, not
    # used by verl) and Megatron's hybrid CPU optimizer (override_optimizer_config) are listed, each with why
    result = import_files([DATA / "verl/run_qwen3moe-30b_megatron_96gb.sh"])
    assert (result.scenario["framework"], result.scenario["offload"]) == ("verl-megatron", "optimizer")
    why = {u.key.split(": ")[-1]: str(u.why) for u in result.unmapped}
    assert "between phases" in why["actor_rollout_ref.actor.megatron.param_offload"]
    assert "does not use it" in why["actor_rollout_ref.actor.megatron.grad_offload"]
    assert "hybrid CPU optimizer" in why["actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload"]
