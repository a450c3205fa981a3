"""DeepSpeed's BF16_Optimizer (bf16 without ZeRO) in the memory and time models, each expected value from DeepSpeed's
source (microsoft/DeepSpeed deepspeed/runtime/bf16_optimizer.py, pipe/engine.py, engine.py at 15293139f, 2022-02-28)
or from BigScience's chronicle of the runs that used it (bigscience-workshop/bigscience train/tr11-176B-ml/
chronicles-prequel.md at 9e64ede, section 'Rebalancing layers')."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.memory.estimate import estimate
from engine.memory.states import dtypes_for
from engine.scenario import resolve_model
from engine.scenario.behaviour import bf16_optimizer
from engine.timing.bf16_optimizer import MICRO_BATCH_BYTES_PER_PARAM, STEP_BYTES_PER_PARAM, kept_gradients_seconds
from engine.timing.data import framework_profile
from engine.timing.data_parallel import accumulation_seconds, data_parallel_seconds
from engine.timing.expert_shards import sharded_trainable
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for
from tests.stage_work import StageStub as _Stage


def _s(**kw):
    base = {"model": "llama-3-8b", "gpu": "a100-80gb", "precision": "mixed-bf16", "framework": "deepspeed",
            "gpus_per_node": 8, "nodes": 4, "tp": 8, "pp": 2, "micro_batch": 1, "grad_accum": 16, "seq_len": 2048,
            "zero_stage": 0, "optimizer": "adamw"}  # torch's AdamW (DeepSpeed's own, FusedAdam, keeps no temporary)
    return scenario_from_dict({**base, **kw})


def _parts(s):
    hw = hardware_for(s)
    prof = framework_profile(s.framework)
    return hw, prof, rates_for(s, hw, prof), dtypes_for(s)


def test_deepspeed_takes_bf16_optimizer_for_bf16_without_zero():
    """DeepSpeedEngine._configure_optimizer: ZeRO's optimizer for stage >= 1, else FP16_Optimizer for fp16, else
    BF16_Optimizer for bf16 (engine.py at 15293139f); DeepSpeed of April 2021 had none, and other frameworks' bf16
    without ZeRO is DDP's."""
    assert bf16_optimizer(_s())
    assert not bf16_optimizer(_s(zero_stage=1))
    assert not bf16_optimizer(_s(precision="mixed-fp16"))
    assert not bf16_optimizer(_s(framework="deepspeed-2021"))
    assert not bf16_optimizer(_s(framework="megatron"))


def test_each_micro_batch_adds_its_bf16_gradients_into_fp32_ones():
    """update_hp_grads runs hp_grad.data.add_(lp.grad.data.to(torch.float32)) after every micro-batch's backward
    (clear_lp_grads first, so autograd adds nothing in bf16): 2 read + 4 written by the cast, 4 + 4 read and 4 written
    by the add; once a step the reduce's casts and average (4 + 2, 2 + 2, 2 + 4), the norm's read (4) and
    clear_hp_grads' zero_ (4)."""
    assert MICRO_BATCH_BYTES_PER_PARAM == 18
    assert STEP_BYTES_PER_PARAM == 24
    s = _s()
    hw, prof, rates, dt = _parts(s)
    expected = (16 * 18 + 24) * _Stage.trainable / rates.memory
    assert kept_gradients_seconds(s, prof, rates, dt, _Stage()) == pytest.approx(expected)
    # ZeRO-1 keeps autograd's accumulation (3 passes of 2 bytes from the second micro-batch on)
    z1 = _s(zero_stage=1)
    assert kept_gradients_seconds(z1, prof, rates, dt, _Stage()) == accumulation_seconds(z1, prof, rates, dt, _Stage())
    assert accumulation_seconds(z1, prof, rates, dt, _Stage()) == pytest.approx(15 * 3 * 2 * 2e9 / rates.memory)


def test_the_fp32_partition_is_stepped_and_the_bf16_weights_gathered_as_zero_1():
    """BF16_Optimizer steps its rank's 1/dp of the fp32 master weights and all-gathers the updated bf16 partitions
    (all_gather_dp_groups): the optimizer's share and the gather are ZeRO-1's; its reduce is one bf16 all-reduce
    (communication_data_type is bf16 without ZeRO, engine.py), where ZeRO-1 reduce-scatters: one more reduce-scatter's
    bytes."""
    s, z1 = _s(), _s(zero_stage=1)
    assert sharded_trainable(s, _Stage()) == sharded_trainable(z1, _Stage()) == pytest.approx(2e9 / s.dp)
    hw, prof, rates, dt = _parts(s)
    spec = resolve_model(s)
    ddp = {**prof, "zero_gather_after_step": False}
    bf16, zero1 = (data_parallel_seconds(x, hw, ddp, rates, dt, _Stage(), spec)[0] for x in (s, z1))
    assert bf16 > zero1
    # without BF16_Optimizer (fp16) the same all-reduce is there but no gather of updated weights
    fp16 = _s(precision="mixed-fp16")
    assert data_parallel_seconds(fp16, hw, ddp, rates, dt, _Stage(), spec)[0] < bf16


