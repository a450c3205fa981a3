"""A colocated generation engine that leaves no room on the node's GPUs is offered half of them as its own: TRL runs
its engine so ("vLLM server and TRL trainer must use different CUDA devices", huggingface/trl docs
vllm_integration.md, `trl vllm-serve`). A PhD student's GRPO of Qwen2.5-7B with LoRA on 2 x RTX 4090 (TRL, vLLM
colocated at 0.3) was offered QLoRA, or 2 more GPUs for the engine, not one of the two it has (user audit 13)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.memory.states import dtypes_for
from engine.planning.plan import gpus_in_use
from engine.planning.rl_suggest import VLLM_SERVER_SHARE, split_gpus
from engine.planning.solver import plans
from engine.planning.suggest import suggestions
from engine.posttraining import rl_settings

GRPO_2X4090 = {"schema_version": 1, "name": "GRPO 7B on 2 x 4090", "model": "qwen2.5-7b", "gpu": "rtx-4090",
               "gpus_per_node": 2, "method": "lora", "precision": "bf16", "checkpointing": "full", "framework": "trl",
               "micro_batch": 4, "grad_accum": 4, "training_objective": "grpo", "prompt_len": 256,
               "completion_len": 512, "num_generations": 8, "rollout_engine": "vllm",
               "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.3}


def _split(s):
    return split_gpus(s, rl_settings(s, dtypes_for(s).compute))


def test_the_student_is_offered_one_gpu_each_and_it_fits():
    s = scenario_from_dict(GRPO_2X4090)
    assert not estimate(s).fits  # vLLM at 0.3 of a 4090 has no room for the 7B's 14 GiB of weights
    offered = next(x for x in suggestions(s) if x.changes.get("rollout_placement") == "separate"
                   and "gpus_per_node" in x.changes)
    assert offered.changes["gpus_per_node"] == 1 and offered.changes["rollout_gpus"] == 1
    assert str(offered.title).startswith("Train on 1 of the 2 GPUs and run the generation engine on the other 1")
    # the share: vLLM's server default where the step fits at it, else the largest below it that fits
    share = offered.changes["rollout_gpu_memory_utilization"]
    assert share <= VLLM_SERVER_SHARE and offered.fits
    assert gpus_in_use(s.replace(**offered.changes)) == gpus_in_use(s) == 2  # no GPU added
    # one GPU trains where two did: the accumulation doubles (4 -> 8), so the global batch stays, and the title says so
    assert offered.changes["grad_accum"] == 8 and "accumulate 8 steps to keep the global batch" in str(offered.title)


def test_make_it_fit_says_no_gpu_count_for_the_split():
    s = scenario_from_dict(GRPO_2X4090)
    split = next(p for p in plans(s) if p.changes.get("rollout_placement") == "separate")
    assert split.fits and split.changes["gpus_per_node"] == 1
    words = " ".join(str(m) for m in split.steps)
    assert "use 1 GPUs" not in words and "cost money" not in " ".join(str(n) for n in split.notes)
    assert "hardware" not in split.assumptions_changed
    # one GPU trains where two did: the accumulation doubles so the global batch stays (TRL's generation batch is
    # per_device_train_batch_size x processes x accumulation)
    assert split.changes["grad_accum"] == 8 and "keep the global batch" in words


def test_no_split_where_it_makes_no_sense():
    s = scenario_from_dict(GRPO_2X4090)
    assert _split(s.replace(nodes=2)) is None  # one node only
    assert _split(s.replace(gpus_per_node=1)) is None  # one GPU: nothing to split
    assert _split(s.replace(rollout_placement="separate", rollout_gpus=2)) is None  # already apart
    assert _split(s.replace(rollout_tp=2, gpus_per_node=2)) is None  # the engine's half is 1 GPU, its tp 2
    assert _split(s.replace(gpus_per_node=8))["rollout_gpus"] == 4  # TRL's example: 4 serve, 4 train
    # verl's main_ppo generates inside the actor's workers, on its GPUs (the framework row's engine_apart fact)
    assert _split(s.replace(framework="verl", rollout_gpu_memory_utilization="auto")) is None


def test_the_hardware_line_says_the_engines_own_gpus(qtbot):
    from gui.app import build_window

    window, _ = build_window(None)
    qtbot.addWidget(window)
    window.show()
    s = scenario_from_dict(GRPO_2X4090)
    window.state.load(s)
    picker = window.hardware_picker
    assert picker.engine_gpus.isHidden()  # colocated: the counts are every GPU's
    window.state.load(s.replace(**_split(s)))
    assert not picker.engine_gpus.isHidden()
    assert picker.summary.text().startswith("1 × ") and "1 more" in picker.engine_gpus.text()


def test_no_engine_apart_is_offered_where_the_framework_generates_on_the_training_gpus():
    """verl's main_ppo and Unsloth generate on the trainer's GPUs (engine_apart False): neither the split nor "Run the
    generation engine on N GPUs of its own" (verl's export refuses rollout_placement separate) is offered there."""
    s = scenario_from_dict({**GRPO_2X4090, "framework": "verl", "rollout_gpu_memory_utilization": "auto"})
    assert not any(x.changes.get("rollout_placement") == "separate" for x in suggestions(s))
    assert not any(p.changes.get("rollout_placement") == "separate" for p in plans(s))
    trl = scenario_from_dict(GRPO_2X4090)
    assert sum(x.changes.get("rollout_placement") == "separate" for x in suggestions(trl)) == 2
