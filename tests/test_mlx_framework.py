"""The MLX framework rows (engine/frameworks/mlx.py) and their time profile (presets/efficiency.json frameworks mlx,
mlx-2023). Expected values are counted from ml-explore/mlx at 846d176227a0 and ml-explore/mlx-lm at d78bf58e217c (the
files each row's sources name), and from the measured rows of tests/data/published/throughput/mlx-apple-silicon.json."""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows
from engine.frameworks import FRAMEWORKS, defaults_for
from engine.models.presets import get_gpu, gpu_presets
from engine.scenario import scenario_from_dict
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.timing.data import efficiency, framework_profile

BF16 = 2  # bytes per element of the model's dtype


def _scenario(gpu: str, **over):
    base = {"model": "qwen3-0.6b", "gpu": gpu, "framework": "mlx", "method": "lora", "precision": "bf16",
            "lora_targets": "all-linear", "micro_batch": 1, "seq_len": 1024}
    return scenario_from_dict({**base, **over})


def test_mlx_rows_are_registered_with_sources_at_commits():
    for fid in ("mlx", "mlx-2023"):
        assert fid in FRAMEWORKS
        row = defaults_for(fid)
        assert all(("846d176227a0" in where or "d78bf58e217c" in where or "v0.0.6" in where or "27c0a8c0" in where)
                   for _, where in row.sources), fid
    assert defaults_for("mlx-2023").profile == "mlx-2023"


def test_mlx_runs_data_parallelism_only_and_whole_layer_checkpointing():
    """mlx-lm's trainer: average_gradients after the backward (mlx python/mlx/nn/utils.py), mx.checkpoint around whole
    decoder layers (mlx_lm/tuner/trainer.py grad_checkpoint)."""
    row = defaults_for("mlx")
    caps = row.parallelism
    assert (caps.pp_schedules, caps.max_zero, caps.tensor, caps.context, caps.expert) == ((), 0, False, False, False)
    assert row.runs.checkpointings == ("none", "full")
    assert not cannot_run(_scenario("apple-m4-pro-48gb", gpus_per_node=2))  # data parallel: runs
    assert cannot_run(_scenario("apple-m4-pro-48gb", gpus_per_node=2, tp=2))


def test_mlx_is_offered_on_apple_gpus_only():
    """GpuPreset.runs_mlx: Apple silicon (MLX's Metal backend); the framework warns elsewhere."""
    apple = [g for g in gpu_presets() if get_gpu(g).vendor == "Apple"]
    assert apple and all(get_gpu(g).runs_mlx for g in apple)
    assert not get_gpu("h100-sxm-80gb").runs_mlx
    assert not unsupported_settings(_scenario("apple-m4-max-64gb"))
    said = [str(m) for m in unsupported_settings(_scenario("h100-sxm-80gb"))]
    assert said and "Apple GPUs only" in said[0]


def test_mlx_element_wise_bytes_are_its_kernels():
    """Per token, in bf16, counted from mlx-lm's llama.py / qwen3.py: two mx.fast.rms_norm (read + write) and two
    residual adds (two reads, one write) per hidden unit; mx.fast.rope once over q and k; the compiled swiglu reads
    gate and up and writes once; the q/k/v transposes and the attention output's reshape are views (qkv 0)."""
    row = efficiency()["elementwise_bytes_per_token"]["mlx"]
    assert row["hidden"] == 2 * (BF16 + BF16) + 2 * (3 * BF16)
    assert row["qk"] == BF16 + BF16 and row["qk_norm"] == BF16 + BF16
    assert row["mlp"] == 3 * BF16 and row["qkv"] == 0
    # MLX's cross_entropy on bf16 logits: forward max, shift, logsumexp; backward zero-filled scatter, fused gradient
    assert efficiency()["loss_bytes_per_token_per_vocab"]["mlx"] == (BF16 + 2 * BF16 + BF16) + (BF16 + 3 * BF16)
    profile = framework_profile("mlx")
    assert (profile["elementwise"], profile["eager_cross_entropy"], profile["fused_optimizer"]) == ("mlx", "mlx", True)
    assert profile["dp_overlap"] == 0.0  # average_gradients runs after the whole backward
    assert framework_profile("mlx-2023")["elementwise"] == "eager"  # v0.0.6: no mx.compile, no mx.fast


def test_the_measured_mlx_rows_run_under_the_mlx_rows():
    rows = [r for r in load_rows() if r["framework"] == "MLX"]
    frameworks = {r["id"]: r["scenario"]["framework"] for r in rows}
    assert frameworks["mlx-transformer-lm-153m-m3-max-128gb"] == "mlx-2023"  # December 2023, MLX v0.0.6
    assert frameworks["mlx-tune-qwen3-0.6b-lora-4096-m4-pro-48gb"] == "mlx"
    top16 = next(r for r in rows if r["id"] == "mlx-tune-qwen3-0.6b-lora-16-layers-1024-m4-pro-48gb")
    # mlx-tune's table: 2.2 it/s at batch 1 and context 1,024, adapters on 16 of the 28 layers
    assert top16["measured"] == 2.2 * 1024 and top16["scenario"]["lora_layers"] == 16
    for r in rows:
        assert not cannot_run(scenario_from_dict(r["scenario"])), r["id"]
