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
    """6 N (without the input embedding) + 12 L d s/2, counted by hand for Llama-2-7B (no tied embeddings): the
    causal mask's half of the scores, as Megatron-LM counts it (megatron/training/training.py at d98e8a64 lines
    1164-1169, "/ 2  # causal mask"); every key (12 L d s) is PaLM's appendix B count, the second figure."""
    from engine.models.presets import model_spec_for

    spec = model_spec_for("llama-2-7b")
    n = 6_738_415_616 - 32000 * 4096  # published total minus the input embedding table
    assert model_flops_per_token(spec, 4096) == 6 * n + 12 * 32 * 4096 * 4096 / 2
    assert model_flops_per_token(spec, 4096, causal=False) == 6 * n + 12 * 32 * 4096 * 4096


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
    op = step_time(_s(checkpointing="op-selective", **extra)).step_seconds
    assert times[0] <= op <= times[2]


def test_op_selective_recomputes_every_second_linear():
    """torchtitan's op-level policy (activation_checkpoint.py: every second mm in forward order is recomputed):
    for Llama-3-8B the recomputed matmuls are k_proj, o_proj and up_proj, 4096 x (1024 + 4096 + 14336) of the
    layer's 4096 x (4096 + 1024 + 1024 + 4096 + 3 x 14336) weights, counted by hand from its config."""
    from engine.models.presets import model_spec_for
    from engine.timing.costs import layer_cost
    from engine.timing.gemm import Rates

    spec = model_spec_for("llama-3-8b")
    rates = Rates(1e15, 1e15, 5e14, 3e12, 2)  # compute-bound at 16k tokens: seconds follow FLOPs
    c = layer_cost(spec, False, 16384.0, 8192, 1, 1, 1, False, rates, "fused", "eager", "", (), 0, 0)
    assert c.gemm_every_second_fwd / c.gemm_fwd == pytest.approx((1024 + 4096 + 14336) / (4096 * 2 + 1024 * 2
                                                                                          + 3 * 14336), rel=1e-3)


def test_moe_permutation_and_fp8_casts_are_memory_traffic():
    """Megatron's all-to-all dispatcher regroups received tokens by local expert and back (two more passes over
    the top_k copies than without expert parallelism); fp8 expert GEMMs cast their operands like nn.Linear ones:
    with Transformer Engine's delayed scaling 4 bytes per element of each GEMM input in the forward and of each
    output gradient in the backward (one fused cast-transpose), counted here by hand for Qwen3-30B-A3B's layer
    (attention q 4096 + k, v 512 each from 2048, o 2048 from 4096; the router stays in bf16; 8 routed copies
    through fc1 2048 -> 2 x 768 and fc2 768 -> 2048)."""
    from engine.models.presets import model_spec_for
    from engine.timing.costs import layer_cost
    from engine.timing.gemm import Rates

    spec = model_spec_for("qwen3-30b-a3b")
    rates = Rates(1e15, 2e15, 5e14, 3e12, 2)
    tokens = 4096.0

    def cost(ep, fp8):
        return layer_cost(spec, True, tokens, 4096, 1, ep, 1, False, rates, "fused", "fused", fp8, (), 0, 0)

    per_pass = 2 * spec.top_k * spec.hidden * 2 * tokens / rates.memory  # read + write of the bf16 copies
    assert cost(8, "").elem_fwd - cost(1, "").elem_fwd == pytest.approx(2 * per_pass)
    assert (spec.hidden, spec.q_dim, spec.kv_dim, spec.expert_ffn, spec.top_k) == (2048, 4096, 512, 768, 8)
    inputs = 3 * 2048 + 4096 + 8 * (2048 + 768)
    grads = 4096 + 2 * 512 + 2048 + 8 * (2 * 768 + 2048)
    assert cost(1, "te-delayed").elem_fwd - cost(1, "").elem_fwd == pytest.approx(4 * inputs * tokens / rates.memory)
    assert cost(1, "te-delayed").elem_bwd - cost(1, "").elem_bwd == pytest.approx(4 * grads * tokens / rates.memory)
    # torchao tensorwise: amax + cast of the input (5) forward; of the gradient (5) and both column-major copies
    # (2 each) backward; and each weight (the layer's nn.Linear weights but the router's, and the experts') once
    # per micro-batch: the column-major copy (2) backward (tests/test_fp8_weight_casts.py)
    weights = sum(lin.params for lin in spec.layer_linears(True) if lin.group != "router") + (
        spec.expert_params_per_layer())
    assert cost(1, "torchao-tensorwise").elem_bwd - cost(1, "").elem_bwd == pytest.approx(
        ((2 * inputs + 7 * grads) * tokens + 2 * weights) / rates.memory)


