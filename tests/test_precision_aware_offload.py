"""Where Megatron's fp32 master weights live under the optimizer CPU offload (engine/memory/hybrid_offload.py).

Sources: NVIDIA/Megatron-LM at 23265d2d (the Megatron-LM that Megatron-Bridge a59fb46a pins for the skills offload
runs): optimizer_config.py lines 398-404 (use_precision_aware_optimizer with optimizer_cpu_offload takes the
precision-aware path), distrib_optimizer.py lines 394-424 and 462-465 (no fp32 shard on that path, the bf16 shards
go to the optimizer), optimizer/__init__.py line 540 (HybridDeviceOptimizer(param_update_in_fp32=True)),
cpu_offloading/hybrid_optimizer.py lines 273-279 (the offloaded share cloned to pinned CPU memory, then to fp32 there;
the rest cloned to fp32 on the GPU); megatron/training/arguments.py lines 1553-1557 (the command line requires
--use-precision-aware-optimizer with --optimizer-cpu-offload). Without the flag (Megatron-Core's default, which
Megatron-Bridge's recipes keep) the distributed optimizer's fp32 shards stay on the GPU: the skills card's rows
(tests/test_hybrid_offload.py) hold that case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.configs import import_files, import_texts
from engine.memory.estimate import estimate
from engine.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parent
SWIFT_72B = ROOT / "data" / "configs" / "ms-swift" / "megatron_72b_offload.sh"
BRIDGE_ROWS = ROOT / "data" / "published" / "throughput" / "megatron-bridge-skills-offload.json"
GIB = 2**30
# Qwen2.5-72B's parameter count (presets/models/qwen2.5-72b.json published_params, safetensors metadata)
QWEN25_72B_PARAMS = 72_706_203_648


def _states(s) -> dict[str, float]:
    return {c.key: c.moments.optimizer for c in estimate(s).stages[0].components if c.category == "model states"}


def _swift_72b(**changes):
    result = import_files([SWIFT_72B])
    counts = {a.key: a.value for a in result.assumed if a.key in ("gpus_per_node", "nodes")}
    return scenario_from_dict({**counts, **result.scenario, **changes})


def test_ms_swift_72b_offload_keeps_no_fp32_master_weights_on_the_gpu() -> None:
    # --optimizer_cpu_offload true, --use_precision_aware_optimizer true, --optimizer_offload_fraction 1 (file lines
    # 33-35) with TP 8 on 8 GPUs (line 11): DP 1, the whole shard on the CPU
    s = _swift_72b()
    assert s.precision_aware_optimizer and s.optimizer_offload_fraction == 1.0 and s.tp == 8
    # hand count of what used to stay: 72,706,203,648 params / TP 8 x 4 bytes = 33.86 GiB of fp32 master weights
    # (norms replicated over TP ranks add a few MiB)
    before = _states(_swift_72b(precision_aware_optimizer=False))
    assert before["master_weights"] / GIB == pytest.approx(QWEN25_72B_PARAMS / 8 * 4 / GIB, rel=0.005)
    after = _states(s)
    assert after.get("master_weights", 0.0) == 0.0
    # the bf16 weights and the fp32 main-gradient buffer stay whole (the precision-aware path reads main_grad as
    # decoupled_grad: distrib_optimizer.py lines 2488-2494), the moments leave with the master weights
    for key in ("weights", "gradients"):
        assert after[key] == before[key]
    assert after["gradients"] / GIB == pytest.approx(QWEN25_72B_PARAMS / 8 * 4 / GIB, rel=0.005)
    assert not after.get("optimizer_states") and not before.get("optimizer_states")


@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.75])
def test_the_master_weights_leave_in_the_offloaded_share(fraction: float) -> None:
    # hybrid_optimizer.py lines 273-279: the first `fraction` of the shard's elements are cloned to the CPU (their
    # fp32 copy made there); the rest's fp32 clone is on the GPU. Without the flag all of them stay.
    rows = {r["id"].rsplit("-", 1)[-1]: r for r in json.loads(BRIDGE_ROWS.read_text(encoding="utf-8"))["rows"]}
    base = {**rows["baseline"]["scenario"], "offload": "optimizer", "optimizer_offload_fraction": fraction}
    kept = _states(scenario_from_dict(base))
    aware = _states(scenario_from_dict({**base, "precision_aware_optimizer": True}))
    assert aware["master_weights"] == pytest.approx(kept["master_weights"] * (1 - fraction))
    assert aware["optimizer_states"] == pytest.approx(kept["optimizer_states"])
    assert aware["gradients"] == kept["gradients"] and aware["weights"] == kept["weights"]


def test_the_flag_alone_changes_nothing_without_the_hybrid_offload() -> None:
    # no optimizer_cpu_offload: TE's FusedAdam keeps its own fp32 master copy on the GPU (the planner's usual count)
    s = _swift_72b(offload="none", optimizer_offload_fraction=0.0)
    assert _states(s) == _states(_swift_72b(offload="none", optimizer_offload_fraction=0.0,
                                            precision_aware_optimizer=False))


def test_read_from_megatron_lm_flags_and_bridge_overrides() -> None:
    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --micro-batch-size 1 "
              "--global-batch-size 32 --seq-length 4096 --bf16 --use-distributed-optimizer {extra}\n")
    r = import_texts([("train.sh", script.format(
        extra="--use-precision-aware-optimizer --optimizer-cpu-offload --optimizer-offload-fraction 0.5"))])
    assert r.scenario["precision_aware_optimizer"] is True
    # Megatron-Bridge: OptimizerConfig's default False unless the override sets it
    r = import_texts([("train.sh", script.format(
        extra="optimizer.optimizer_cpu_offload=True optimizer.optimizer_offload_fraction=0.5"))])
    assert r.scenario["optimizer_offload_fraction"] == 0.5 and "precision_aware_optimizer" not in r.scenario
    r = import_texts([("train.sh", script.format(
        extra="optimizer.optimizer_cpu_offload=True optimizer.optimizer_offload_fraction=0.5 "
              "optimizer.use_precision_aware_optimizer=True"))])
    assert r.scenario["precision_aware_optimizer"] is True


def test_bf16_main_gradients_add_the_gpu_shares_fp32_gradient_copies() -> None:
    """hybrid_optimizer.py at 23265d2d lines 84-94: each step sets fp32_param.grad = grad.to(fp32) for the GPU share's
    clones; zero_grad (lines 440-450) never clears them. With bf16 main gradients that is a new fp32 tensor the size of
    the GPU share's master weights; with fp32 main gradients .to(fp32) is the buffer itself."""
    half = _swift_72b(optimizer_offload_fraction=0.5)
    bf16_grads = _states(half.replace(main_grads_fp32=False))
    fp32_grads = _states(half.replace(main_grads_fp32=True))
    assert "hybrid_fp32_grads" not in fp32_grads
    # hand count: 72,706,203,648 / TP 8 x 4 bytes x (1 - 0.5) = 16.93 GiB, the GPU share's fp32 master weights
    assert bf16_grads["hybrid_fp32_grads"] == bf16_grads["master_weights"]
    assert bf16_grads["hybrid_fp32_grads"] / GIB == pytest.approx(QWEN25_72B_PARAMS / 8 * 4 * 0.5 / GIB, rel=0.005)
    # the whole shard on the CPU (the file's fraction 1) or no precision-aware optimizer: none
    assert "hybrid_fp32_grads" not in _states(_swift_72b(main_grads_fp32=False))
    assert "hybrid_fp32_grads" not in _states(half.replace(main_grads_fp32=False, precision_aware_optimizer=False))
