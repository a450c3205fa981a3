"""Megatron-LM as the SC21 paper ran it (framework megatron-2021): Megatron's memory facts, a time profile whose
tensor-parallel all-reduces are all exposed and whose micro-batches add their gradients in a pass of their own.
Expected values from NVIDIA/Megatron-LM's history: megatron/mpu/layers.py at de7dc40f88 (2021-08-10, the commit that
added examples/sc21) has no asynchronous all-reduce (ColumnParallelLinear.forward: copy_to_tensor_model_parallel_region
then F.linear); it came at cf7efd4f5a (2021-08-30, --async-tensor-parallel-allreduce, off by default); gradient
accumulation fusion came at 83b1e42f30 (2022-02-13)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import FRAMEWORKS, TABLE
from engine.timing import step_time
from engine.timing.data import framework_profile

ROW = "megatron-sc21-table1-gpt-18.4b-256xa100"  # TP 8, PP 1, micro-batch 8, full recompute


def _row_scenario(**over) -> dict:
    row = next(r for r in load_rows() if r["id"] == ROW)
    return {**row["scenario"], **over}


def test_the_2021_profile_differs_from_megatrons_only_where_2021_code_did():
    assert "megatron-2021" in FRAMEWORKS and TABLE["megatron-2021"].profile == "megatron-2021"
    assert any("de7dc40f88" in where for _, where in TABLE["megatron-2021"].sources)
    now, then = framework_profile("megatron"), framework_profile("megatron-2021")
    assert not (TABLE["megatron-2021"].tp_async_backward or TABLE["megatron-2021"].tp_comm_overlap)
    assert TABLE["megatron"].tp_async_backward and then["grad_accumulation_passes"] == 3
    assert not then["wgrad_into_main_grad"]
    # no Transformer Engine modules in 2021 (de7dc40f88's layers are megatron/mpu/layers.py's own), so none of the TE
    # module host work counted from Megatron-Core's TE spec (presets/host_overhead.json te_modules)
    assert not then.get("te_module_host")
    # the pipeline exchange: split over the TP ranks, synchronised in every schedule (megatron/p2p_communication.py
    # at de7dc40f88; engine/timing/p2p_exchange.py), where Megatron-Core synchronises without interleaving only
    assert then["pipeline_p2p_split_over_tp"] and then["pipeline_p2p_synchronize"] is True
    # the loss: de7dc40f88 has only megatron/mpu/cross_entropy.py's unfused kernels on output.float()
    # (tests/test_megatron_unfused_loss.py); Megatron's current rows may run a fused one
    assert then["eager_cross_entropy"] == "megatron-vocab-parallel"
    # the eager attention: de7dc40f88's ParallelAttention (baddbmm, FusedScaleMaskSoftmax with its key length up to
    # 2,048, dropout, bmm), at the A100's measured eager rate (presets/efficiency.json eager_attention_softmax
    # _source_megatron-lm; tests/test_megatron_a100_anchors.py)
    assert then["eager_softmax"] == "megatron-lm-2021" and then["eager_attention_measured"] is True
    # the data-parallel all-reduce: SC21's pipeline runs are --DDP-impl local (examples/sc21/run_table_1.sh,
    # run_figure_*.sh), all-reducing in train_step after the whole schedule (training.py lines 365-369)
    assert then["pipeline_reduce_after_schedule"] is True
    # the passes its step runs around FusedAdam (h-review21, de7dc40f88, fp16 without grad buffers): under local DDP
    # distributed.py's flatten 2 + 2, /= dp 2 + 2 and copy back 2 + 2 of the fp16 gradients; then main_grad.float()
    # 2 + 4, the fp16 scaler's unscale and inf check 4 + 4, multi_tensor_l2norm 4, the main-to-model copy 4 + 2; at
    # pipeline size 1 (torch DDP, which averages in its backward buckets) all but the first three
    assert then["step_bytes_per_param"] == (2 + 2) + (2 + 2) + (2 + 2) + (2 + 4) + (4 + 4) + 4 + (4 + 2)
    assert then["step_bytes_per_param_no_pipeline"] == (2 + 4) + (4 + 4) + 4 + (4 + 2)
    differing = {k for k in set(now) | set(then) if now.get(k) != then.get(k)}
    assert differing == {"grad_accumulation_passes", "wgrad_into_main_grad", "te_module_host",
                         "pipeline_p2p_split_over_tp", "pipeline_p2p_synchronize", "eager_cross_entropy",
                         "eager_softmax", "eager_attention_measured", "_eager_attention_measured_source",
                         "pipeline_reduce_after_schedule", "_pipeline_reduce_after_schedule_source",
                         "step_bytes_per_param", "step_bytes_per_param_no_pipeline", "_step_bytes_per_param_source",
                         # Megatron-Core's gradient buffer (zero_grad_buffer, its norm check, the fp32 view or cast
                         # of the main gradients) and grad scaler: 2021's code had neither (tests/test_mcore_step.py)
                         "step_grad_buffer_passes", "step_main_grad_cast", "step_fp16_unscale_bytes_per_param"}


def test_the_step_passes_follow_the_ddp_the_scripts_run():
    """SC21's step passes (presets/efficiency.json megatron-2021 step_bytes_per_param): 36 bytes a parameter under
    pipelining (local DDP), 24 without (torch DDP), against Megatron-Core's (megatron step_bytes_per_param 10, fp16's
    unscale 8, the cast of this row's 2-byte gradient buffer (main_grads_fp32 false) to fp32 2 + 4, and the buffer's
    zeroing and norm check 2 x 2 over every parameter the rank holds, which without ZeRO is every one it steps: 28):
    the 18.4B row's optimizer term differs by exactly (24 - 28) bytes per owned parameter at the A100's memory rate
    at PP 1, and by more a parameter at PP 2 (36 - 28, over the busiest stage's parameters, which hold the
    embedding). SC21's 16 rows +7.4% -> +6.9% median signed (docs/speed-accuracy.md)."""
    from engine.scenario import resolve_model
    from engine.timing import hardware_for

    extra = {}
    for pp in (1, 2):
        over = {"pp": pp, "nodes": 32 * pp}
        now, then = (step_time(scenario_from_dict(_row_scenario(framework=fw, **over))) for fw in
                     ("megatron", "megatron-2021"))
        s = scenario_from_dict(_row_scenario(**over))
        owned = resolve_model(s).total_params / (s.tp * pp)
        extra[pp] = ((then.breakdown_seconds["optimizer"] - now.breakdown_seconds["optimizer"]) / owned
                     * hardware_for(s).memory_bytes_per_s)
    megatron_core = 10 + 8 + (2 + 4) + 2 * 2
    assert extra[1] == pytest.approx(24 - megatron_core, abs=0.02)
    assert 36 - megatron_core <= extra[2] <= (36 - megatron_core) * 1.1