def test_fsdp_under_pipeline_gathers_once_per_step():
    """torchtitan keeps a stage's weights gathered across micro-batches under PP (reshard_after_forward = not
    pp_enabled): its data-parallel time does not grow with the micro-batch count; without PP it does."""
    def dp(**kw):
        return step_time(_s(model="llama-3.1-70b", gpus_per_node=8, nodes=4, fsdp=True, framework="torchtitan",
                            micro_batch=1, seq_len=512, **kw)).breakdown_seconds["communication_dp"]

    assert dp(pp=4, grad_accum=16) == pytest.approx(dp(pp=4, grad_accum=4))
    assert dp(grad_accum=16) > dp(grad_accum=4)
    assert dp(grad_accum=16, reshard_after_forward=False) <= dp(grad_accum=16)


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
                                 {"intra_node_bandwidth_bytes_per_s": "fast"}, {"time_calibration": {"x": 1}},
                                 {"moe_token_dispatcher_type": "deepep"}, {"fp8_recipe": "fp4"}])
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


def test_nvl72_rack_is_one_nvlink_domain():
    """GB200 NVL72: 72 GPUs share one NVLink fabric (NVIDIA GB200 NVL72 datasheet, presets/gpus.json), so 64 GPUs
    on 16 compute trays of 4 talk as fast as 64 in one node; HGX B200 trays of 4 would go over the network."""
    def step(gpu, per_node):
        kw = {"model": "qwen3-30b-a3b", "gpu": gpu, "gpus_per_node": per_node, "nodes": 64 // per_node, "ep": 16,
              "micro_batch": 2, "seq_len": 4096, "framework": "megatron", "zero_stage": 1}
        return step_time(_s(**kw)).step_seconds

    assert step("gb200", 4) == pytest.approx(step("gb200", 64))
    assert step("b200", 4) > step("b200", 64)


def test_flex_dispatcher_sends_a_token_once_per_remote_node():
    """DeepEP / HybridEP (Megatron's flex dispatcher) send a token over the network once to each other node that
    holds one of its experts, then forward it over NVLink. Qwen3-30B-A3B (128 experts, top 8) with EP 16 over two
    HGX H100 nodes, routing spread evenly: a token misses the other node's 64 experts with probability
    C(64, 8) / C(128, 8), so it crosses the network 1 - that times, where the all-to-all sends 8 x 8/16 = 4 copies.
    Inside the node the flex dispatcher sends a token once to each of the 8 local ranks holding one of its experts
    (8 each at EP 16: missed with probability C(120, 8) / C(128, 8)), the rank's own included, at DeepEP V1's
    measured H800 rate over those pairs (deepseek-ai/DeepEP docs/legacy.md: 153 / 158 GB/s of a ~160 GB/s link,
    0.972 of NCCL's bus figure); the all-to-all sends 8 x 7/16 copies to the other local ranks at NCCL's."""
    from math import comb

    from engine.timing.hardware import hardware_for

    def ep_seconds(nodes, dispatcher):
        s = _s(model="qwen3-30b-a3b", gpus_per_node=8, nodes=nodes, ep=8 * nodes, micro_batch=1, seq_len=4096,
               framework="megatron", zero_stage=1, precision="mixed-bf16", moe_token_dispatcher_type=dispatcher)
        return step_time(s).breakdown_seconds["communication_ep"], hardware_for(s)

    flex, hw = ep_seconds(2, "flex")
    alltoall = ep_seconds(2, "alltoall")[0]
    crossings = 1 - comb(64, 8) / comb(128, 8)
    token_bytes = 4096 * 2048 * 2  # one micro-batch's hidden states, bf16
    copies = 8 * token_bytes
    latency = hw.latency_inter_s
    inside = copies * 7 / 16 / hw.intra_bytes_per_s
    flex_inside = token_bytes * 8 * (1 - comb(120, 8) / comb(128, 8)) / (((153 + 158) / 2 / 160) * hw.intra_bytes_per_s)
    expected_flex = flex_inside + max(token_bytes * crossings / hw.inter_bytes_per_s,
                                      copies * 8 / 16 / hw.intra_bytes_per_s)
    expected_alltoall = inside + copies * 8 / 16 / hw.inter_bytes_per_s
    layers = 4 * 48  # dispatch + combine, forward and backward, in each of the 48 MoE layers
    assert flex == pytest.approx(layers * (expected_flex + latency), rel=1e-3)  # the stored fraction has 3 digits
    assert alltoall == pytest.approx(layers * (expected_alltoall + latency), rel=1e-6)


