"""Megatron-LM of 2022 to mid-2023 (framework megatron-2022): Megatron's memory facts, a time profile whose
data-parallel collectives run with no compute beside them, as NVIDIA/Megatron-LM megatron/training.py train_step at
285068c8 (the commit arXiv:2402.15627 measured) runs them: forward_backward_func over every micro-batch, then
optimizer.reduce_model_grads (the distributed optimizer's reduce-scatter), the step, then gather_model_params."""

import copy
import json
from pathlib import Path

from engine.frameworks.defaults import FRAMEWORKS, TABLE
from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.data import framework_profile

PART = Path(__file__).parent / "data" / "published" / "throughput" / "megascale-2024.json"


def _row(row_id: str) -> dict:
    return next(r for r in json.loads(PART.read_text(encoding="utf-8"))["rows"] if r["id"] == row_id)


def test_the_profile_hides_no_data_parallel_collective():
    assert "megatron-2022" in FRAMEWORKS and TABLE["megatron-2022"].profile == "megatron-2022"
    assert any("285068c8" in where for _, where in TABLE["megatron-2022"].sources)
    # arguments.py at 285068c8: no --tp-comm-overlap; --transformer-impl defaults to local (no TE modules)
    assert not TABLE["megatron-2022"].tp_comm_overlap and TABLE["megatron-2022"].tp_async_backward
    now, then = framework_profile("megatron"), framework_profile("megatron-2022")
    assert then["dp_overlap"] == 0.0 and then["pipeline_reduce_after_schedule"] and then["zero_gather_after_step"]
    assert not then.get("te_module_host") and now["te_module_host"]
    # every other column is Megatron's
    # and its pipeline exchange (megatron/p2p_communication.py at 285068c8: split over the TP ranks without sequence
    # parallelism, torch.cuda.synchronize() after every exchange, interleaved or not; engine/timing/p2p_exchange.py)
    assert then["pipeline_p2p_split_over_tp"] and then["pipeline_p2p_synchronize"] is True
    # and its loss: 285068c8 predates --cross-entropy-loss-fusion, so the unfused vocab-parallel kernels on
    # output.float() run (megatron/core/tensor_parallel/cross_entropy.py; tests/test_megatron_unfused_loss.py)
    assert then["eager_cross_entropy"] == "megatron-vocab-parallel"
    # and its eager attention: ParallelAttention at bbab79f86907 / 285068c8 (FusedScaleMaskSoftmax with its key length
    # up to 4,096), at the A100's measured eager rate (presets/efficiency.json eager_attention_softmax
    # _source_megatron-lm; tests/test_megatron_a100_anchors.py)
    assert then["eager_softmax"] == "megatron-lm-2022" and then["eager_attention_measured"] is True
    # and the passes its step runs around FusedAdam (bbab79f86907 / 285068c8: zero_grad_buffer's zero_ 4 bytes a
    # parameter, the fp32 buffer's /= data-parallel size 4 + 4, multi_tensor_l2norm 4, the main-to-model copy 4 + 2)
    assert then["step_bytes_per_param"] == 4 + (4 + 4) + 4 + (4 + 2)
    differ = {"dp_overlap", "pipeline_reduce_after_schedule", "zero_gather_after_step", "te_module_host",
              "pipeline_p2p_split_over_tp", "pipeline_p2p_synchronize", "eager_cross_entropy", "eager_softmax",
              "eager_attention_measured", "_eager_attention_measured_source", "step_bytes_per_param",
              "_step_bytes_per_param_source", "step_grad_buffer_passes", "step_main_grad_cast",
              "step_fp16_unscale_bytes_per_param"}
    assert {k: v for k, v in now.items() if k not in differ} == {k: v for k, v in then.items() if k not in differ}


def test_the_data_parallel_collectives_cost_at_least_their_bytes_at_link_rate():
    row = _row("megascale-megatron-lm-gpt-175b-12288gpus-gbs6144")
    sc = row["scenario"]
    dp = 12288 // (sc["tp"] * sc["pp"])
    h, layers = sc["model"]["hf_config"]["n_embd"], sc["model"]["hf_config"]["n_layer"]
    per_rank = 12 * layers * h * h / (sc["tp"] * sc["pp"])  # the decoder layers' weights alone, a lower bound
    # ring reduce-scatter of fp32 gradients (grad_reduce_fp32) and all-gather of bf16 weights over dp ranks at the
    # a100-80gb preset's 25 GB/s per GPU (presets/gpus.json network_bandwidth_bytes_per_s)
    bound = (dp - 1) / dp * per_rank * (4 + 2) / 25e9
    then = step_time(scenario_from_dict(sc)).breakdown_seconds["communication_dp"]
    assert then >= bound, (then, bound)
    today = copy.deepcopy(sc)
    today["framework"] = "megatron"  # today's Megatron-Core overlaps them with the backward and the forward
    assert step_time(scenario_from_dict(today)).breakdown_seconds["communication_dp"] < then