def test_memory_is_megatrons_but_a_second_copy_of_the_gradients():
    """The row runs fp16 without a contiguous gradient buffer: 2021's LocalDDP keeps the last step's gradients in
    param.main_grad (tests/test_megatron_2021_memory.py; under this row's --DDP-impl torch, PyTorch 1.8's DDP buckets
    hold the same bytes: gradient_as_bucket_view defaults to False). With the fp32 contiguous buffer
    (main_grads_fp32) the memory is Megatron-Core's."""
    now, then = (estimate(scenario_from_dict(_row_scenario(framework=fw))) for fw in ("megatron", "megatron-2021"))
    assert {c.key for c in then.components} - {c.key for c in now.components} == {"last_step_gradients"}
    now, then = (estimate(scenario_from_dict(_row_scenario(framework=fw, main_grads_fp32=True)))
                 for fw in ("megatron", "megatron-2021"))
    assert then.total_bytes == now.total_bytes


def test_every_tensor_parallel_all_reduce_is_exposed():
    """2021's code hid none of its 6 all-reduces a layer and micro-batch (full recompute); today's Megatron-Core
    starts the QKV and fc1 input gradients' all-reduces asynchronously beside their weight-gradient GEMMs
    (LinearWithGradAccumulationAndAsyncCommunication; engine/timing/tp_overlap.py), so it hides at most those two
    (exposed >= 4/6 of 2021's) and at least fc1's, whose wgrad GEMM (4h / tp = 3,072 columns over 16,384 tokens) is
    longer than the all-reduce of the 16,384 x 6,144 activation (exposed < 5/6)."""
    now, then = (step_time(scenario_from_dict(_row_scenario(framework=fw))).breakdown_seconds
                 for fw in ("megatron", "megatron-2021"))
    assert 4 / 6 <= now["communication_tp"] / then["communication_tp"] < 5 / 6


def test_sc21s_megatron_rows_run_the_2021_profile():
    rows = [r for r in load_rows() if r["id"].startswith("megatron-sc21-")]
    megatron = [r for r in rows if "zero3" not in r["id"]]
    assert len(megatron) == 16
    assert all(r["scenario"]["framework"] == "megatron-2021" for r in megatron)