def test_flex_dispatcher_inside_nvlink_sends_once_per_rank_at_hybridep_rate():
    """Inside one NVLink domain DeepEP / HybridEP send a token once per EP rank holding one of its experts, at
    HybridEP's measured rate for that many ranks (deepseek-ai/DeepEP branch hybrid-ep docs/README_Hybrid-EP.md,
    GB200, 32 SMs, torch API, mean of bf16 dispatch and combine: 8 ranks 545.71 / 568.94 GB/s, 32 ranks
    484.22 / 464.54, over (token, rank) pairs, the rank's own included: tests/test_hybrid_ep.py). Qwen3-235B-A22B
    (128 experts, top 8) on one 8-GPU B200 node: a rank's 16 experts are missed with probability
    C(112, 8) / C(128, 8); the all-to-all dispatcher sends 8 x 7/8 copies to the other ranks at NCCL's bus rate."""
    from math import comb

    from engine import resolve_model
    from engine.timing.hardware import hardware_for
    from engine.timing.links import dispatch_seconds, flex_nvlink_fraction

    def scenario(dispatcher, gpu="b200", per_node=8, ep=8):
        return _s(model="qwen3-235b-a22b", gpu=gpu, gpus_per_node=per_node, nodes=64 // per_node, ep=ep,
                  micro_batch=1, seq_len=4096, framework="megatron", zero_stage=1, precision="mixed-bf16",
                  moe_token_dispatcher_type=dispatcher)

    token_bytes = 4096 * 4096 * 2
    s = scenario("flex")
    spec, hw = resolve_model(s), hardware_for(s)
    assert flex_nvlink_fraction("blackwell", 8) == pytest.approx((545.71 + 568.94) / 2 / 720, abs=1e-3)
    rate = (545.71 + 568.94) / 2 * 1e9 / 720e9 * hw.intra_bytes_per_s
    expected = token_bytes * 8 * (1 - comb(112, 8) / comb(128, 8)) / rate
    assert dispatch_seconds(token_bytes, spec, s, hw) == pytest.approx(expected, rel=1e-3)
    alltoall = dispatch_seconds(token_bytes, spec, scenario("alltoall"), hw)
    assert alltoall == pytest.approx(token_bytes * 8 * 7 / 8 / hw.intra_bytes_per_s)
    # EP 32 inside a GB200 NVL72 domain: each rank's 4 experts, at the 32-rank rate
    s32 = scenario("flex", "gb200", 4, 32)
    hw32 = hardware_for(s32)
    rate32 = (484.22 + 464.54) / 2 * 1e9 / 720e9 * hw32.intra_bytes_per_s
    expected32 = token_bytes * 32 * (1 - comb(124, 8) / comb(128, 8)) / rate32
    assert dispatch_seconds(token_bytes, spec, s32, hw32) == pytest.approx(expected32, rel=1e-3)


def test_allgather_dispatcher_moves_every_token_to_every_rank():
    """Megatron's allgather dispatcher gathers all EP ranks' tokens whatever top_k is: with 8 ranks in one node
    each receives 7 micro-batches of hidden states, against top_k x 7/8 of one for the all-to-all: the same for
    Qwen3-30B-A3B (top 8), 4 times as much for Mixtral 8x7B (top 2, 32 MoE layers)."""
    from engine.timing.hardware import hardware_for

    def ep(dispatcher, model):
        s = _s(model=model, gpus_per_node=8, ep=8, micro_batch=1, seq_len=4096, framework="megatron",
               moe_token_dispatcher_type=dispatcher)
        return step_time(s).breakdown_seconds["communication_ep"], hardware_for(s).latency_intra_s

    assert ep("allgather", "qwen3-30b-a3b")[0] == pytest.approx(ep("alltoall", "qwen3-30b-a3b")[0])
    (gather, latency), scatter = ep("allgather", "mixtral-8x7b"), ep("alltoall", "mixtral-8x7b")[0]
    latencies = 4 * 32 * latency
    assert gather - latencies == pytest.approx(4 * (scatter - latencies))


