"""Context parallelism over short slices against more pipeline stages, for the same tokens and FLOPs per GPU
(dgxc-benchmarking's Llama 3.1 70B fp8 on H100: TP 4 x PP 4 x CP 2 x VPP 5 against TP 4 x PP 8 x VPP 5 at 8K): where
the time model's compute differs between the two layouts, and why."""

from __future__ import annotations

import math

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.costs import head_cost, loss_path
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for, stage_time_per_micro_batch

# the two layouts of the pair, as tests/data/published/ holds them (dgxc-benchmarking 25.02.02 and 25.04.02 recipes)
_PAIR = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8, "framework": "megatron",
         "precision": "fp8", "fp8_recipe": "delayed", "micro_batch": 1, "grad_accum": 64, "seq_len": 8192,
         "attention": "flash", "tp": 4, "sequence_parallel": True, "zero_stage": 1, "distributed_optimizer": True,
         "pp_schedule": "interleaved-1f1b", "vpp": 5}


def _stages(pp: int, cp: int) -> tuple[float, float, float, float]:
    """(middle stage compute, last stage compute, the last stage's LM head matmuls, layers a stage) per micro-batch."""
    s = scenario_from_dict({**_PAIR, "pp": pp, "cp": cp})
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    per = spec.layers // pp
    middle = stage_time_per_micro_batch(s, spec, hw, prof, rates, 1, range(0, per))
    last = stage_time_per_micro_batch(s, spec, hw, prof, rates, pp - 1, range(spec.layers - per, spec.layers))
    matmul, _loss = head_cost(spec, s.seq_len / cp, s.tp, rates, loss_path(s, prof))
    return middle.compute, last.compute, 3 * matmul, per


def test_the_lm_head_runs_on_the_cp_ranks_own_tokens_so_cp_halves_the_last_stages_extra_work():
    """Megatron-Core splits the tokens, labels, loss mask and position ids of a micro-batch over the CP ranks
    (megatron/core/utils.py get_batch_on_this_cp_rank at core_r0.9.0: 2 x cp chunks, rank r keeping r and
    2cp - 1 - r), so the output layer and its loss run on seq / cp tokens a rank. The last stage's compute is its
    layers' plus the head's forward and backward (3 x the head matmul): at CP 2 the head is half CP 1's. With PP 8
    it sits on 10 layers, with PP 4 x CP 2 on 20 layers of half the tokens, which is why the time model's
    "Matmuls and attention" term of the PP 8 layout is larger (the busiest stage sets the step)."""
    mid2, last2, head2, _ = _stages(4, 2)
    mid1, last1, head1, _ = _stages(8, 1)
    assert math.isclose(last2 - mid2, head2, rel_tol=1e-9) and math.isclose(last1 - mid1, head1, rel_tol=1e-9)
    assert math.isclose(head2, head1 / 2, rel_tol=0.01)  # the same GEMM over half the rows (whole tiles: +-1%)
    # the head is a larger share of the PP 8 stage: what separates the two layouts' compute
    assert head1 / mid1 > 1.8 * head2 / mid2


def test_a_middle_stage_at_cp_2_costs_no_less_per_layer_and_token_than_at_cp_1():
    """The same work split two ways: 20 layers x 4,096 tokens (CP 2) against 10 x 8,192 (CP 1). The GEMMs do the same
    FLOPs; the ring's attention calls are half the work each (Transformer Engine AttnFuncWithCPAndKVP2P at v1.13:
    one causal diagonal call and cp - 1 calls without a mask), and Hopper's cuDNN runs a smaller causal call slower
    (NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/h200_919_only_cudnn at 3929da2: causal 4,096 vs
    8,192 tokens at 591 / 644 TFLOPS forward), so per layer and token CP 2 can only cost more, never less."""
    mid2, _last2, _h2, per2 = _stages(4, 2)
    mid1, _last1, _h1, per1 = _stages(8, 1)
    assert per2 == 2 * per1
    assert mid2 >= mid1


def test_zero_2_reduce_scatters_every_micro_batch_where_zero_1_reduces_once_a_step():
    """ZeRO-2 keeps only its shard of the gradients (the memory model shards them and keeps them across accumulation
    steps), so each micro-batch's gradients are reduce-scattered in its own backward: DeepSpeed stage 2
    (deepspeedai/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py: partition_gradients registers the reduce hooks)
    and Megatron-FSDP optim_grads (NVIDIA/Megatron-LM megatron/core/distributed/fsdp/src/megatron_fsdp/
    megatron_fsdp.py at d98e8a64: 'With gradient-sharding strategies, gradient reduction occurs on every backward
    propagation'). With one micro-batch a step the two are the same; with 64 ZeRO-2 reduces 64 times and cannot hide
    more per micro-batch than ZeRO-1 hides once. This is what ranked Fastest layouts' TP 4 x CP 4 plans of Llama 3.1
    405B on 512 H100s first: they fit only with ZeRO-2 (124 GB a GPU with ZeRO-1) and were timed as ZeRO-1."""
    from engine.timing.model import step_time

    base = {**_PAIR, "model": "llama-3.1-405b", "nodes": 64, "tp": 4, "cp": 4, "pp": 8, "vpp": 8,
            "precision": "bf16", "fp8_recipe": "auto"}
    del base["fp8_recipe"]

    def dp(zero: int, ga: int) -> float:
        return step_time(scenario_from_dict({**base, "zero_stage": zero, "grad_accum": ga})).breakdown_seconds[
            "communication_dp"]

    assert math.isclose(dp(2, 1), dp(1, 1))
    assert dp(2, 64) > 10 * dp(1, 64)
