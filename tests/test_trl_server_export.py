"""TRL's export of a plan whose generation engine runs on GPUs of its own (vllm_mode server) names the server's
command, and its import gives the plan back. GRPOConfig's vllm_gpu_memory_utilization and vllm_tensor_parallel_size
apply in colocate mode only; in server mode "this parameter must be passed separately when launching the vLLM
server" (trl/trainer/grpo_config.py), whose flags are trl vllm-serve's --gpu_memory_utilization (default 0.9),
--tensor_parallel_size and --data_parallel_size (huggingface/trl@01bd4a59 trl/scripts/vllm_serve.py). The split plan
for 2 x RTX 4090 exported no server command, and its import rejected nearly every key for want of the engine's GPU
count (user audit 13)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.configs import import_texts
from engine.configs.exporting import export_config

# Make it fit's split plan for the audit's GRPO Qwen2.5-7B LoRA on 2 x RTX 4090 (tests/test_rl_split_gpus.py)
SPLIT = {"schema_version": 1, "name": "GRPO 7B, 1 GPU trains, 1 generates", "model": "qwen2.5-7b", "gpu": "rtx-4090",
         "gpus_per_node": 1, "method": "lora", "precision": "bf16", "checkpointing": "full", "framework": "trl",
         "micro_batch": 4, "grad_accum": 8, "training_objective": "grpo", "prompt_len": 256, "completion_len": 512,
         "num_generations": 8, "rollout_engine": "vllm", "rollout_placement": "separate", "rollout_gpus": 1,
         "rollout_gpu_memory_utilization": 0.8}


def _server_line(text: str) -> str:
    return next(line for line in text.splitlines() if "trl vllm-serve" in line)


def test_the_server_command_carries_the_engines_gpus_and_share():
    text = export_config(scenario_from_dict(SPLIT), "trl")
    assert text.splitlines()[0] == "# Launch: trl grpo --config trl_config.yaml --num_processes 1"
    assert _server_line(text).endswith("CUDA_VISIBLE_DEVICES=1 trl vllm-serve --model Qwen/Qwen2.5-7B "
                                       "--tensor_parallel_size 1 --gpu_memory_utilization 0.8")
    # TRL's documented 8-GPU node: 4 train, 4 serve as two engines of tensor parallelism 2
    half = export_config(scenario_from_dict({**SPLIT, "gpus_per_node": 4, "rollout_gpus": 4, "rollout_tp": 2}), "trl")
    assert "CUDA_VISIBLE_DEVICES=4,5,6,7 trl vllm-serve" in _server_line(half)
    assert "--tensor_parallel_size 2 --data_parallel_size 2" in _server_line(half)
    colocated = export_config(scenario_from_dict({**SPLIT, "rollout_placement": "colocate", "gpus_per_node": 2}), "trl")
    assert "vllm-serve" not in colocated


def test_the_export_imports_back_as_the_plan():
    plan = scenario_from_dict(SPLIT)
    result = import_texts([("trl_config.yaml", export_config(plan, "trl"))])
    assert not result.unmapped, result.unmapped
    for key in ("micro_batch", "grad_accum", "method", "training_objective", "rollout_placement", "rollout_gpus",
                "gpus_per_node"):
        assert result.scenario[key] == SPLIT[key], key
    assert any(a.key == "rollout_gpus" for a in result.assumed)  # said as assumed: the file cannot state it


def test_a_server_mode_share_in_the_file_is_not_the_engines():
    """In server mode the trainer never reads vllm_gpu_memory_utilization (grpo_config.py: "must be passed separately
    when launching the vLLM server"); the import copied the file's 0.8 onto the engine's share. It is now "auto" (the
    server's default, trl vllm-serve 0.9), and the import's notes say the server's own flag sets it."""
    # a user's server-mode file that sets it anyway (the export leaves it out: the next test)
    written = export_config(scenario_from_dict(SPLIT), "trl") + "vllm_gpu_memory_utilization: 0.8\n"
    result = import_texts([("trl_config.yaml", written)])
    assert result.scenario["rollout_gpu_memory_utilization"] == "auto"
    why = next(str(a.why) for a in result.assumed if a.key == "rollout_gpu_memory_utilization")
    assert "--gpu_memory_utilization" in why and "server" in why
    # colocated, the file's share is the engine's (GRPOConfig vllm_gpu_memory_utilization)
    colocated = "use_vllm: true\nvllm_mode: colocate\nvllm_gpu_memory_utilization: 0.45\n"
    assert import_texts([("trl_config.yaml", colocated)]).scenario["rollout_gpu_memory_utilization"] == 0.45


def test_the_import_review_says_the_server_sets_the_share(qtbot):
    from PySide6.QtWidgets import QTableWidget

    from gui.import_review import ImportReview

    text = "use_vllm: true\nvllm_mode: server\nvllm_gpu_memory_utilization: 0.5\nper_device_train_batch_size: 4\n"
    dialog = ImportReview.build(None, import_texts([("trl_config.yaml", text)]), "qwen2.5-7b")
    qtbot.addWidget(dialog)
    assumed = dialog.findChildren(QTableWidget)[1]  # Read, Assumed, Not used
    # the review shows the set-up's label, the raw key on its hover (h-polish15)
    rows = {assumed.item(r, 0).toolTip(): (assumed.item(r, 1).text(), assumed.item(r, 2).toolTip())
            for r in range(assumed.rowCount())}
    value, why = rows["rollout_gpu_memory_utilization"]
    assert value == "auto" and "--gpu_memory_utilization" in why


def test_a_server_mode_file_leaves_the_share_to_the_servers_command():
    """The trainer's file carried vllm_gpu_memory_utilization 0.8 in server mode, where the trainer never reads it
    (huggingface/trl@f2cd577 trl/trainer/grpo_trainer.py:767 "only applies to colocation mode"; trl/generation/
    vllm_generation.py:315-354 passes it to vLLM in the colocate branch alone): it is left out, and the server's
    command carries it (--gpu_memory_utilization 0.8). Colocated, the file keeps it (the trainer builds the engine)."""
    text = export_config(scenario_from_dict(SPLIT), "trl")
    assert "vllm_gpu_memory_utilization" not in text
    assert "--gpu_memory_utilization 0.8" in _server_line(text)
    colocated = export_config(scenario_from_dict({**SPLIT, "rollout_placement": "colocate", "gpus_per_node": 2,
                                                  "rollout_gpu_memory_utilization": 0.3}), "trl")
    assert "vllm_gpu_memory_utilization: 0.3" in colocated