def test_op_selective_recompute_gathers_again_under_tensor_parallelism():
    """torchtitan's per-op policy saves reduce_scatter outputs but not all_gather ones (parallelize_llama.py
    _save_list at 9dec370): with SP its recompute runs the two forward all-gathers again, one all-reduce's worth
    on top of the four of forward and backward; plain TP runs both forward all-reduces again."""
    def tp(checkpointing, sp):
        return step_time(_s(gpus_per_node=8, tp=8, micro_batch=1, seq_len=4096, framework="torchtitan",
                            checkpointing=checkpointing, sequence_parallel=sp)).breakdown_seconds["communication_tp"]

    assert tp("op-selective", True) == pytest.approx(tp("none", True) * 5 / 4)
    assert tp("op-selective", False) == pytest.approx(tp("none", False) * 6 / 4)
    assert tp("full", True) == pytest.approx(tp("none", True) * 6 / 4)


def test_fsdp2_copies_around_each_collective_are_memory_traffic():
    """FSDP2 (torchtitan, torchtune) copies around each collective (all_gather_copy_in, split_with_sizes_copy,
    chunk_cat): per micro-batch two gathers (resharded after forward) each cast the fp32 shard to bf16 into a flat
    buffer and copy it into the all-gather input (4 + 2 and 2 + 2 bytes per shard element) and split the gathered
    bf16 buffer into the parameters (2 + 2 per element), and the reduce-scatter casts the bf16 gradients to
    torchtitan's fp32 reduce dtype (2 + 4 per element)."""
    from engine.models.presets import model_spec_for
    from engine.timing.hardware import hardware_for

    def memory(framework):
        # on the H200, where no eager op of torchtitan's was measured (eager_ops.py: its eager SwiGLU takes a
        # measured rate on the H100 SXM since h-hfops), so that the two frameworks differ by the copies alone
        s = _s(model="llama-3.1-8b", gpu="h200", gpus_per_node=8, fsdp=True, micro_batch=2, seq_len=8192,
               framework=framework, precision="mixed-bf16")
        return step_time(s).breakdown_seconds["memory_bound"], hardware_for(s)

    (with_copies, hw), without = memory("torchtitan"), memory("pytorch")[0]
    params = model_spec_for("llama-3.1-8b").total_params
    expected = (2 * (4 + 2 + 2 + 2) / 8 * params + 2 * 4 * params + (2 + 4) * params) / hw.memory_bytes_per_s
    assert with_copies - without == pytest.approx(expected, rel=1e-3)


def test_fp8_recipe_sets_the_cast_traffic():
    """Megatron's fp8_recipe names: current scaling (tensorwise) reads each operand once more for its amax than
    delayed scaling (6 against 4 bytes per element, Transformer Engine's fused cast-transpose); MXFP8 adds the
    block scales (1/32 each way); auto is the framework's own: delayed in Megatron (Transformer Engine's
    default), tensorwise dynamic scaling in torchtitan (torchao)."""
    def memory(framework, recipe):
        return step_time(_s(model="llama-3.1-8b", precision="fp8", framework=framework, gpus_per_node=8,
                            micro_batch=1, seq_len=4096, fp8_recipe=recipe)).breakdown_seconds["memory_bound"]

    assert memory("megatron", "auto") == memory("megatron", "delayed")
    assert memory("megatron", "delayed") < memory("megatron", "mxfp8") < memory("megatron", "tensorwise")
    assert memory("torchtitan", "auto") == memory("torchtitan", "tensorwise")
    assert memory("torchtitan", "delayed") < memory("torchtitan", "tensorwise")


def test_liger_kernels_cut_the_element_wise_time_and_nothing_else():
    # presets/efficiency.json elementwise_bytes_per_token: Liger's fused RMSNorm, RoPE and SwiGLU move fewer bytes
    # than Hugging Face's eager ops (20 / 12 / 6 bytes per unit instead of 84 / 20 / 10); matmuls are untouched.
    from engine import scenario_from_dict
    from engine.timing import step_time

    base = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "lora", "precision": "bf16",
            "micro_batch": 2, "seq_len": 4096, "attention": "flash"}
    from engine.timing.ceiling import without_ceilings

    with without_ceilings():  # the model's own figures: the MFU ceiling would stretch the faster one's matmuls
        plain = step_time(scenario_from_dict(base)).breakdown_seconds
        liger = step_time(scenario_from_dict({**base, "liger_kernels": True})).breakdown_seconds
    assert liger["compute"] == plain["compute"]
    assert liger["memory_bound"] < plain["memory_bound"]
    assert sum(liger.values()) < sum(plain.values())


