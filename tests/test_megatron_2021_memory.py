"""What 2021 Megatron-LM (framework megatron-2021) keeps that Megatron-Core does not. Expected values from
NVIDIA/Megatron-LM at de7dc40f88 (2021-08-10, the commit that added examples/sc21; engine/frameworks/megatron_2021.py
cites the lines):

* without a contiguous gradient buffer (fp16 without --accumulate-allreduce-grads-in-fp32, as examples/sc21/CONFIG.sh
  runs), LocalDDP.allreduce_gradients sets param.main_grad = param.grad and the next step's zero_grad(set_to_none)
  drops param.grad only: the last step's fp16 gradients stay allocated through the next forward and backward, one
  more copy of the stage's gradients (trainable parameters x 2 bytes);
* megatron/schedules.py keeps every sent stage output in output_tensors until its backward: one b·s·h fp16 tensor per
  model-chunk forward in flight (1F1B: pp - stage on stage `stage`), none for the last chunk's (the loss).

The model is GPT-3 175B as the SC21 paper runs it (arXiv:2104.04473 Table 2: hidden 12,288, sequence 2,048,
micro-batch 1, TP 8)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows

S, B, H = 2048, 1, 12288
OUTPUT = S * B * H * 2  # one stage output, fp16
ROW = "megatron-sc21-table2-ptdp-gpt-174.6b-384xa100"  # TP 8, PP 12, DP 4, 384 micro-batches, full recompute


def _estimate(**over):
    row = next(r for r in load_rows() if r["id"] == ROW)
    return estimate(scenario_from_dict({**row["scenario"], **over}))


def _component(stage, key: str):
    return next((c for c in stage.components if c.key == key), None)


def test_the_last_steps_gradients_stay_until_the_next_all_reduce():
    e = _estimate()
    for stage in e.stages:
        grads, last = _component(stage, "gradients"), _component(stage, "last_step_gradients")
        assert last is not None and last.moments.backward_end == pytest.approx(grads.moments.backward_end)
        assert last.moments.forward == last.moments.backward_start == last.moments.backward_end
        assert last.moments.optimizer == 0.0  # allreduce_gradients has pointed main_grad at the new gradients
    # the middle stage's 8 layers of 12 h^2 + 13 h parameters over TP 8, fp16 (the biases of the row-parallel
    # linears and the norms are whole on every TP rank: at most 5 h per layer more)
    middle = _component(e.stages[5], "last_step_gradients").moments.backward_end
    assert 8 * (12 * H * H + 13 * H) / 8 * 2 <= middle <= 8 * ((12 * H * H + 13 * H) / 8 + 5 * H) * 2


def test_no_second_copy_with_the_fp32_contiguous_buffer_or_in_megatron_core():
    """--accumulate-allreduce-grads-in-fp32 turns the contiguous buffer on (arguments.py lines 153-155 at de7dc40f88),
    whose main_grad views are zeroed, not replaced; Megatron-Core always has that buffer."""
    for e in (_estimate(main_grads_fp32=True), _estimate(framework="megatron")):
        assert all(_component(stage, "last_step_gradients") is None for stage in e.stages)


@pytest.mark.parametrize(("stage", "kept"), [(0, 24), (1, 23), (22, 2), (23, 0)])
def test_sent_outputs_stay_while_their_micro_batch_is_in_flight(stage: int, kept: int):
    """TP 8 x PP 24 without recomputation (the like-for-like first plan of benchmarks/famous_runs.py): 1F1B keeps
    pp - stage micro-batches in flight (num_warmup_microbatches = pp - rank - 1, then one forward before the first
    backward); the last stage's output is the loss."""
    e = _estimate(pp=24, grad_accum=768, checkpointing="none")
    c = _component(e.stages[stage], "pp_sent_outputs")
    assert (c.moments.forward if c is not None else 0.0) == pytest.approx(kept * OUTPUT)


def test_interleaved_sent_outputs_count_chunk_forwards():
    """VPP 2 on PP 12: rank r warms up with (vpp - 1) pp + 2 (pp - 1 - r) chunk forwards and runs one more before its
    first backward (schedules.py forward_backward_pipelining_with_interleaving): 35 on rank 0; the last rank's 13 are
    12 through chunk 0 and one through chunk 1, the last model chunk, whose output is the loss (get_model_chunk_id:
    pp micro-batches through a chunk before the next)."""
    e = _estimate(pp=12, vpp=2, pp_schedule="interleaved-1f1b", checkpointing="none")
    assert _component(e.stages[0], "pp_sent_outputs").moments.forward == pytest.approx(35 * OUTPUT)
    assert _component(e.stages[11], "pp_sent_outputs").moments.forward == pytest.approx(12 * OUTPUT)


def test_megatron_core_frees_its_sent_outputs():
    e = _estimate(framework="megatron", pp=24, grad_accum=768, checkpointing="none")
    assert all(_component(stage, "pp_sent_outputs") is None for stage in e.stages)
