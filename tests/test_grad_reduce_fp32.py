"""Llama 3 405B's pre-training as its paper states it (arXiv:2407.21783 section 3.3.2): (1) gradients reduce-scattered
in FP32 across the data-parallel workers (scenario key grad_reduce_fp32, engine/timing/grad_reduce.py); (2) the
interleaved schedule whose first chunk on the first rank holds only the embedding and whose last chunk on the last
rank holds only the output projection and loss, which makes each chunk one layer: V = (126 + 2) / 16 = 8."""

from __future__ import annotations

import dataclasses

from engine.accuracy.published_throughput import load_rows
from engine.memory.parallelism.pipeline import megatron_stage_layers, scenario_stage_ranges
from engine.memory.states import dtypes_for
from engine.planning.speed_search import speed_search
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.data import framework_profile
from engine.timing.grad_reduce import grad_reduce_bytes

META_8K_16384 = "meta-llama3-405b-16384gpu-seq8192"


def _row(row_id: str) -> dict:
    return next(r for r in load_rows() if r["id"] == row_id)


def _bytes(framework: str, flag: bool | str, main_grads_fp32: bool | str = "auto") -> int:
    s = scenario_from_dict({"model": "llama-3-8b", "framework": framework, "precision": "mixed-bf16",
                            "grad_reduce_fp32": flag, "main_grads_fp32": main_grads_fp32})
    return grad_reduce_bytes(s, framework_profile(s.framework), dtypes_for(s))


def test_reduce_dtype_follows_the_key_or_the_framework():
    # mixed-bf16 keeps bf16 gradients (engine/memory/states.py: 2 bytes). Megatron reduces the buffer it accumulates
    # them in, one setting for both (NVIDIA/Megatron-LM at d98e8a64: arguments.py line 1216 turns
    # accumulate_allreduce_grads_in_fp32 on for bf16, param_and_grad_buffer.py line 924 makes that buffer fp32): fp32
    # (4 bytes) with its default fp32 main grads, the gradients' 2 bytes where main_grads_fp32 is off (Megatron-Bridge
    # recipes with grad_reduce_in_fp32 False) unless the scenario says fp32; torchtitan's FSDP2 reduces in fp32 by
    # default (presets/efficiency.json frameworks torchtitan grad_reduce_bytes 4: training.mixed_precision_reduce
    # "float32") unless told not to
    assert _bytes("megatron", "auto") == 4
    assert _bytes("megatron", "auto", main_grads_fp32=False) == 2
    assert _bytes("megatron", True, main_grads_fp32=False) == 4
    assert _bytes("megatron", False) == 2
    assert _bytes("torchtitan", "auto") == 4
    assert _bytes("torchtitan", False) == 2


def test_fp32_reduce_costs_the_llama3_row_more_data_parallel_time():
    # ZeRO-2 reduce-scatters every micro-batch's gradients (data_parallel._reduce_scatter_seconds): in fp32 twice the
    # bytes of bf16. On Hopper each costs the compute it displaces at half rate or what its micro-batch does not hide,
    # whichever is more (contention.contended): 0.32 s in fp32 against a 0.24 s window costs its half, 0.16 s, as the
    # bf16 one (0.16 s, hidden) costs 0.08 s, so the per-micro-batch part doubles; the step's other data-parallel
    # seconds (the collectives' latencies among them) do not double: the term grows by 1.5-2x (1.71x when written)
    s = scenario_from_dict(_row(META_8K_16384)["scenario"])
    assert s.grad_reduce_fp32 is True
    fp32 = step_time(s).breakdown_seconds["communication_dp"]
    bf16 = step_time(dataclasses.replace(s, grad_reduce_fp32=False)).breakdown_seconds["communication_dp"]
    assert 2 * bf16 > fp32 > 1.5 * bf16 > 0


def test_llama3_405b_chunks_hold_one_layer_each():
    # 126 layers + the embedding + the loss over PP 16 x V 8 chunks (Megatron's account_for_embedding/loss split,
    # megatron/core/transformer/transformer_block.py get_num_layers_to_build): one layer a chunk, one fewer on the
    # first and last ranks, 7 + 14 x 8 + 7 = 126 (the paper: 'we reduce one Transformer layer each from the first
    # and the last stages')
    s = scenario_from_dict(_row(META_8K_16384)["scenario"])
    layers = resolve_model(s).layers
    assert (layers, s.pp, s.vpp, s.pp_schedule) == (126, 16, 8, "interleaved-1f1b")
    assert (layers + 2) // (s.pp * s.vpp) == 1
    assert megatron_stage_layers(s, layers) == [7] + [8] * 14 + [7]
    assert [len(r) for r in scenario_stage_ranges(s, layers)] == [7] + [8] * 14 + [7]


def test_the_search_keeps_the_fp32_reduce():
    # benchmarks/famous_runs.py searches from the row's scenario: its plans vary the layout, not how the run reduces
    plans = speed_search(scenario_from_dict(_row(META_8K_16384)["scenario"])).plans
    assert plans and all(p.scenario.grad_reduce_fp32 is True for p in plans)