def test_frozen_weights_count_no_weight_gradient_in_mfu():
    """The 6 of 6N is 2 forward + 2 activation gradients + 2 weight gradients, and attention's 12 is 4 forward + 8
    backward (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters", appendix:
    the backward pass costs twice the forward, half for each gradient), over the causal half of the sequence's keys
    (s/2, Megatron-LM's count). LoRA counts 4N + 12 L d s/2; 8 bottom layers of 32 frozen count neither gradient
    there."""
    from engine.models.presets import model_spec_for
    from engine.timing.mfu import gradient_shares

    spec = model_spec_for("llama-2-7b")
    n = 6_738_415_616 - 32000 * 4096
    lora = scenario_from_dict({"model": "llama-2-7b", "method": "lora"})
    assert model_flops_per_token(spec, 4096, *gradient_shares(lora, spec)) == 4 * n + 12 * 32 * 4096 * 2048
    frozen = scenario_from_dict({"model": "llama-2-7b", "method": "freeze", "frozen_layers": 8})
    assert gradient_shares(frozen, spec) == (0.75, 0.75)
    assert model_flops_per_token(spec, 4096, 0.75, 0.75) == n * (2 + 1.5 + 1.5) + 32 * 4096 * 2048 * (4 + 6)


def test_adapter_mfu_stays_under_the_peak_on_a_matmul_bound_card():
    """Issue 28: on a card whose time is all matmuls (slow FLOP/s, fast memory), LoRA showed MFU 127%: the 6N
    numerator counted weight gradients frozen weights never get."""
    card = {"name": "slow matmuls", "memory_bytes": 80 * 2**30, "bf16_tflops": 1.0,
            "memory_bandwidth_bytes_per_s": 1e15}
    for method in ("lora", "qlora", "full"):
        t = step_time(scenario_from_dict({"model": "llama-3-8b", "gpu": card, "method": method}))
        assert 0 < t.mfu <= 1.0, (method, t.mfu)


