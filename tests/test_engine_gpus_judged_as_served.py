"""A generation engine on GPUs of its own (TRL's `trl vllm-serve`, vllm_mode server) is judged there as a served vLLM
is: it takes gpu_memory_utilization x the GPU up front and refuses to start where less is free or where the share
left after the weights and the profile run holds no request at max_model_len (vLLM v0.11.2
vllm/v1/worker/gpu_worker.py:240-256 and :341-343, vllm/v1/core/kv_cache_utils.py:663-712; engine/serving/generation.py
_vllm_verdict). The planner had added the training safety reserve (7.24 GiB of an H100) and the trainer's CUDA
context on the engine's GPUs on top of that share, so the student's split and TRL's 4 + 4 H100 split read TIGHT at
the server's 0.9 (h-polish12, left for the lead). The engine's GPUs now carry only the engine's own components (its
CUDA context among them); the training GPUs keep their reserve."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.units import format_bytes

# the student's split of user audit 13 (tests/test_trl_server_share.py): GRPO of Qwen2.5-7B with LoRA, the trainer on
# one RTX 4090, `trl vllm-serve` on the other at its default share ("auto": 0.9)
SPLIT = {"schema_version": 1, "model": "qwen2.5-7b", "gpu": "rtx-4090", "gpus_per_node": 1, "method": "lora",
         "precision": "bf16", "checkpointing": "full", "framework": "trl", "micro_batch": 4, "grad_accum": 8,
         "training_objective": "grpo", "prompt_len": 256, "completion_len": 512, "num_generations": 8,
         "rollout_engine": "vllm", "rollout_placement": "separate", "rollout_gpus": 1,
         "rollout_gpu_memory_utilization": "auto"}
# TRL's documented node (vllm_integration.md): 4 GPUs train, 4 serve
HALF_H100 = {**SPLIT, "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "rollout_gpus": 4}


def _engine_phase(est):
    return next(p for p in est.rl.phases if p.gpus == "rollout")


def test_the_engines_gpus_hold_its_own_components_and_no_training_reserve():
    est = estimate(scenario_from_dict(HALF_H100))
    generation = _engine_phase(est)
    assert est.rl.peak_phase == "generation" and est.rl.refusal is None and est.rl.caution is None
    # the engine's weights, profile peak, non-torch memory, CUDA graphs, its own context and KV cache: nothing added
    assert est.total_bytes == generation.peak_bytes and est.rl.overhead_bytes(generation) == 0.0
    assert est.busiest.reserve_bytes == 0.0
    # vLLM starts (its own check) and so the plan fits: it read TIGHT at 80.67 GiB of 79.65 with the 7.24 GiB reserve
    assert est.verdict == "fits" and est.total_bytes <= est.capacity_bytes


def test_the_training_gpus_keep_their_reserve():
    """The student's trainer holds more with its reserve (the training step, 19.52 GiB allocated) than the engine's
    GPU holds (22.44 GiB, the engine's share and graphs): the training GPU is the estimate, reserve and all."""
    est = estimate(scenario_from_dict(SPLIT))
    assert est.rl.peak_phase == "training" and est.busiest.reserve_bytes > 0
    training = est.rl.phase("training")
    assert est.rl.overhead_bytes(training) == est.busiest.overhead_bytes
    assert est.total_bytes > _engine_phase(est).peak_bytes
    assert est.verdict == "fits"  # was TIGHT at 25.44 GiB of 23.99 (the engine's GPU with the 2.24 GiB reserve)


def test_the_engines_own_start_up_check_still_refuses():
    """At 0.99 of the 4090 less is free than the share asks once the CUDA context is up: vLLM refuses to start
    ("Free memory on device ... is less than desired GPU memory utilization", gpu_worker.py:245-256)."""
    est = estimate(scenario_from_dict({**SPLIT, "rollout_gpu_memory_utilization": 0.99}))
    assert est.rl.refusal is not None and est.verdict == "does not fit"
    assert "free memory" in str(est.rl.refusal)


def test_the_phase_chart_hatches_no_reserve_on_the_engines_gpus(qtbot, tmp_path):
    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, HALF_H100)
    chart, est = win.phases, win.state.estimate
    row = next(i for i, p in enumerate(est.rl.phases) if p.gpus == "rollout")
    hatched = {r: right - left for r, left, right, what in chart.segments if what is None}
    assert hatched[row] == 0.0 and all(width > 0 for r, width in hatched.items() if r != row)
    assert "None on the engine's GPUs." in chart.caption.text()


def test_estimate_json_gives_each_gpu_sets_figure(tmp_path):
    import json
    import subprocess
    import sys

    from conftest import REPO

    path = tmp_path / "split.json"
    path.write_text(json.dumps(SPLIT))
    done = subprocess.run([sys.executable, "main.py", "estimate", str(path), "--json"], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    est = estimate(scenario_from_dict(SPLIT))
    assert data["rl"]["training_gpu_bytes"] == round(est.rl.training_gpu_bytes)
    assert data["rl"]["engine_gpu_bytes"] == round(_engine_phase(est).peak_bytes)  # its components, nothing added
    assert data["verdict"] == "fits" and data["rl"]["peak_phase"] == "training"
    text = subprocess.run([sys.executable, "main.py", "estimate", str(path)], cwd=REPO, capture_output=True, text=True,
                          timeout=120).stdout
    assert (f"Each training GPU {format_bytes(est.rl.training_gpu_bytes)} with its overheads and safety reserve; each "
            f"generation engine GPU {format_bytes(est.rl.engine_gpu_bytes)}, judged by the engine's start-up check") in text
