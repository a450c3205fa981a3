"""Config-import gaps closed in issue 23's follow-up (branch h-importgaps): OpenRLHF's optimizer, ms-swift's argument
file, verl's Megatron actor. The fixtures are real public files under tests/data/configs/ (each folder's SOURCES names
the repository, path and commit); every expected value is what the file says, or the framework's code at the cited
commit builds, translated to the planner's keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.configs import import_files, import_texts
from engine.frameworks.defaults import defaults_for
from engine.posttraining.settings import rl_settings
from engine.scenario.optimizer_used import optimizer_used

DATA = Path(__file__).resolve().parent / "data" / "configs"


def _why(result, key: str) -> str:
    return next(str(u.why) for u in result.unmapped if u.key.split(": ")[-1] == key)


@pytest.mark.parametrize("name", ["train_dpo_llama.sh", "train_sft_mixtral_lora.sh", "train_ppo_ray_hybrid_engine.sh",
                                  "train_ppo_ray_hybrid_engine_flat_flags.sh"])
def test_openrlhf_builds_fusedadam_on_the_gpu(name):
    # no --optim: "adam", the default (OpenRLHF 3c3be6234e0c cli/train_sft.py line 223), a config AdamW that DeepSpeed
    # builds as FusedAdam without --ds.adam_offload (deepspeed.py lines 358-366, deepspeed_utils.py lines 25-26);
    # 76351db deepspeed.py line 142: DeepSpeedCPUAdam if adam_offload else FusedAdam
    result = import_files([DATA / "openrlhf" / name])
    assert result.scenario["optimizer"] == "adamw-fused"
    assert "FusedAdam" in str(next(a.why for a in result.assumed if a.key == "optimizer"))


def test_openrlhf_adam_offload_steps_deepspeeds_cpu_adam():
    # train_ppo_with_reward_fn.sh line 45 --adam_offload: DeepSpeedCPUAdam, the optimizer states on the CPU
    result = import_files([DATA / "openrlhf/train_ppo_with_reward_fn.sh"])
    assert (result.scenario["optimizer"], result.scenario["offload"]) == ("adamw", "optimizer")


def test_openrlhf_optimizer_flags_are_read_and_muon_is_listed():
    adam = import_texts([("sft.sh", "deepspeed --module openrlhf.cli.train_sft --optim adam --adam.betas 0.9 0.95 "
                                    "--adam.weight_decay 0.1 --pretrain Qwen/Qwen2.5-7B")])
    assert adam.scenario["optimizer"] == "adamw-fused"
    assert not any("adam." in u.key for u in adam.unmapped)  # hyper-parameters: read, no memory of their own
    muon = import_texts([("ppo.sh", "python3 -m openrlhf.cli.train_ppo_ray --actor.optim muon")])
    assert "optimizer" not in muon.scenario and "muon" in _why(muon, "actor.optim")


def test_an_openrlhf_critic_optimizer_other_than_adam_is_listed():
    # train_ppo_ray.py (3c3be6234e0c line 448) --critic.optim: the critic's states are counted as the actor's
    # optimizer's (engine/posttraining/models.py), so a Muon critic is not modelled; Adam is read
    cmd = "python3 -m openrlhf.cli.train_ppo_ray --actor.optim adam --critic.optim {}"
    muon = import_texts([("ppo.sh", cmd.format("muon"))])
    assert muon.scenario["optimizer"] == "adamw-fused" and "muon" in _why(muon, "critic.optim")
    adam = import_texts([("ppo.sh", cmd.format("adam"))])
    assert not any(u.key.split(": ")[-1] == "critic.optim" for u in adam.unmapped)


def test_openrlhf_auto_is_its_fusedadam():
    s = scenario_from_dict({"model": "llama-3-8b", "framework": "openrlhf", "optimizer": "auto"})
    assert optimizer_used(s) == "adamw-fused"


def test_a_verl_megatron_actor_imports_as_the_verl_megatron_row():
    # run_qwen2-7b_math_megatron.sh (verl b178a3c) line 20 --config-name='ppo_megatron_trainer.yaml', lines 35-36 TP 2 x
    # PP 2: verl's Megatron actor; use_distributed_optimizer is megatron.yaml's default True (b178a3c
    # trainer/config/engine/megatron.yaml), its Adam Megatron-Core's FusedAdam (verl/utils/megatron/optimizer.py)
    result = import_files([DATA / "verl/run_qwen2-7b_math_megatron.sh"])
    s = result.scenario
    assert (s["framework"], s["tp"], s["pp"], s["distributed_optimizer"]) == ("verl-megatron", 2, 2, True)
    assert "use_distributed_optimizer" in str(next(a.why for a in result.assumed if a.key == "distributed_optimizer"))
    assert "FusedAdam" in str(next(a.why for a in result.assumed if a.key == "optimizer"))


def test_the_verl_megatron_row_is_megatron_core_with_verls_rollout_and_offload():
    row, megatron, verl = defaults_for("verl-megatron"), defaults_for("megatron"), defaults_for("verl")
    # Megatron-Core's memory facts and time profile (the actor is a Megatron-Core GPTModel under its DDP and optimizer)
    assert (row.adam_fused, row.grads_reduced_in_buffer, row.takes_megatron_arguments) == (True, True, True)
    assert (row.profile, row.loss_in_place) == ("megatron", megatron.loss_in_place)
    # verl's rollout (vLLM, sleep level 2), its log-probs Megatron's own vocab-parallel cross-entropy
    # (verl/utils/megatron/tensor_parallel.py lines 154-158 at db5f055)
    assert (row.posttraining.rollout_engine, row.posttraining.rollout_sleep) == (verl.posttraining.rollout_engine,
                                                                                 verl.posttraining.rollout_sleep)
    assert row.posttraining.logprob_path == "model-loss"
    # optimizer_offload: moved between phases (megatron_workers.py update_actor at db5f055 lines 510-545); no weight
    # offload (the scenario's is ZeRO-3's / FSDP's)
    assert row.parallelism.offloads == ("none", "optimizer")
    s = scenario_from_dict({"model": "qwen2.5-7b", "framework": "verl-megatron", "gpus_per_node": 8, "tp": 2,
                            "distributed_optimizer": True, "training_objective": "grpo", "offload": "optimizer"})
    assert rl_settings(s, 2).offload_between_phases


SWIFT_YAML = DATA / "ms-swift/yaml_deepspeed"  # ms-swift 3602360a examples/yaml/deepspeed/ (SOURCES)


def test_a_swift_launch_follows_the_argument_file_it_names():
    # sft.sh: NPROC_PER_NODE=2 swift sft examples/yaml/deepspeed/sft.yaml, whose keys ms-swift turns into flags
    # (swift/cli/main.py parse_yaml_args, lines 38-72): tuner_type lora, lora_rank 8, lora_alpha 32 (lines 7-9),
    # max_length 2048 (line 19), per_device_train_batch_size 1, gradient_accumulation_steps 8 (lines 27-29),
    # deepspeed zero2 (line 38)
    result = import_files([SWIFT_YAML / "sft.sh"])
    s = result.scenario
    assert (s["method"], s["lora_rank"], s["lora_alpha"], s["seq_len"]) == ("lora", 8, 32, 2048)
    assert (s["micro_batch"], s["grad_accum"], s["gpus_per_node"]) == (1, 8, 2)
    assert (s["framework"], s["zero_stage"], s["model"]) == ("deepspeed", 2, "qwen2.5-7b")
    assert {m.source.split(":")[0] for m in result.mapped} == {"sft.sh", "sft.yaml"}


def test_the_command_lines_flags_override_the_argument_file():
    # parse_yaml_args puts the file's flags first; HfArgumentParser (argparse) keeps a flag's last value
    result = import_texts([("run.sh", "swift sft sft.json --lora_rank 16 --max_length 4096")], SWIFT_YAML)
    assert (result.scenario["lora_rank"], result.scenario["seq_len"]) == (16, 4096)
    assert "kept 16" in _why(result, "lora_rank")


def test_the_argument_files_stated_tuner_overrides_the_scripts_assumed_default(tmp_path):
    (tmp_path / "full.yaml").write_text("model: Qwen/Qwen2.5-7B-Instruct\ntuner_type: full\n"
                                        "ENV:\n  NPROC_PER_NODE: 4\n", encoding="utf-8")
    result = import_texts([("run.sh", "swift sft full.yaml")], tmp_path)
    # the file's ENV sets what the environment does not (swift/cli/main.py lines 53-59)
    assert (result.scenario["method"], result.scenario["gpus_per_node"]) == ("full", 4)
    with_env = import_texts([("run.sh", "NPROC_PER_NODE=2 swift sft full.yaml")], tmp_path)
    assert with_env.scenario["gpus_per_node"] == 2


@pytest.mark.parametrize(("script", "words"), [
    ("swift sft missing.yaml", "was not imported"),
    ("swift sft ../../../../../etc/passwd.yaml", "outside the job's folder"),
])
def test_a_missing_or_outside_argument_file_is_one_sentence(script, words):
    result = import_texts([("run.sh", script)], SWIFT_YAML)
    assert words in _why(result, "(argument file)")


def test_an_argument_file_that_is_not_a_regular_file_is_one_sentence(tmp_path):
    import os
    os.mkfifo(tmp_path / "fifo.yaml")  # reading a FIFO would wait forever (engine/safe_read.py)
    result = import_texts([("run.sh", "swift sft fifo.yaml --lora_rank 4")], tmp_path)
    # references.py finds only regular files beside the job (is_file), so the FIFO is never opened
    assert "was not imported" in _why(result, "(argument file)") and result.scenario["lora_rank"] == 4
