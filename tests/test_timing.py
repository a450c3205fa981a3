"""The time model (engine/timing): presets carry their speed figures, terms add up, sanity holds.

Expected values come from the scenario arithmetic itself (tokens per step, cost = hours x price) or from
the definitions stated in engine/timing/model.py; the accuracy against published runs is in
tests/test_speed_accuracy.py.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import gpu_presets, scenario_from_dict
from engine.errors import ScenarioError
from engine.timing import BREAKDOWN_KEYS, model_flops_per_token, step_time

ROOT = Path(__file__).resolve().parent.parent


def _s(**kw):
    base = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "attention": "flash", "precision": "bf16"}
    return scenario_from_dict({**base, **kw})


def test_every_gpu_preset_has_speed_figures():
    """Reports the presets that lack peak FLOP/s, memory bandwidth, network or a source (issue 13)."""
    missing = {g.id: g.missing_speed_fields for g in gpu_presets().values() if g.missing_speed_fields}
    assert not missing, f"GPU presets without speed figures: {missing}"
    for g in gpu_presets().values():
        peaks = dict(g.dense_peak_tflops)
        assert all(v > 0 for v in peaks.values()), g.id
        if g.bf16 and g.vendor == "NVIDIA" and "bf16" in peaks and "fp8" in peaks:
            assert peaks["fp8"] >= peaks["bf16"], g.id  # fp8 tensor cores run at least at the bf16 rate


def test_terms_add_up_and_tokens_follow_the_layout():
    s = _s(gpus_per_node=8, micro_batch=2, grad_accum=4, seq_len=4096, zero_stage=1)
    t = step_time(s)
    assert set(t.breakdown_seconds) == set(BREAKDOWN_KEYS)
    assert sum(t.breakdown_seconds.values()) == pytest.approx(t.step_seconds)
    assert t.tokens_per_step == 2 * 4 * 4096 * 8  # micro x accum x seq x dp
    assert t.tokens_per_second == pytest.approx(t.tokens_per_step / t.step_seconds)
    assert t.tokens_per_second_per_gpu == pytest.approx(t.tokens_per_second / 8)
    assert 0 < t.mfu < 1


def test_time_to_train_hours_and_cost():
    s = _s(gpus_per_node=8, tokens_to_train=10**12, gpu_hour_price=2.0)
    t = step_time(s)
    assert t.time_to_train_seconds == pytest.approx(10**12 / t.tokens_per_second)
    assert t.gpu_hours == pytest.approx(t.time_to_train_seconds * 8 / 3600)
    assert t.cost == pytest.approx(t.gpu_hours * 2.0)
    assert step_time(_s()).time_to_train_seconds is None


def test_model_flops_per_token_definition():
    """6 N (without the input embedding) + 12 L d s, counted by hand for Llama-2-7B (no tied embeddings)."""
    from engine.presets import model_spec_for

    spec = model_spec_for("llama-2-7b")
    n = 6_738_415_616 - 32000 * 4096  # published total minus the input embedding table
    assert model_flops_per_token(spec, 4096) == 6 * n + 12 * 32 * 4096 * 4096


@pytest.mark.parametrize("model", ["llama-3-8b", "qwen3-30b-a3b", "llama-3.1-70b"])
def test_more_gpus_never_slower_per_token_in_pure_dp(model):
    """Pure data parallelism at a fixed per-GPU batch: each doubling of GPUs gives at least as many tokens/s."""
    previous = 0.0
    for world in (1, 2, 4, 8, 16, 32, 64, 128, 256, 1024):
        per_node = min(world, 8)
        s = _s(model=model, gpus_per_node=per_node, nodes=world // per_node, micro_batch=2, grad_accum=2)
        tps = step_time(s).tokens_per_second
        assert tps >= previous, (model, world)
        previous = tps


@pytest.mark.parametrize("extra", [{}, {"method": "lora"}, {"tp": 2, "gpus_per_node": 2}, {"fsdp": True, "gpus_per_node": 8},
                                   {"pp": 2, "gpus_per_node": 2, "grad_accum": 4}, {"attention": "eager"}])
def test_recompute_never_faster(extra):
    times = [step_time(_s(checkpointing=c, **extra)).step_seconds for c in ("none", "selective", "full")]
    assert times[0] <= times[1] <= times[2]


def test_offload_and_zero3_cost_time():
    plain = step_time(_s(gpus_per_node=8)).step_seconds
    assert step_time(_s(gpus_per_node=8, offload="optimizer", zero_stage=2)).step_seconds > plain
    assert step_time(_s(gpus_per_node=8, nodes=4, zero_stage=3)).breakdown_seconds["communication_dp"] >= 0


def test_pipeline_bubble_shrinks_with_micro_batches_and_interleaving():
    def bubble_share(**kw):
        t = step_time(_s(pp=4, gpus_per_node=4, **kw))
        return t.breakdown_seconds["bubble"] / t.step_seconds

    assert bubble_share(grad_accum=16) < bubble_share(grad_accum=4)
    assert bubble_share(grad_accum=8, pp_schedule="interleaved-1f1b", vpp=2) < bubble_share(grad_accum=8)


def test_calibration_scales_every_term():
    base = step_time(_s())
    cal = step_time(_s(time_calibration={"measured_step_seconds": 2 * base.step_seconds,
                                         "predicted_step_seconds": base.step_seconds}))
    assert cal.step_seconds == pytest.approx(2 * base.step_seconds)
    assert cal.calibration_factor == pytest.approx(2.0)
    assert cal.notes


def test_custom_gpu_speed_figures_are_used_and_kept():
    gpu = {"name": "Lab card", "memory_bytes": 48 * 2**30, "bf16_tflops": 100, "memory_bandwidth_bytes_per_s": 1e12}
    s = _s(gpu=gpu)
    assert s.to_dict()["gpu"] == gpu
    slow = step_time(s).step_seconds
    fast = step_time(_s(gpu={**gpu, "bf16_tflops": 400})).step_seconds
    assert fast < slow
    with pytest.raises(ScenarioError):
        _s(gpu={**gpu, "bf16_tflops": -1})


@pytest.mark.parametrize("bad", [{"tokens_to_train": 0}, {"gpu_hour_price": -1}, {"vpp": 0},
                                 {"framework": "jax"}, {"pp_schedule": "zb"}, {"compile": "yes"},
                                 {"intra_node_bandwidth_bytes_per_s": "fast"}, {"time_calibration": {"x": 1}}])
def test_time_keys_are_validated(bad):
    with pytest.raises(ScenarioError):
        _s(**bad)


def test_faster_links_never_slow_down():
    kw = {"gpus_per_node": 8, "nodes": 4, "fsdp": True}
    slow = step_time(_s(inter_node_bandwidth_bytes_per_s=1e9, **kw)).step_seconds
    fast = step_time(_s(inter_node_bandwidth_bytes_per_s=1e11, **kw)).step_seconds
    assert fast <= slow


def test_cli_estimate_json_has_time(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "llama-3-8b", "gpus_per_node": 8, "tokens_to_train": 10**9,
                                "gpu_hour_price": 3}))
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "estimate", "--json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    time = json.loads(out)["time"]
    for key in ("step_seconds", "tokens_per_step", "tokens_per_second", "tokens_per_second_per_gpu", "mfu",
                "breakdown_seconds", "time_to_train_seconds", "gpu_hours", "cost"):
        assert key in time
    assert time["cost"] == pytest.approx(time["gpu_hours"] * 3)