def test_bf16_optimizer_holds_fp32_gradients_of_every_parameter_and_shards_its_states():
    """'The additional memory usage is 4bytes x params and it's not sharded across gpus' (the chronicle, on the BF16
    optimizer against fp16 ZeRO-1): the estimate of a run with it is ZeRO-1's plus 4 bytes a trainable parameter of
    the stage, its fp32 master weights and Adam states sharded over DP as ZeRO-1's."""
    def stage(s):
        e = estimate(s)
        return e, {c.key: c for c in e.busiest.components}

    bf16, z1 = stage(_s(nodes=8)), stage(_s(nodes=8, zero_stage=1))
    hp = bf16[1]["hp_gradients"]
    assert "hp_gradients" not in z1[1]
    trainable = dict(hp.inputs)["params"]
    assert tuple(hp.moments) == pytest.approx((4 * trainable,) * 4)  # alive the whole step
    for key in set(z1[1]) & set(bf16[1]) - {"zero_buckets", "optimizer_temp"}:
        assert bf16[1][key].moments == z1[1][key].moments, key
    # ZeRO-1 casts its fp32 gradient partition for the master update; BF16_Optimizer's partition is a view of its fp32
    # gradients (fp32_groups_gradient_flat_partition = torch.narrow(...)): 4 bytes a parameter of the shard less
    shard = trainable / _s(nodes=8).dp
    assert z1[1]["optimizer_temp"].moments.optimizer - bf16[1]["optimizer_temp"].moments.optimizer == pytest.approx(
        4 * shard)


def test_the_bloom_runs_with_the_bf16_optimizer_state_zero_stage_0():
    """From 02-28 the prequel's runs and BLOOM-176B set ZERO_STAGE=0 with bf16 ('bf16 must use z0! it implements its
    own zero stage 1 equivalent': train/tr11-200B-ml/tr11-200B-ml.slurm at 1a13e1f, train/tr11-176B-ml/
    tr11-176B-ml.slurm at 9e64ede); the fp16 runs before it ran ZeRO-1 unless their table says otherwise."""
    rows = [r for r in load_rows() if r["id"].startswith(("bigscience-prequel-", "bigscience-bloom-176b"))]
    late = [r for r in rows if r["id"].endswith("-02-28") or r["id"].startswith("bigscience-bloom-176b")]
    assert len(late) == 18
    for r in late:
        assert r["scenario"]["precision"] == "mixed-bf16" and r["scenario"]["zero_stage"] == 0, r["id"]
        assert bf16_optimizer(scenario_from_dict(r["scenario"])), r["id"]
    assert not any(bf16_optimizer(scenario_from_dict(r["scenario"])) for r in rows if r not in late)


def test_a_pipelined_tied_embedding_sums_its_two_gradient_copies_once_a_step():
    """DeepSpeed's TrainSchedule issues ReduceTiedGrads after the last backward: allreduce_tied_weight_gradients runs
    dist.all_reduce(weight.grad) over the first and last stage's ranks (deepspeed/runtime/pipe/module.py and
    schedule.py at 2151c78), the fp32 _hp_grad under BF16_Optimizer (pipe/engine.py at 15293139f); the word table is
    split over the TP ranks, and a ring of two moves each byte once. Across Jean Zay's nodes the ring runs at the
    measured 5.06875e9 bytes/s (all_reduce_bench-a100-n4.txt, test_deepspeed_pipeline_time.py)."""
    from engine.timing.collectives import ALL_REDUCE, collective_latency
    from engine.timing.tied_embeddings import tied_embedding_seconds

    bloom = {"model": {"name": "tied", "hf_config": {
        "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 14336, "n_layer": 72, "n_head": 64,
        "n_positions": 2048, "n_inner": 57344, "vocab_size": 250880, "activation_function": "gelu_new",
        "tie_word_embeddings": True}},
        "nodes": 48, "tp": 8, "pp": 12, "precision": "mixed-fp16", "zero_stage": 1,
        "inter_node_bandwidth_bytes_per_s": 6.25e9, "inter_node_ring_bandwidth_bytes_per_s": 5.06875e9}
    s = _s(**bloom)
    spec, hw = resolve_model(s), hardware_for(s)
    stride = 8 * s.dp * 11
    latency = collective_latency(hw, ALL_REDUCE, 2, 2 * stride, 8, stride)
    assert tied_embedding_seconds(s, spec, hw) == pytest.approx(250880 * 14336 / 8 * 2 / 5.06875e9 + latency)
    bf16 = _s(**{**bloom, "precision": "mixed-bf16", "zero_stage": 0})  # BF16_Optimizer: the fp32 gradient
    assert tied_embedding_seconds(bf16, spec, hw) == pytest.approx(250880 * 14336 / 8 * 4 / 5.06875e9 + latency)
    # nothing to sum without a pipeline or without a shared output layer (Llama's head is its own weight)
    assert tied_embedding_seconds(_s(**{**bloom, "pp": 1}), spec, hw) == 0.0
    llama = _s(nodes=48, tp=8, pp=12)
    assert not resolve_model(llama).tied_embeddings
    assert tied_embedding_seconds(llama, resolve_model(llama), hardware_for(llama)) == 0.0