def test_every_datacentre_gpu_of_the_large_vendors_has_its_own_speed_figures():
    """Issue 23 item 3: the Hopper, Blackwell and CDNA presets each carry their own matmul fraction (and fp8 one
    where the GPU has an fp8 peak) and an architecture, so MI300X/MI325X fp8 and attention no longer fall back to
    NVIDIA defaults (presets/efficiency.json cites the MAMF table, stas00/ml-engineering at 744d01e, or says how
    each figure is derived)."""
    import json

    from engine.models.presets import PRESETS_DIR

    eff = json.loads((PRESETS_DIR / "efficiency.json").read_text(encoding="utf-8"))
    gpus = json.loads((PRESETS_DIR / "gpus.json").read_text(encoding="utf-8"))
    wanted = ("h100-sxm-80gb", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x")
    for gpu in (g for g in gpus if g["id"] in wanted):
        assert gpu["id"] in eff["matmul_fraction_of_peak"], gpu["id"]
        assert "fp8" not in gpu["dense_peak_tflops"] or gpu["id"] in eff["fp8_matmul_fraction_of_peak"], gpu["id"]
        arch = eff["gpu_arch"][gpu["id"]]
        assert all(arch in table or arch in ("hopper",) for name, table in
                   eff["attention_fraction_of_bf16_peak"].items() if not name.startswith("_")), gpu["id"]
    assert eff["gpu_arch"]["mi300x"] == "cdna3" and eff["gpu_arch"]["gb300"] == "blackwell"


def test_combined_1f1b_hides_each_all_to_all_behind_the_other_micro_batch():
    """Megatron's combined 1F1B (overlap_moe_expert_parallel_comm; Megatron-Core docs, "Combined 1F1B: Expert-Parallel
    All-to-All Overlap", and core.pipeline_parallel.combined_1f1b: "EP A2A in forward step is hidden by the
    attention/mlp computation in the backward step, and vice versa"): inside one node at micro-batch 4 each layer's
    dispatch and combine take less than the other micro-batch's work on the layer, so only the micro-batch that runs
    alone (the first forward and the last backward without pipelining) keeps its all-to-all: 1 / grad_accum of it.
    Across two nodes the network all-to-all outlasts the layer's forward, and what is left stays exposed. On B200,
    whose GEMMs take the SMs the all-to-all leaves (cluster launch control); on H100 the GEMMs beside it wait for it
    (presets/efficiency.json gemm_tile_scheduler), so inside one node part of it shows too, less than all."""
    from engine import resolve_model
    from engine.timing.a2a_overlap import paired_exposed_seconds
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for, stage_time_per_micro_batch
    from engine.timing.stage_listing import distinct_stages

    def ep(nodes, overlap, gpu="b200"):
        s = _s(model="qwen3-30b-a3b", gpus_per_node=8, nodes=nodes, ep=8 * nodes, micro_batch=4, grad_accum=8,
               seq_len=4096, framework="megatron", zero_stage=1, precision="mixed-bf16", moe_a2a_overlap=overlap,
               gpu=gpu)
        return step_time(s).breakdown_seconds["communication_ep"], s

    alone, s = ep(1, False)
    assert ep(1, True)[0] == pytest.approx(alone / 8)
    alone_h100 = ep(1, False, "h100-sxm-80gb")[0]
    assert alone_h100 / 8 < ep(1, True, "h100-sxm-80gb")[0] < alone_h100
    across, s = ep(2, False)
    hidden = ep(2, True)[0]
    hw, prof = hardware_for(s), framework_profile("megatron")
    stage = stage_time_per_micro_batch(s, resolve_model(s), hw, prof, rates_for(s, hw, prof),
                                       *distinct_stages(s, resolve_model(s))[0])
    paired = paired_exposed_seconds(stage.ep_paired, 1)  # no pipelining: one model chunk
    assert 0 < paired < stage.ep  # part hides, part does not
    assert hidden == pytest.approx(stage.ep + 7 * paired)
    assert hidden < across


def test_group_limited_routing_reaches_fewer_ranks_and_nodes():
    """DeepSeek-V3's group-limited routing (config.json n_group 8, topk_group 4, which Megatron-Bridge maps to
    moe_router_num_groups / moe_router_group_topk: src/megatron/bridge/models/conversion/model_bridge.py at v0.4.2;
    Megatron-Core group_limited_topk splits the 256 experts into 8 contiguous groups and picks a token's 8 experts
    from its 4 best groups): at EP 8 each rank holds one group, so a token reaches a rank only if its group is
    picked (4 of 8) and one of the 8 picks among the picked groups' 128 experts lands in it; over four HGX nodes
    (EP 32) each node holds two groups, picked 0, 1 or 2 times (hypergeometric)."""
    from math import comb

    from engine import resolve_model
    from engine.timing.hardware import hardware_for
    from engine.timing.links import dispatch_seconds, flex_nvlink_fraction

    def scenario(ep, nodes):
        return _s(model="deepseek-v3", gpu="b200", gpus_per_node=8, nodes=nodes, ep=ep,
                  micro_batch=1, seq_len=4096, framework="megatron", zero_stage=1, precision="mixed-bf16",
                  moe_token_dispatcher_type="flex")

    token_bytes = 4096 * 7168 * 2
    s8 = scenario(8, 1)
    spec, hw = resolve_model(s8), hardware_for(s8)
    assert (spec.router_groups, spec.router_group_topk) == (8, 4)
    rank_miss = 0.5 + 0.5 * comb(96, 8) / comb(128, 8)
    rate = flex_nvlink_fraction("blackwell", 8) * hw.intra_bytes_per_s
    assert dispatch_seconds(token_bytes, spec, s8, hw) == pytest.approx(token_bytes * 8 * (1 - rank_miss) / rate)
    s32 = scenario(32, 4)
    node_miss = sum(comb(2, m) * comb(6, 4 - m) / comb(8, 4) * comb(128 - 32 * m, 8) / comb(128, 8) for m in range(3))
    rank_miss32 = 1 - 4 / 8 + 4 / 8 * comb(128 - 8, 8) / comb(128, 8)  # a rank's 8 experts inside one group
    inside = token_bytes * 8 * (1 - rank_miss32) / rate
    network = token_bytes * 3 * (1 - node_miss) / hw.inter_bytes_per_s
    forward = token_bytes * 8 * 24 / 32 / hw.intra_bytes_per_s
    assert dispatch_seconds(token_bytes, spec, s32, hw) == pytest.approx(inside + max(network, forward))
    uniform_nodes = 1 - comb(192, 8) / comb(256, 8)
    assert 1 - node_miss < uniform_nodes  # node-limited: fewer crossings than top-8 spread over all 256 experts
