"""Real configs from the frameworks' example folders (tests/data/configs/*/SOURCES names each file's repository,
path and commit) imported, estimated and exported back: what each used to lose. Every expected value is read off
the file it tests (the comment says which line)."""

from __future__ import annotations

from pathlib import Path

from engine.configs import export_config, import_files, import_texts
from engine.configs.shell import scan
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

DATA = Path(__file__).resolve().parent / "data" / "configs"


def _not_read(result, key: str) -> bool:
    return any(u.key.endswith(": " + key) for u in result.unmapped)


def test_torchtune_builders_of_llama3_3_llama4_and_phi4_name_their_presets() -> None:
    # model._component_ torchtune.models.llama3_3.llama3_3_70b (line 11), llama4.llama4_scout_17b_16e (line 15),
    # phi4.phi4_14b (line 26): each builder has a preset of the same architecture
    for name, preset in (("llama3_3_70B_full_multinode.yaml", "llama-3.3-70b"),
                         ("llama4_scout_17B_16E_full.yaml", "llama-4-scout"),
                         ("phi4_14B_full_low_memory.yaml", "phi-4")):
        result = import_files([DATA / "torchtune" / name])
        assert result.scenario["model"] == preset, name
        assert not _not_read(result, "model._component_"), name
    # exported back, the builder's module is its own family's (torchtune/models/llama3_3/__init__.py)
    result = import_files([DATA / "torchtune/llama3_3_70B_full_multinode.yaml"])
    scenario = scenario_from_dict({**result.scenario, "gpus_per_node": 8})
    assert "_component_: torchtune.models.llama3_3.llama3_3_70b\n" in export_config(scenario, "torchtune")


def test_a_layout_that_needs_more_gpus_than_the_default_says_how_many() -> None:
    # tensor_parallel_dim: 8 (line 51) and no GPU count in the recipe: the assumption is the 8 GPUs that layout
    # needs (the scenario with it estimates), never the default 1 GPU the layout cannot run on
    result = import_files([DATA / "torchtune/llama3_3_70B_full_multinode.yaml"])
    counts = {a.key: a.value for a in result.assumed if a.key in ("gpus_per_node", "nodes")}
    assert counts["gpus_per_node"] == 8
    assert "gpus_per_node" not in result.scenario  # a count no file states is never imported (hardware.py)
    estimate(scenario_from_dict({**result.scenario, **counts}))
    # axolotl expert_parallel_size: 4 (line 8): 4 GPUs, not the default 1
    result = import_files([DATA / "axolotl/qwen3_30ba3b_ep_lora_4gpu.yaml"])
    assert {a.key: a.value for a in result.assumed}["gpus_per_node"] == 4


def test_axolotl_expert_parallel_size_is_read_and_written_back() -> None:
    # expert_parallel_size: 4 (line 8) with the ExpertParallelPlugin (line 5); sample_packing: true (line 18)
    result = import_files([DATA / "axolotl/qwen3_30ba3b_ep_lora_4gpu.yaml"])
    assert result.scenario["ep"] == 4 and result.scenario["packing"] == "packed"
    assert not _not_read(result, "expert_parallel_size")
    text = export_config(scenario_from_dict({**result.scenario, "gpus_per_node": 4}), "axolotl")
    assert "expert_parallel_size: 4\n" in text and "ExpertParallelPlugin" in text and "sample_packing: true" in text
    back = import_texts([("axolotl.yaml", text)]).scenario
    assert (back["ep"], back["packing"]) == (4, "packed")


