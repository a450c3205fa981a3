"""Importing real post-training configs and launch commands (issue 22): TRL, verl, OpenRLHF and ms-swift files under
tests/data/configs/ (each folder's SOURCES names the repository, path and commit). Every expected value is what the
file says, translated to the planner's keys; the comment names the line or the framework default behind it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.configs import ConfigFileError, import_files, import_texts

DATA = Path(__file__).resolve().parent / "data" / "configs"

CASES = [
    # open-r1 recipe (a GRPOConfig YAML): num_generations: 16, max_prompt_length: 512, max_completion_length: 1024,
    # use_vllm: true, per_device_train_batch_size: 16; GRPO is inferred from the generation settings (assumed)
    ("trl/open-r1_qwen2.5-1.5b_grpo_config_demo.yaml", "trl",
     {"framework": "trl", "training_objective": "grpo", "num_generations": 16, "prompt_len": 512,
      "completion_len": 1024, "rollout_engine": "vllm", "micro_batch": 16, "grad_accum": 4, "model": "qwen2.5-1.5b",
      "precision": "bf16", "checkpointing": "full"}),
    # trl examples/scripts/gspo.py usage: GRPOTrainer, --num_generations 8, --max_completion_length 1024,
    # --beta 0.0 (no reference model, grpo_trainer.py), --use_peft with "q_proj", "v_proj", --dtype bfloat16
    ("trl/gspo_qwen3-0.6b_lora.sh", "trl",
     {"training_objective": "grpo", "num_generations": 8, "completion_len": 1024, "reference_model": "none",
      "method": "lora", "lora_targets": ["q_proj", "v_proj"], "model": "qwen3-0.6b", "micro_batch": 8,
      "grad_accum": 2, "precision": "bf16", "rollout_engine": None}),
    # trl/scripts/dpo.py LoRA usage: --per_device_train_batch_size 2, --gradient_accumulation_steps 8, --lora_r 32
    ("trl/dpo_qwen2-0.5b_lora.sh", "trl",
     {"training_objective": "dpo", "micro_batch": 2, "grad_accum": 8, "method": "lora", "lora_rank": 32,
      "lora_alpha": 16}),
    # examples/scripts/kto.py QLoRA usage: --load_in_4bit, --lora_r 16
    ("trl/kto_qwen1.5-1.8b_qlora.sh", "trl",
     {"training_objective": "kto", "method": "qlora", "qlora_bits": 4, "lora_rank": 16, "micro_batch": 8}),
    # docs/source/grpo_trainer.md: --use_vllm --vllm_mode colocate
    ("trl/grpo_vlm_colocate.sh", "trl",
     {"training_objective": "grpo", "rollout_engine": "vllm", "rollout_placement": "colocate", "completion_len": 1024}),
    # verl run_qwen2-7b.sh: adv_estimator=grpo, rollout.name=vllm, gpu_memory_utilization=0.6,
    # tensor_model_parallel_size=2, rollout.n=5, max_prompt_length=512, max_response_length=1024; use_kl_loss=True
    # scores a reference, a frozen copy for a full fine-tune (it was left "auto", which under verl means none)
    ("verl/run_qwen2-7b.sh", "verl",
     {"framework": "verl", "training_objective": "grpo", "rollout_engine": "vllm",
      "rollout_gpu_memory_utilization": 0.6, "rollout_tp": 2, "num_generations": 5, "prompt_len": 512,
      "completion_len": 1024, "reference_model": "separate", "gpus_per_node": 8, "rollout_placement": "colocate"}),
    # verl run_qwen2_5-3b_gsm8k_grpo_lora.sh: model.lora_rank=64, lora_alpha=32, n_gpus_per_node=2; use_kl_loss=True
    # with LoRA: the actor with its adapters off (ray_trainer.py ref_in_actor)
    ("verl/run_qwen2_5-3b_gsm8k_grpo_lora.sh", "verl",
     {"model": "qwen2.5-3b", "method": "lora", "lora_rank": 64, "lora_alpha": 32, "gpus_per_node": 2,
      "training_objective": "grpo", "reference_model": "adapter-off"}),
    # verl's composed trainer YAML: adv_estimator gae (PPO with the policy's own critic path), gpu_memory_utilization
    # 0.5, tensor_model_parallel_size 2, n 1, max_num_seqs 256, use_kl_loss false and use_kl_in_reward false (no
    # reference), reward_model.enable false; rollout.name '???' is verl's to fill at launch; rollout
    # max_num_batched_tokens 8192; critic.model.fsdp_config param_offload false, optimizer_offload false
    ("verl/_generated_ppo_trainer.yaml", "verl",
     {"training_objective": "ppo", "critic_model": "same", "rollout_gpu_memory_utilization": 0.5, "rollout_tp": 2,
      "num_generations": 1, "rollout_max_num_seqs": 256, "reference_model": "none", "reward_model": None,
      "rollout_engine": None, "prompt_len": 512, "completion_len": 512, "rollout_max_num_batched_tokens": 8192,
      "critic_offload": "none"}),
    # OpenRLHF train_ppo_ray_hybrid_engine.sh, dotted flags: --vllm.num_engines 4, --vllm.tensor_parallel_size 2,
    # --train.colocate_all, --vllm.gpu_memory_utilization 0.5, --vllm.enable_sleep (level 1, vllm_engine.py),
    # --rollout.n_samples_per_prompt 1, --ds.zero_stage 3, --ds.param_dtype bf16; PPO (gae) trains a critic
    ("openrlhf/train_ppo_ray_hybrid_engine.sh", "openrlhf",
     {"framework": "openrlhf", "training_objective": "ppo", "rollout_engine": "vllm", "rollout_tp": 2,
      "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.5, "rollout_sleep": "level-1",
      "num_generations": 1, "zero_stage": 3, "precision": "mixed-bf16", "critic_model": "same", "gpus_per_node": 8}),
    # the same script at e7ae02e (flat flags): --prompt_max_len 1024, --generate_max_len 1024
    ("openrlhf/train_ppo_ray_hybrid_engine_prompt_generate_len.sh", "openrlhf",
     {"prompt_len": 1024, "completion_len": 1024, "rollout_placement": "colocate", "rollout_sleep": "level-1"}),
    # train_ppo_with_reward_fn.sh at e7ae02e: --vllm_num_engines 2 x --vllm_tensor_parallel_size 2 without
    # --colocate_all_models -> 4 GPUs of the engines' own; --adam_offload; --micro_train_batch_size 8;
    # --actor_num_gpus_per_node 2; a remote reward function (no reward model)
    ("openrlhf/train_ppo_with_reward_fn.sh", "openrlhf",
     {"training_objective": "ppo", "rollout_placement": "separate", "rollout_gpus": 4, "rollout_tp": 2,
      "offload": "optimizer", "micro_batch": 8, "gpus_per_node": 2, "zero_stage": 3, "attention": "flash",
      "reward_model": None, "critic_model": "same"}),
    # OpenRLHF train_dpo_llama.sh: openrlhf.cli.train_dpo, --train.micro_batch_size 1, --data.max_len 8192
    ("openrlhf/train_dpo_llama.sh", "openrlhf",
     {"training_objective": "dpo", "micro_batch": 1, "seq_len": 8192, "zero_stage": 3, "attention": "flash"}),
    # ms-swift examples/train/grpo/internal/vllm_72b_4gpu.sh: --use_vllm true, --vllm_mode colocate,
    # --vllm_gpu_memory_utilization 0.55, --vllm_tensor_parallel_size 4, --num_generations 4,
    # --max_completion_length 1024, --sleep_level 1, --deepspeed zero3_offload (after `--dataset ...#10000`)
    ("ms-swift/grpo_vllm_72b_4gpu.sh", "ms-swift",
     {"framework": "ms-swift", "training_objective": "grpo", "rollout_engine": "vllm", "rollout_placement": "colocate",
      "rollout_gpu_memory_utilization": 0.55, "rollout_tp": 4, "num_generations": 4, "completion_len": 1024,
      "rollout_sleep": "level-1", "zero_stage": 3, "offload": "optimizer+params", "model": "qwen2.5-72b",
      "method": "lora", "gpus_per_node": 4}),
    # ms-swift examples/train/rlhf/dpo/full.sh: --rlhf_type dpo, --tuner_type full, --max_length 8192
    ("ms-swift/rlhf_dpo_full.sh", "ms-swift",
     {"framework": "ms-swift", "training_objective": "dpo", "method": "full", "seq_len": 8192, "micro_batch": 4}),
]


@pytest.mark.parametrize(("path", "fmt", "expected"), CASES, ids=[c[0] for c in CASES])
def test_real_post_training_config_maps_its_fields(path: str, fmt: str, expected: dict) -> None:
    result = import_files([DATA / path])
    assert result.formats == (fmt,)
    for key, value in expected.items():  # None: the import leaves the key to the planner
        assert result.scenario.get(key) == value, (key, result.scenario.get(key), value)


def test_flat_and_dotted_openrlhf_flags_read_the_same() -> None:
    # the same script before and after OpenRLHF's dotted flags (commit ed62d0e): only the spelling changed
    old = import_files([DATA / "openrlhf/train_ppo_ray_hybrid_engine_flat_flags.sh"]).scenario
    new = import_files([DATA / "openrlhf/train_ppo_ray_hybrid_engine.sh"]).scenario
    assert old == new


def test_what_an_import_did_not_read_is_listed_with_a_reason() -> None:
    result = import_files([DATA / "verl/_generated_ppo_trainer.yaml"])
    why = {u.key: str(u.why) for u in result.unmapped}
    assert "resolved by verl at launch" in why["_generated_ppo_trainer.yaml: actor_rollout_ref.rollout.name"]
    assert any(a.key == "rollout_placement" for a in result.assumed)  # verl's hybrid engine, said as an assumption


def test_objective_of_a_trl_yaml_is_an_assumption() -> None:
    result = import_files([DATA / "trl/open-r1_qwen2.5-1.5b_grpo_config_demo.yaml"])
    assert [a.key for a in result.assumed if a.key == "training_objective"] == ["training_objective"]
    assert "training_objective" not in {m.key for m in result.mapped}


@pytest.mark.parametrize(("name", "text", "key"), [
    ("run.sh", "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.rollout.n=0\n",
     "actor_rollout_ref.rollout.n"),
    ("run.sh", "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.gpu_memory_utilization=1.5\n",
     "actor_rollout_ref.rollout.gpu_memory_utilization"),
    ("run.sh", "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=reinforce_plus_plus\n",
     "algorithm.adv_estimator"),
    ("run.sh", "python3 -m openrlhf.cli.train_ppo_ray --advantage_estimator dr_grpo --vllm_num_engines x\n",
     "advantage_estimator"),
    ("run.sh", "swift rlhf --rlhf_type grpo --sleep_level 7 --model Qwen/Qwen2.5-7B-Instruct\n", "sleep_level"),
    ("run.sh", "trl grpo --num_generations 8 --vllm_mode sideways --use_vllm\n", "vllm_mode"),
    ("grpo.yaml", "num_generations: 1\nuse_vllm: true\nper_device_train_batch_size: 2\n", "num_generations"),
])
def test_impossible_post_training_values_are_listed_with_one_sentence(name: str, text: str, key: str) -> None:
    result = import_texts([(name, text)])
    listed = {u.key.split(": ", 1)[-1].split(" ", 1)[0]: str(u.why) for u in result.unmapped}
    assert key in listed, listed
    assert "\n" not in listed[key] and listed[key]


@pytest.mark.parametrize("text", [b"actor_rollout_ref: {rollout: [" + b"[" * 400 + b"]" * 401 + b"}\n",
                                  b"python3 -m verl.trainer.main_ppo " + b"a.b=${A}" * 200_000 + b"\n",
                                  b"trl grpo --num_generations \x00\n"])
def test_hostile_post_training_files_get_one_sentence(text: bytes) -> None:
    name = "hostile.yaml" if text.startswith(b"actor") else "hostile.sh"
    with pytest.raises(ConfigFileError) as info:
        import_texts([(name, text)])
    assert "\n" not in str(info.value) and str(info.value).endswith(".")


def test_verl_critic_offload_is_read_apart_from_the_actors() -> None:
    """verl's critic has its own fsdp_config (ppo_trainer.yaml critic.model.fsdp_config): an override that offloads the
    critic's parameters and optimizer leaves the actor's offload as stated (here off)."""
    line = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=gae "
            "actor_rollout_ref.actor.fsdp_config.param_offload=False "
            "actor_rollout_ref.actor.fsdp_config.optimizer_offload=False "
            "critic.model.fsdp_config.param_offload=True critic.model.fsdp_config.optimizer_offload=True "
            "actor_rollout_ref.rollout.max_num_batched_tokens=1536")
    result = import_texts([("run.sh", line)])
    assert result.scenario.get("offload") == "none"
    assert result.scenario.get("critic_offload") == "optimizer+params"
    assert result.scenario.get("rollout_max_num_batched_tokens") == 1536


def test_verl_ulysses_sequence_parallel_size_is_read_and_written_back() -> None:
    """verl's actor.ulysses_sequence_parallel_size (verl/trainer/config/actor/actor.yaml) maps onto the key of the same
    name (refused, with verl's reason, when it does not divide the data-parallel GPUs); the verl export writes it with
    use_remove_padding, which verl requires beside it (workers/config/actor.py)."""
    from engine import scenario_from_dict
    from engine.configs.export_rl import verl_args

    line = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B "
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size=2 actor_rollout_ref.rollout.name=vllm "
            "trainer.n_gpus_per_node=8")
    result = import_texts([("run.sh", line)])
    assert result.scenario.get("ulysses_sequence_parallel_size") == 2
    alone = import_texts([("run.sh", line.replace("trainer.n_gpus_per_node=8", ""))])
    assert "ulysses_sequence_parallel_size" not in alone.scenario
    assert any("ulysses_sequence_parallel_size" in u.key for u in alone.unmapped)
    s = scenario_from_dict({"model": "qwen2.5-7b", "framework": "verl", "training_objective": "grpo",
                            "rollout_engine": "vllm", "gpus_per_node": 8, "ulysses_sequence_parallel_size": 2})
    text = verl_args(s)
    assert "actor_rollout_ref.actor.ulysses_sequence_parallel_size=2" in text
    assert "actor_rollout_ref.model.use_remove_padding=True" in text


def test_verl_rollout_enforce_eager_is_read() -> None:
    """verl passes rollout.enforce_eager to vLLM's LLM() (vllm_rollout_spmd.py); its default was True until ff6978c14
    (2025-08-08) and False since, so a stated value is kept and an absent one left to the framework's default."""
    stated = import_texts([("run.sh", "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo "
                                      "actor_rollout_ref.rollout.enforce_eager=True")])
    assert stated.scenario.get("rollout_enforce_eager") is True
    absent = import_texts([("run.sh", "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo")])
    assert "rollout_enforce_eager" not in absent.scenario


def test_openrlhf_engine_eager_flag_is_read_and_deepspeed_sleep_is_named() -> None:
    """An OpenRLHF GRPO launch as its README writes one for a colocated 32B run (--colocate_all_models,
    --vllm_enable_sleep, --deepspeed_enable_sleep, --enforce_eager): the engine's --enforce_eager (train_ppo_ray.py
    @3c3be62 line 243: "Disable CUDA graph in vLLM") was listed as "not a memory setting", and DeepSpeed's sleep as
    one the planner does not model without saying so."""
    text = ("python3 -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 --actor_num_gpus_per_node 8 "
            "--vllm_num_engines 2 --vllm_tensor_parallel_size 4 --colocate_all_models --vllm_gpu_memory_utilization 0.6"
            " --vllm_enable_sleep --deepspeed_enable_sleep --pretrain Qwen/Qwen2.5-32B-Instruct "
            "--micro_train_batch_size 2 --train_batch_size 128 --n_samples_per_prompt 8 --advantage_estimator "
            "group_norm --prompt_max_len 1024 --generate_max_len 2048 --zero_stage 3 --bf16 --enforce_eager\n")
    result = import_texts([("train_grpo.sh", text)])
    assert result.scenario["rollout_enforce_eager"] is True and result.scenario["rollout_tp"] == 4
    why = {u.key.rsplit(": ", 1)[-1]: str(u.why) for u in result.unmapped}  # "FILE: flag"
    assert "not modelled yet" in why["deepspeed_enable_sleep"]
    dotted = import_texts([("train_grpo.sh", text.replace("--enforce_eager", "--vllm.enforce_eager"))])
    assert dotted.scenario["rollout_enforce_eager"] is True


def test_ms_swift_engine_context_is_read_and_its_phase_offloads_are_named() -> None:
    """ms-swift's 72B GRPO example (tests/data/configs/ms-swift/grpo_vllm_72b_4gpu.sh): --vllm_max_model_len 2048, the
    engine's max_model_len (swift/rlhf_trainers/args_mixin.py @3602360 lines 42, 76), sizes the KV cache the engine
    must hold a request of, and was "not a memory setting"; --offload_optimizer / --offload_model (lines 144-146,
    190-191) move the trainer's states off the GPUs while vLLM generates, which the planner does not model."""
    result = import_files([DATA / "ms-swift/grpo_vllm_72b_4gpu.sh"])
    assert result.scenario["rollout_max_model_len"] == 2048  # the file's --vllm_max_model_len
    why = {u.key.rsplit(": ", 1)[-1]: str(u.why) for u in result.unmapped}
    assert "not modelled yet" in why["offload_optimizer"] and "not modelled yet" in why["offload_model"]


def test_a_verl_run_with_use_kl_loss_scores_a_reference_and_its_cpu_offload_is_named() -> None:
    """verl's defaults score no reference (engine/frameworks/posttraining.py VERL: use_kl_loss and use_kl_in_reward
    false), so the "auto" an import of use_kl_loss=True left counted none; the export wrote use_kl_loss=True for that
    same "auto". The reference worker's ref.fsdp_config.param_offload (fsdp_workers.py @b178a3c line 237) is named as
    not modelled."""
    from engine import scenario_from_dict
    from engine.configs import export_config
    from engine.memory.states import dtypes_for
    from engine.posttraining import rl_settings

    result = import_files([DATA / "verl/run_qwen2-7b.sh"])
    s = scenario_from_dict({"model": "qwen2.5-7b", **result.scenario, "gpu": "h100-sxm-80gb"})  # Qwen2-7B: no preset
    assert rl_settings(s, dtypes_for(s).compute).reference == "separate"
    text = (DATA / "verl/run_qwen2-7b.sh").read_text() + " actor_rollout_ref.ref.fsdp_config.param_offload=True\n"
    offloaded = import_texts([("run.sh", text.replace("$@", ""))])
    assert any(u.key.endswith("ref.fsdp_config.param_offload") and "not modelled yet" in str(u.why)
               for u in offloaded.unmapped)
    auto = s.replace(reference_model="auto")
    assert rl_settings(auto, dtypes_for(auto).compute).reference == "none"
    assert "use_kl_loss" not in export_config(auto, "verl")  # verl's default: none, as the estimate counts it
    assert "use_kl_loss=True" in export_config(s, "verl")


def test_openrlhf_without_a_kl_coefficient_loads_no_reference() -> None:
    """OpenRLHF builds its reference only where the KL coefficient is above 0 (train_ppo_ray.py @3c3be62 lines
    93-103; --algo.kl.init_coef default 0.01): --init_kl_coef 0 read "does not affect GPU memory" and the
    reference OpenRLHF scores by default stayed counted."""
    base = ("python3 -m openrlhf.cli.train_ppo_ray --actor_num_gpus_per_node 8 --vllm_num_engines 8 "
            "--colocate_all_models --pretrain Qwen/Qwen2.5-7B-Instruct --advantage_estimator group_norm ")
    assert import_texts([("a.sh", base + "--init_kl_coef 0\n")]).scenario["reference_model"] == "none"
    assert import_texts([("a.sh", base + "--algo.kl.init_coef 0.0\n")]).scenario["reference_model"] == "none"
    kept = import_texts([("a.sh", base + "--init_kl_coef 1e-3\n")])
    assert "reference_model" not in kept.scenario  # OpenRLHF's own default: it scores one
    assert not any(u.key.endswith("init_kl_coef") for u in kept.unmapped)


def test_a_saved_command_line_import_of_a_colocated_engine_runs(tmp_path) -> None:
    """User audit 5: `import` of a TRL GRPO config with vllm_tensor_parallel_size 8 (no GPU count stated) printed a
    scenario without gpus_per_node, and `estimate` of the saved file refused it ("must divide the 1 training GPUs").
    The command line's scenario now carries the GPU count the import assumed (the least the layout needs: 8); the
    window keeps its set-up's count (result.scenario has none)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "grpo.yaml"
    config.write_text("model_name_or_path: Qwen/Qwen2.5-1.5B\nuse_vllm: true\nvllm_mode: colocate\n"
                      "vllm_tensor_parallel_size: 8\nper_device_train_batch_size: 4\nnum_generations: 8\n")
    from engine.configs import import_files

    result = import_files([config])
    assert "gpus_per_node" not in result.scenario and result.standalone_scenario()["gpus_per_node"] == 8
    out = subprocess.run([sys.executable, str(root / "main.py"), "import", str(config), "--json"],
                         capture_output=True, text=True, cwd=root, timeout=60)
    assert out.returncode == 0, out.stderr
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(json.loads(out.stdout)["scenario"]))
    run = subprocess.run([sys.executable, str(root / "main.py"), "estimate", str(saved)], capture_output=True,
                         text=True, cwd=root, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Verdict:" in run.stdout
    text = subprocess.run([sys.executable, str(root / "main.py"), "import", str(config)], capture_output=True,
                          text=True, cwd=root, timeout=60).stdout
    assert '"gpus_per_node": 8' in text  # the text's Scenario block too, as it would be copied


def test_verl_batch_sizes_set_the_optimizer_step_and_are_exported() -> None:
    """User audit 5: verl's data.train_batch_size / actor.ppo_mini_batch_size were neither read nor exported. verl's
    fsdp_workers.py normalises ppo_mini_batch_size x rollout.n // (GPUs // ulysses) into the sequences one optimizer
    step trains a rank, so run_qwen2-7b.sh (mini 256 prompts, n 5, 8 GPUs, 40 a micro-batch) trains 160 a rank: 4
    micro-batches; train_batch_size 1024 is 4 such steps, listed. The export writes the plan's step back."""
    from engine import scenario_from_dict
    from engine.configs import export_config, import_files, import_texts
    from engine.posttraining.estimate import step_sequences

    result = import_files([DATA / "verl/run_qwen2-7b.sh"])
    assert result.scenario["micro_batch"] == 40 and result.scenario["grad_accum"] == 256 * 5 // 8 // 40
    assert any("data.train_batch_size" in u.key and "4 optimizer steps of 256" in str(u.why) for u in result.unmapped)
    s = scenario_from_dict({**result.scenario, "model": "qwen2.5-7b"})
    assert step_sequences(s) == 256 * 5  # the config's optimizer step: mini-batch prompts x n
    text = export_config(s, "verl")
    assert "data.train_batch_size=256" in text and "actor_rollout_ref.actor.ppo_mini_batch_size=256" in text
    back = import_texts([("run.sh", text)])
    assert back.scenario["grad_accum"] == s.grad_accum and back.scenario["micro_batch"] == s.micro_batch


def test_verl_critic_padding_is_read_apart_from_the_actors() -> None:
    """verl's critic pads unless critic.model.use_remove_padding is set (default False: volcengine/verl@ed498f9f
    verl/trainer/config/ppo_trainer.yaml line 146), whatever the actor's: an actor without padding beside an unset
    critic gives critic_packing none (assumed, the default), a stated critic setting is read as stated."""
    line = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=gae actor_rollout_ref.model.path=Qwen/Qwen2.5-7B "
            "critic.model.path=Qwen/Qwen2.5-7B actor_rollout_ref.model.use_remove_padding=True")
    result = import_texts([("run.sh", line)])
    assert result.scenario.get("packing") == "padding-free"
    assert result.scenario.get("critic_packing") == "none"
    stated = import_texts([("run.sh", line + " critic.model.use_remove_padding=True")])
    assert stated.scenario.get("critic_packing") == "padding-free"