def test_llamafactory_stage_dpo_is_a_dpo_step_and_exports_as_one() -> None:
    # stage: dpo (line 6), pref_loss: sigmoid (line 12): DPO, whose loss and reference forward the estimate counts
    result = import_files([DATA / "llama-factory/qwen3_lora_dpo.yaml"])
    assert result.scenario["training_objective"] == "dpo"
    text = export_config(scenario_from_dict(result.scenario), "llama-factory")
    assert "stage: dpo\n" in text and "pref_loss: sigmoid\n" in text
    assert import_texts([("lf.yaml", text)]).scenario["training_objective"] == "dpo"
    # pref_loss orpo and simpo load no reference model (finetuning_args.py use_ref_model): the planner's objectives
    base = "model_name_or_path: Qwen/Qwen3-4B\nfinetuning_type: lora\ntemplate: qwen3\nstage: dpo\n"
    assert import_texts([("lf.yaml", base + "pref_loss: orpo\n")]).scenario["training_objective"] == "orpo"
    assert import_texts([("lf.yaml", base.replace("dpo", "rm"))]).scenario["training_objective"] == "reward"


def test_torchtitan_deepseek_v3_671b_flavour_is_the_deepseek_v3_preset() -> None:
    # [model] name = "deepseek_v3", flavor = "671B" (lines 19-20)
    result = import_files([DATA / "torchtitan/deepseek_v3_671b.toml"])
    assert result.scenario["model"] == "deepseek-v3"


def test_verl_megatron_actor_layout_is_read_not_taken_for_fsdp() -> None:
    # --config-name='ppo_megatron_trainer.yaml' (line 20) with actor.megatron.pipeline_model_parallel_size=2 and
    # tensor_model_parallel_size=2 (lines 35-36): a Megatron actor, TP 2 x PP 2, not verl's default FSDP actor
    result = import_files([DATA / "verl/run_qwen2-7b_math_megatron.sh"])
    s = result.scenario
    assert (s["tp"], s["pp"]) == (2, 2) and "fsdp" not in s
    assert s["sequence_parallel"] is True and s["precision"] == "mixed-bf16"  # engine/megatron.yaml defaults
    assert not _not_read(result, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size")


def test_verl_moe_script_variables_with_nested_defaults_and_bare_arithmetic_are_expanded() -> None:
    # ACTOR_EP=${ACTOR_EP:-$COMMON_EP} with COMMON_EP=${COMMON_EP:-8} (lines 58, 67) and
    # actor_ppo_max_token_len=$(((max_prompt_length + max_response_length))) (line 48, 2048 + 8192)
    text = (DATA / "verl/run_qwen3moe-30b_megatron_96gb.sh").read_text(encoding="utf-8")
    env, _ = scan(text)
    assert (env["ACTOR_EP"], env["ACTOR_TP"], env["actor_ppo_max_token_len"]) == ("8", "1", "10240")
    s = import_files([DATA / "verl/run_qwen3moe-30b_megatron_96gb.sh"]).scenario
    assert (s["ep"], s["etp"], s["max_tokens_per_micro_batch"]) == (8, 1, 10240)


def test_nested_default_expansion_stays_bounded() -> None:
    # a default naming a variable whose default names another: expanded a few passes deep, never forever
    env, _ = scan("A=${A:-$B}\nB=${B:-$A}\nC=${C:-${D:-$E}}\n")
    assert set(env) == {"A", "B", "C"}


def test_openrlhf_sft_with_lora_and_packing_is_read() -> None:
    # openrlhf.cli.train_sft (line 6) with --data.max_len 2048 (line 7), --ds.lora.rank 64 / --ds.lora.alpha 64
    # (lines 23-24) and --ds.packing_samples (line 25): a LoRA SFT step of 2,048-token unpadded rows, not a full
    # fine-tune, and SFT is no "trainer the planner does not model"
    result = import_files([DATA / "openrlhf/train_sft_mixtral_lora.sh"])
    s = result.scenario
    assert (s["method"], s["lora_rank"], s["lora_alpha"]) == ("lora", 64, 64)
    assert (s["packing"], s["seq_len"], s["training_objective"]) == ("padding-free", 2048, "sft")
    assert not any(u.key.endswith("(module)") or u.key.endswith(": module") for u in result.unmapped)
