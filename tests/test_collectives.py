"""Collectives from first principles (issue 23 item 1): NCCL's latency model per algorithm and the number of
collectives each framework issues.

Expected latencies are computed by hand from NVIDIA/nccl src/graph/tuning.cc at 5067397 (ncclTunerConstantsDefaults,
Simple protocol: base 8.4 us; per hop NVLink ring 3.4 us, tree 4.0 us; network 14 us; net overhead 1 us x 3 on
Intel hosts, 2 us x 3 on AMD ones) with ncclTopoTuneModel's step counts; bucket sizes from the frameworks' sources
named in presets/efficiency.json.
"""

import math

import pytest

from engine import scenario_from_dict
from engine.timing import hardware_for, step_time
from engine.timing.collectives import ALL_GATHER, ALL_REDUCE, BROADCAST, bucket_count, collective_latency

H100 = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8}
# a ring step inside a DGX A100 node of a ring across nodes: the NVLink hop 3.4 us or, more, the AMD EPYC host's
# network overhead, 2 us x 3 for Simple (tuning.cc at 5067397c getNetOverhead lines 228-233, lines 404-410;
# presets/host_overhead.json host_cpus: DGX A100's host is AMD EPYC 7742)
A100_HOP = max(3.4, 2.0 * 3)


def test_ring_latency_counts_every_step_and_the_ones_that_cross_nodes():
    hw = hardware_for(scenario_from_dict(H100))
    # 512 ranks, 8 per node over 64 nodes: 511 steps, 63 of them between nodes
    expected = 8.4 + (511 - 63) * 3.4 + 63 * 14.0
    assert math.isclose(collective_latency(hw, ALL_GATHER, 512, 512, 8) * 1e6, expected)
    # inside one node: 7 steps of 3.4 us
    assert math.isclose(collective_latency(hw, ALL_GATHER, 8, 8, 8) * 1e6, 8.4 + 7 * 3.4)


def test_all_reduce_takes_the_faster_of_ring_and_tree():
    hw = hardware_for(scenario_from_dict(H100))
    ring = 8.4 + (2 * 1023 - 2 * 127) * 3.4 + 2 * 127 * 14.0
    tree = 8.4 + 2 * (7 * 4.0 + math.log2(128) * 14.0)
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 1024, 1024, 8) * 1e6, min(ring, tree))
    assert tree < ring  # at 1,024 ranks NCCL's tree wins on latency
    # inside a Hopper NVSwitch node NVLS (25 us, tuning.cc at 5067397 line 161) beats an 8-rank ring all-reduce
    # (8.4 + 14 x 3.4 = 56 us) where the framework leaves NVLS on; with NCCL_NVLS_ENABLE=0 the ring runs
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 8, 8, 8, nvls=True) * 1e6, 25.0)
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 8, 8, 8) * 1e6, 8.4 + 14 * 3.4)
    # across 128 nodes NVLSTree's 25 + 2 x 7 x 20.9 us (line 428) loses to the tree
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 1024, 1024, 8, nvls=True) * 1e6, min(ring, tree))


def test_buckets_of_the_framework():
    # Megatron-LM: max(40,000,000, 1,000,000 x dp) parameters per bucket; 8B fp32 gradients over 64 replicas
    # are 32 GB in buckets of 64M x 4 bytes = 256 MB: 125 buckets
    assert bucket_count(8e9 * 4, 64e6 * 4) == 125
    assert bucket_count(1.0, 0.0) == 1


def test_zero3_strong_scaling_loses_per_gpu_throughput():
    """A fixed global batch over more replicas leaves each GPU less compute to hide the per-layer gathers behind
    while each collective's ring grows (issue 23: GPT-175B ZeRO-3 on 384 -> 1,536 A100s halves per-GPU throughput
    at each doubling). Per-GPU throughput must fall as the replicas grow."""
    per_gpu = []
    for nodes in (48, 96, 192):
        dp = nodes * 8
        s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": nodes,
                                "framework": "deepspeed", "zero_stage": 3, "micro_batch": 1,
                                "grad_accum": 1536 // dp, "seq_len": 2048, "attention": "flash",
                                "checkpointing": "full"})
        per_gpu.append(step_time(s).tokens_per_second_per_gpu)
    assert per_gpu[0] > per_gpu[1] > per_gpu[2]


def test_gemms_run_in_whole_tiles_and_whole_waves():
    """Issue 23 item 2: tile and wave quantization (NVIDIA's Matrix Multiplication Background guide): with 128 x 256
    output tiles on 132 SMs (H100 SXM5), 132 tiles fill one wave and 133 take two, and a GEMM one row taller than a
    tile costs two tile rows; tiles that do not fill one wave are split along k (64-deep steps) over the idle SMs.
    Memory is infinitely fast so the compute side shows."""
    from engine.timing.gemm import gemm_seconds, grouped_gemm_seconds

    rate, memory, k = 1e15, 1e30, 4096
    one_wave = gemm_seconds(128 * 132, k, 256, rate, memory, 2, 132)
    assert math.isclose(one_wave, 2.0 * 128 * 132 * k * 256 / rate)  # a full wave runs at the best shape's rate
    assert math.isclose(gemm_seconds(128 * 133, k, 256, rate, memory, 2, 132), 2 * one_wave)
    assert math.isclose(gemm_seconds(129, k, 256, rate, memory, 2, 132), gemm_seconds(256, k, 256, rate, memory, 2, 132))
    # one tile 4096 deep: split into 64 slices of 64 over 132 SMs, one round of a 64-deep slice
    assert math.isclose(gemm_seconds(128, k, 256, rate, memory, 2, 132), 2.0 * 128 * 256 * 64 * 132 / rate)
    # eight experts of 64 tokens in one grouped GEMM: 8 tiles split 16 ways (132 // 8) share one wave
    assert math.isclose(grouped_gemm_seconds(8, 64, k, 256, rate, memory, 2, 132),
                        2.0 * 128 * 256 * (k / 16) * 132 / rate)
    # without an SM count the roofline is the plain one
    assert math.isclose(gemm_seconds(129, k, 256, rate, memory, 2), 2.0 * 129 * k * 256 / rate)


def test_attention_runs_in_whole_key_tiles():
    """Issue 23 item 2: attention by kernel tiles (presets/efficiency.json attention_tiles: FlashAttention-2's
    128 x 128 forward tiles for head dim 64, flash_fwd_launch_template.h run_mha_fwd_hdim64). Hand counts: a
    4,096-token causal sequence is 32 x 32 tiles of which 32 x 33 / 2 = 528 are touched, 528 x 128 x 128 / 4,096 =
    2,112 keys per query; gpt-oss's 128-token window reaches 2 key tiles per query tile (1 for the first), so
    (1 + 31 x 2) x 128 x 128 / 4,096 = 252 keys per query, not 128."""
    from engine.timing.attention import causal_keys_per_query, head_dim_rate

    assert causal_keys_per_query(4096, 4096) == 528 * 128 * 128 / 4096
    assert causal_keys_per_query(4096, 128) == (1 + 31 * 2) * 128 * 128 / 4096
    assert causal_keys_per_query(100, 100) == 100  # one partial tile: never more keys than the sequence
    # flash-attention PR #2605 (FA4, B200, causal 4K): head dim 64 at 1011 / 1431 of head dim 128's rate
    assert head_dim_rate(64) == 0.707 and head_dim_rate(128) == 1.0 and head_dim_rate(256) == 1.0


def test_gpt_oss_attends_through_full_layers_too():
    """gpt-oss alternates sliding (128-token window) and full attention layers (config.json layer_types: 18 of
    36 sliding), so its attention costs about half a full model's plus half a windowed one, not a windowed one."""
    from engine.scenario import resolve_model
    from engine.timing.attention import sliding_share

    gpt_oss = scenario_from_dict({"model": "gpt-oss-120b", "gpu": "h100-sxm-80gb", "seq_len": 4096})
    assert sliding_share(resolve_model(gpt_oss)) == 0.5


def test_context_parallel_ring_hides_each_block_behind_one_step():
    """Transformer Engine's AttnFuncWithCPAndKVP2P posts step i + 1's K/V send/recv before step i's attention, so
    each of the cp - 1 transfers hides behind attention / cp, not behind the whole attention: with 4 ranks, 1 s of
    forward attention (0.25 s per step) and 0.5 s per block, 3 x 0.25 s is exposed (a total-against-total count
    would give 3 x 0.5 - 1 = 0.5 s)."""
    from engine.timing.links import ring_exposed_seconds

    assert math.isclose(ring_exposed_seconds(0.5, 4, 1.0, 0.0, 1.0, 0.0), 3 * 0.25)
    assert ring_exposed_seconds(0.1, 4, 1.0, 0.0, 1.0, 2.5) == 0.0  # long sequences: every block hidden


def test_deepspeed_zero1_gathers_weights_after_the_step_with_nothing_to_hide_behind():
    """DeepSpeed ZeRO-1/2 all-gathers the updated weights at the end of its optimizer step (deepspeedai/DeepSpeed
    deepspeed/runtime/zero/stage_1_and_2.py step(): all_gather_dp_groups, "ready for next round forward"): the
    whole gather is exposed, while the gradient reduce-scatter still hides behind backward (InternEvo's broadcasts:
    test_internevo_broadcasts_rank_by_rank_after_the_step). Expected: bf16 weights of the rank's stage x
    (dp - 1) / dp over the ring's bus bandwidth, plus one ring latency (tuning.cc, as above) per bucket of 5e8
    elements (deepspeed/runtime/zero/config.py)."""
    from types import SimpleNamespace

    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.timing.collectives import group_latencies
    from engine.timing.data import framework_profile
    from engine.timing.data_parallel import data_parallel_seconds
    from engine.timing.links import link
    from engine.timing.model import rates_for

    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 4,
                            "framework": "deepspeed", "zero_stage": 1, "micro_batch": 2, "grad_accum": 4,
                            "seq_len": 2048, "attention": "flash", "inter_node_bandwidth_bytes_per_s": 6.25e9})
    hw, prof = hardware_for(s), framework_profile("deepspeed")
    assert prof["zero_gather_after_step"]
    rates = rates_for(s, hw, prof)
    params = 8.0e9
    busiest = SimpleNamespace(trainable=params, params=params, memory=0.0, fwd=10.0, bwd=20.0,
                              layers=32)  # long compute windows, all compute-bound (no HBM contention)
    dp_comm, _ = data_parallel_seconds(s, hw, prof, rates, dtypes_for(s), busiest, resolve_model(s))
    bus = link(hw, 32, 8)[0]  # 8 members per node, each over its own NIC share: 8 x 6.25 GB/s x 0.9
    assert math.isclose(bus, 8 * 6.25e9 * 0.9)
    ag_lat = group_latencies(hw, 32, 32, 8, 1)[0]
    # a ring over 4 nodes, 3 network steps; each NVLink step at least DGX A100's AMD host's network overhead, 2 us x 3
    # for Simple (tuning.cc at 5067397c lines 228-233, 404-410): max(3.4, 6) us
    assert math.isclose(ag_lat * 1e6, 8.4 + (31 - 3) * A100_HOP + 3 * 14.0)
    buckets = math.ceil(params * 2 / (5e8 * 2))  # bf16 gradients in buckets of 5e8 elements: 16
    ag_lat, rs_lat = group_latencies(hw, 32, 32, 8, 1)[:2]
    gather = 31 / 32 * params * 2 / bus + buckets * ag_lat
    scatter = 31 / 32 * params * dtypes_for(s).grad / bus + buckets * rs_lat  # gradients in their own dtype
    # the reduce-scatter (about 0.3 s) hides behind 20 s of backward, holding NCCL's 16 of the A100's 108 SMs while
    # it runs (engine/timing/contention.py, presets/efficiency.json nccl_sms); the gather has no window
    assert math.isclose(dp_comm, gather + scatter * 16 / 108)
    hidden, _ = data_parallel_seconds(s, hw, {**prof, "zero_gather_after_step": False}, rates, dtypes_for(s),
                                      busiest, resolve_model(s))
    # a framework that prefetches the gather behind the next forward hides all of it here, at the same SM cost
    assert math.isclose(hidden, (gather + scatter) * 16 / 108)


def test_b200_computes_at_the_clock_its_power_limit_leaves():
    """Deep-Learning-Profiling-Tools/Tilebench's B200 calibration (artifacts/llm_v2/calibration/B200/
    B200-20261006T063415Z-39b55bd3, raw/mma_bf16_f32acc.json at 62fe810f) ran cuBLAS BF16 GEMMs of random normal values
    back to back on a B200 at its 1,000 W limit, nvidia-smi reading the SM clock pulled from 1,965 to 1,110-1,192 MHz at
    987-1,006 W: 1,341.4 TFLOPS at 12,288^3, its best shape. A training step computes back to back, so B200's matmul and
    attention rates are the short-run ones (stas00's MAMF table: 2,250 x 0.776 = 1,746 TFLOPS; the FlashAttention
    figures) x 1341.4 / 1746; a GPU without such a measurement keeps its short-run rates; memory bandwidth is not
    clocked down with the SMs (the same run's memory clock stays at 3,996 MHz)."""
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for

    b200 = scenario_from_dict({"model": "llama-3-8b", "gpu": "b200", "framework": "megatron"})
    hw, prof = hardware_for(b200), framework_profile("megatron")
    assert math.isclose(hw.sustained_fraction, round(1341.4 / (2250 * 0.776), 3))  # 0.768
    rates = rates_for(b200, hw, prof)
    assert math.isclose(rates.gemm, 2250e12 * 0.776 * 0.768)  # presets/gpus.json peak x MAMF fraction x sustained
    assert math.isclose(rates.memory, 8e12 * 0.855)  # datasheet x B200's measured stream share (Tilebench), unchanged
    a100 = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "framework": "megatron"})
    assert hardware_for(a100).sustained_fraction == 1.0  # no sustained measurement: the short-run rates




def test_hopper_computes_bf16_and_fp8_at_the_share_gpu_fryer_sustains():
    """huggingface/gpu-fryer README.md at f9d564b: back-to-back cuBLASLt 8192^3 matmuls of random BF16 values for 60 s
    reach about 730 TFLOPS on H100-SXM5-80GB and 1,550 on GB200-NVL72; stas00's MAMF (bursts with a cache flush
    between matmuls) is 794.5 and 1,822. Its FP8 figures (1,530 and 4,300, above the FP8 MAMF of 1,402.6 and 3,615.6)
    multiply constant matrices: src/main.rs at 704ba85 fills them with F8E4M3::from_f32(next_u32() as f32), which
    saturates every value above 464 to 448 (EricLBuehler/float8 src/lib.rs at 04aae27, convert_to_fp8, SatFinite), so
    they say nothing of fp8 matmuls on training data. AMD's thermally stable hipBLASLt runs on representative data
    settle FP8 at the BF16 clock (ROCm/rocm-blogs measuring-max-achievable-flops-part2 at 8e01195: MI300X 1,230 and
    1,207 MHz), so fp8 matmuls keep the same share of their MAMF as bf16 ones. H200 is the same GH100 at 700 W. The same
    README's 'NVIDIA GH200 480GB' row (added with the H100's in c12f710) is about 705 TFLOPS BF16, over the GH200 MAMF
    of 828.6 (stas00's 900 W HBM3e GH200; FP8 1,535.0). GB200's row (1,550) gave way to Azure's random-data
    measurement (the next test)."""
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for

    assert 464 / 2**32 < 1e-6  # the share of u32 values that do not saturate: both fp8 operands are all 448
    for gpu, peak, mamf, sustained, fp8_peak, fp8_mamf in (
            ("h100-sxm-80gb", 989e12, 0.803, 730 / 794.5, 1979e12, 1402.6 / 1979),
            ("h200", 989e12, 0.803, 730 / 794.5, 1979e12, 0.734),
            ("gh200", 989e12, 0.838, 705 / 828.6, 1979e12, 1535.0 / 1979)):
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "megatron", "precision": "fp8"})
        hw = hardware_for(s)
        assert math.isclose(hw.sustained_fraction, round(sustained, 3))
        assert hw.fp8_sustained_fraction == hw.sustained_fraction
        rates = rates_for(s, hw, framework_profile("megatron"))
        assert math.isclose(rates.gemm, peak * mamf * round(sustained, 3))  # peak x MAMF fraction x sustained
        assert math.isclose(rates.linear, fp8_peak * round(fp8_mamf, 3) * round(sustained, 3))
    b200 = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": "b200", "precision": "fp8"}))
    assert b200.fp8_sustained_fraction == b200.sustained_fraction  # no fp8 measurement: its bf16 share


def test_gb200_computes_at_the_share_azures_random_fp8_gemms_sustain():
    """Azure/AI-benchmarking-guide Azure_Results/ND_GB200_v6_results.md at fa799957: cuBLASLt FP8 (e4m3) GEMMs of
    uniform random values in [-1, 1] (gitaumark/superbenchmark cublaslt_gemm.cu at 1089cfc, cuda_array_init_randu),
    10,000 warm-up launches before 1,000 timed ones, 2,906.9 TFLOPS at 16,384^3 on ND GB200 v6; stas00's FP8 MAMF is
    0.723 of the 5,000 TFLOPS dense peak (3,615). The share (0.804) is the clock's, so bf16 GEMMs keep it too (the
    BF16 MAMF, 0.729 of 2,500); gpu-fryer's all-positive BF16 operands had given 1,550 / 1,822 = 0.851."""
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for

    sustained = round(2906.9 / (5000 * 0.723), 3)
    assert sustained == 0.804
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "gb200", "framework": "megatron", "precision": "fp8"})
    hw = hardware_for(s)
    assert hw.sustained_fraction == sustained and hw.fp8_sustained_fraction == sustained
    rates = rates_for(s, hw, framework_profile("megatron"))
    assert math.isclose(rates.gemm, 2500e12 * 0.729 * sustained)  # peak x MAMF fraction x sustained
    assert math.isclose(rates.linear, 5000e12 * 0.723 * sustained)

def test_mi300x_fp8_rate_takes_amds_same_chip_fp8_to_bf16_ratio_at_its_sustained_clock():
    """AMD measured its Max-Achievable FLOPs with hipBLASLt on thermally stable devices (ROCm/rocm-blogs
    blogs/software-tools-optimization/measuring-max-achievable-flops-part2/README.md at 8e01195, Table 1): MI300X BF16
    708 TFLOPs at a median 1,207 MHz, FP8 1,273 at 1,230 MHz; MI325X BF16 843, FP8 1,519; peaks 1,307.4 / 2,614.9
    (presets/gpus.json). The clock the power limit leaves is reached within a second, so the warmed-up MAMF (stas00's
    0.514 and 0.604 of the BF16 peak) is already the sustained rate, and the FP8 fraction is the BF16 one x AMD's
    FP8/BF16 fraction ratio of the same chip. Both are best-shape rates, which the GEMMs keep at a workload's shapes
    times CDNA3's measured workload share (tests/test_workload_gemm_shapes.py)."""
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for
    from engine.timing.workload_gemm import workload_shape_share

    for gpu, mamf, maf_bf16, maf_fp8 in (("mi300x", 0.514, 708, 1273), ("mi325x", 0.604, 843, 1519)):
        ratio = (maf_fp8 / 2614.9) / (maf_bf16 / 1307.4)
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "torchtitan", "precision": "fp8"})
        hw = hardware_for(s)
        assert hw.sustained_fraction == 1.0
        fp8_share, bf16_share = workload_shape_share(gpu, "fp8"), workload_shape_share(gpu, "bf16")
        assert math.isclose(hw.fp8_matmul_fraction, round(mamf * ratio, 3) * fp8_share)
        rates = rates_for(s, hw, framework_profile("torchtitan"))
        assert math.isclose(rates.linear, 2614.9e12 * round(mamf * ratio, 3) * fp8_share)
        assert math.isclose(rates.gemm, 1307.4e12 * mamf * bf16_share)

def test_deepspeed_zero3_issues_a_collective_per_submodule_and_per_reduce_bucket():
    """DeepSpeed ZeRO-3 gathers each submodule's parameters before it runs (deepspeed/runtime/zero/
    parameter_offload.py pre_sub_module_forward_function -> fetch_sub_module; issue deepspeedai/DeepSpeed#5047: one
    all-gather per nn.Linear) and reduce-scatters gradients in buckets of reduce_bucket_size (5e8) elements, where
    FSDP issues one of each per wrapped decoder layer. Llama-3-8B has 7 nn.Linear per layer (q, k, v, o, gate, up,
    down), all above stage3_param_persistence_threshold (1e5). With compute windows of zero seconds nothing hides,
    so the exposed time is the bytes over the bus plus the ring latency (tuning.cc, as above) per collective:
    2 gathers (forward, and again for backward after resharding) x (32 layers x 7 + 1 root) and
    ceil(8e9 / 5e8) = 16 reduce-scatters, against FSDP's 2 x 33 gathers and 33 reduce-scatters."""
    from types import SimpleNamespace

    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.timing.collectives import group_latencies
    from engine.timing.data import framework_profile
    from engine.timing.data_parallel import data_parallel_seconds, gathered_modules_per_layer
    from engine.timing.links import link
    from engine.timing.model import rates_for

    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 4,
                            "framework": "deepspeed", "zero_stage": 3, "micro_batch": 1, "grad_accum": 1,
                            "seq_len": 2048, "attention": "flash"})
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile("deepspeed")
    assert prof["zero3_per_module"] and gathered_modules_per_layer(spec) == 7
    rates = rates_for(s, hw, prof)
    params = 8.0e9
    busiest = SimpleNamespace(trainable=params, params=params, fwd=0.0, bwd=0.0, layers=32)
    ag_lat, rs_lat, _ = group_latencies(hw, 32, 32, 8, 1)
    grad_bytes = dtypes_for(s).grad  # the gradients' own dtype (fp32 under DeepSpeed's mixed precision)
    bytes_s = 31 / 32 * (2 * 2 + grad_bytes) * params / link(hw, 32, 8)[0]  # two bf16 gathers, one reduce-scatter
    deepspeed, _ = data_parallel_seconds(s, hw, prof, rates, dtypes_for(s), busiest, spec)
    assert math.isclose(deepspeed, bytes_s + 2 * (32 * 7 + 1) * ag_lat + 16 * rs_lat)
    fsdp, _ = data_parallel_seconds(s, hw, {**prof, "zero3_per_module": False}, rates, dtypes_for(s), busiest, spec)
    assert math.isclose(fsdp, bytes_s + 33 * (2 * ag_lat + rs_lat))


def test_broadcast_is_a_ring_of_one_step_per_rank():
    """tuning.cc's step counts for ncclFuncBroadcast: nsteps = nRanks, nInterSteps = nNodes (1,024 ranks over 128
    nodes: 896 steps over NVLink at 3.4 us, 128 over the network at 14 us, plus the 8.4 us base)."""
    hw = hardware_for(scenario_from_dict(H100))
    expected = 8.4 + (1024 - 128) * 3.4 + 128 * 14.0
    assert math.isclose(collective_latency(hw, BROADCAST, 1024, 1024, 8) * 1e6, expected)
    assert math.isclose(collective_latency(hw, BROADCAST, 8, 8, 8) * 1e6, 8.4 + 8 * 3.4)  # one node


def _internevo(gpus: int) -> dict:
    return {"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": gpus // 8,
            "framework": "internevo", "zero_stage": 1, "micro_batch": 2, "grad_accum": 4, "seq_len": 2048,
            "attention": "flash", "inter_node_bandwidth_bytes_per_s": 6.25e9}


def test_internevo_broadcasts_rank_by_rank_after_the_step():
    """InternEvo at c18bec9 (the code that measured doc/en/train_performance.md's table), ZeRO-1 over all ranks:
    internlm/solver/optimizer/utils.py reduce_tensor all-reduces each gradient bucket (reduce_rank None) of 512 x
    1024 x 1024 elements (configs/7B_sft.py), and hybrid_zero_optim.py broadcast_params broadcasts each rank's
    partition after the step and waits for them all. _partition_param_list gives whole tensors, largest first, to
    the rank with the fewest elements: Llama-3-8B has 32 x (7 linears + 2 norms) + 3 = 291 tensors, so at 1,024
    ranks 291 ranks broadcast, each a ring over all 1,024 (test_broadcast_is_a_ring_of_one_step_per_rank)."""
    from types import SimpleNamespace

    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.timing.collectives import group_latencies
    from engine.timing.data import framework_profile
    from engine.timing.data_parallel import data_parallel_seconds, parameter_tensors
    from engine.timing.links import link
    from engine.timing.model import rates_for

    s = scenario_from_dict(_internevo(1024))
    hw, prof, spec = hardware_for(s), framework_profile("internevo"), resolve_model(s)
    assert parameter_tensors(spec, 32) == 32 * 9 + 3
    rates = rates_for(s, hw, prof)
    params = 8.0e9
    busiest = SimpleNamespace(trainable=params, params=params, memory=0.0, fwd=10.0, bwd=20.0, layers=32)
    dp_comm, _ = data_parallel_seconds(s, hw, prof, rates, dtypes_for(s), busiest, spec)
    bus = link(hw, 1024, 8)[0]
    ar_lat = group_latencies(hw, 1024, 1024, 8, 1)[2]
    buckets = math.ceil(params / (512 * 1024 * 1024))  # 15
    # each bucket flattened, divided and copied back on the side stream (6 passes over its gradient bytes), and
    # the stream idle after each synchronize: a round trip, the bucket's 3 launches and one copy_ per tensor
    copies = 6 * params * dtypes_for(s).grad / rates.memory
    gap = buckets * 26.11e-6 + (291 + 3 * buckets) * 9.02e-6
    # NCCL's time for each 1.07 GB bucket (tuning.cc at 5067397): the tree, at 0.92 of the bus bandwidth and 1/2 as
    # algorithm bandwidth (lines 330, 380; no size correction past 512 MB, line 640), with its 260 us latency, beats
    # the ring's 9.7 ms x 1.4 plateau (line 649)
    assert ar_lat * 1e6 == pytest.approx(8.4 + 2 * (7 * 4.0 + 7 * 14.0))
    ring_bytes = 2 * 1023 / 1024 * params * dtypes_for(s).grad / bus
    assert 1024 / (1023 * 0.92) * ring_bytes / buckets + ar_lat < ring_bytes / buckets + 1.4 * (
        8.4 + (2046 - 254) * A100_HOP + 254 * 14.0) * 1e-6
    all_reduce = 1024 / (1023 * 0.92) * ring_bytes + copies + buckets * ar_lat
    broadcasts = 291 * (8.4 + (1024 - 128) * A100_HOP + 128 * 14.0) * 1e-6  # NVLink steps at the AMD host's 6 us
    gather = 1023 / 1024 * params * 2 / bus + broadcasts
    # each bucket hides behind the next one's 20 s / 15 of backward at the SM share NCCL holds (16 of the A100's
    # 108), the last one (after the backward) does not; the broadcasts have no window
    last = all_reduce / buckets
    assert math.isclose(dp_comm, gather + last + (all_reduce - last) * 16 / 108 + gap)
    # at 64 ranks every rank holds tensors: 64 broadcasts over 8 nodes
    s64 = scenario_from_dict(_internevo(64))
    dp64, _ = data_parallel_seconds(s64, hw, prof, rates, dtypes_for(s64), busiest, spec)
    bus64 = link(hw, 64, 8)[0]
    ar64 = group_latencies(hw, 64, 64, 8, 1)[2]
    gather64 = 63 / 64 * params * 2 / bus64 + 64 * (8.4 + 56 * A100_HOP + 8 * 14.0) * 1e-6
    # at 8 nodes the ring wins the bucket (the tree's 10% more bandwidth term outweighs its lower latency), at its
    # plateau latency: 1.4 x (8.4 + 112 x 6 + 14 x 14) us
    assert ar64 * 1e6 == pytest.approx(8.4 + 2 * (7 * 4.0 + 3 * 14.0))  # the tree's, lower: no longer the one run
    ar64 = 1.4 * (8.4 + 112 * A100_HOP + 14 * 14.0) * 1e-6
    all_reduce64 = 2 * 63 / 64 * params * dtypes_for(s64).grad / bus64 + copies + buckets * ar64
    last64 = all_reduce64 / buckets
    assert math.isclose(dp64, gather64 + last64 + (all_reduce64 - last64) * 16 / 108 + gap)


def test_internevo_reduces_one_bucket_at_a_time():
    """InternEvo's HybridZeroOptimizer._reduce_and_copy (InternLM/InternEvo internlm/solver/optimizer/
    hybrid_zero_optim.py line 404 at c18bec9) calls torch.cuda.synchronize() before each bucket's all-reduce,
    from the AccumulateGrad hook of the gradient that overflows the bucket: the previous bucket's all-reduce and
    all issued backward must finish first, so bucket k hides behind the backward that fills bucket k + 1 only and
    the last one (reduced in step() and synchronized again) behind nothing. Each of the first n - 1 costs the part
    of it that backward does not hide (a - w / n) or the compute it displaces while it runs (a x share,
    contention.contended), whichever is more: the displaced compute runs beside the bucket's own rest, so the
    two are not added."""
    from engine.timing.data_parallel import synced_buckets_seconds

    a, n, w = 0.05, 14, 0.5  # 1 GiB buckets over 50 GB/s of a node's NICs: ~43 ms + copies; 0.5 s of backward
    share = 16 / 108
    # 14.3 ms of each bucket outlasts its backward, more than the 7.4 ms it displaces at NCCL's SM share
    assert math.isclose(synced_buckets_seconds(n * a - n * 1e-3, n, 1e-3, 0.0, w, share), (n - 1) * (a - w / n) + a)
    # at Hopper's half rate (contention.py) each bucket displaces 25 ms of the backward beside it: that is what it costs
    assert math.isclose(synced_buckets_seconds(n * a - n * 1e-3, n, 1e-3, 0.0, w, 0.5), (n - 1) * a * 0.5 + a)
    # shorter than the backward that follows: only the last bucket shows
    assert math.isclose(synced_buckets_seconds(0.1, 4, 0.0, 0.0, 1.0, 0.0), 0.025)


def test_internevo_partition_puts_whole_tensors_on_ranks():
    """InternEvo's _partition_param_list (hybrid_zero_optim.py at c18bec9) sorts the parameters largest first and
    gives each to the rank with the fewest elements; from 32 ranks on, Llama-3-8B's embedding (128,256 x 4,096 =
    525,336,576 elements, its config) sits alone on the busiest rank, whose optimizer step every rank waits for in
    broadcast_params; at 8 ranks the 8.0e9 elements split about evenly."""
    from types import SimpleNamespace

    from engine.scenario import resolve_model
    from engine.timing.data import framework_profile
    from engine.timing.shard_groups import owned_parameters

    prof = framework_profile("internevo")
    for gpus in (32, 1024):
        s = scenario_from_dict(_internevo(gpus))
        spec = resolve_model(s)
        busiest = SimpleNamespace(trainable=spec.total_params, params=spec.total_params, layers=32)
        assert owned_parameters(s, prof, spec, busiest) == 128256 * 4096
    s8 = scenario_from_dict(_internevo(8))
    spec = resolve_model(s8)
    busiest = SimpleNamespace(trainable=spec.total_params, params=spec.total_params, layers=32)
    assert 1.0 <= owned_parameters(s8, prof, spec, busiest) / (spec.total_params / 8) < 1.05
    # DeepSpeed partitions flat: trainable / dp
    assert owned_parameters(s8, framework_profile("deepspeed"), spec, busiest) == spec.total_params / 8


def test_internevo_weak_scaling_falls_with_the_node_count():
    """InternEvo's table (InternLM/InternEvo doc/en/train_performance.md, tp=1, zero1=-1, fixed tokens per GPU):
    4,062 tokens/s per GPU on 8 A100s, 3,842 on 16, 2,271 on 1,024, a fall of 41% from 16 to 1,024 GPUs. The
    estimate falls at every doubling and by at least half of that (27% now; it was 2% while consecutive broadcasts
    were taken to pipeline along the ring); what is left is named in docs/time-model-notes.md."""
    from engine.accuracy.published_throughput import load_rows

    rows = sorted((r for r in load_rows() if r["id"].startswith("internevo-7b-a100-tp1-zero1_all-")),
                  key=lambda r: r["scenario"]["nodes"])
    assert [r["scenario"]["nodes"] for r in rows] == [1, 2, 4, 8, 16, 32, 64, 128]
    predicted = [step_time(scenario_from_dict(r["scenario"])).tokens_per_second_per_gpu for r in rows]
    assert all(later < earlier for earlier, later in zip(predicted, predicted[1:], strict=False))
    measured_fall = 1 - rows[-1]["measured"] / rows[1]["measured"]
    assert 1 - predicted[-1] / predicted[1] >= measured_fall / 2


def test_a100_tensor_parallel_all_reduce_takes_the_measured_sweep():
    """stas00/ml-engineering network/README.md at 744d01e ('Real network throughput', nccl-tests all_reduce_perf on
    one 8 x A100 node): 67,108,864 bytes in 684.6 us (busbw 171.54 GB/s), 134,217,728 in 1,327.6 us (176.92). A
    message on a point takes the point's time; between two points the busbw is log-linear in the size."""
    from engine.timing.collectives import measured_all_reduce_seconds, tp_unit_seconds

    assert math.isclose(measured_all_reduce_seconds("a100-80gb", 8, 67108864) * 1e6, 684.6, rel_tol=1e-3)
    assert math.isclose(measured_all_reduce_seconds("a100-40gb", 8, 134217728) * 1e6, 1327.6, rel_tol=1e-3)
    between = 2 * 7 / 8 * 94906266 / ((171.54e9 + 176.92e9) / 2)  # 2^26.5 bytes: halfway on the log scale
    assert math.isclose(measured_all_reduce_seconds("a100-80gb", 8, 94906266), between, rel_tol=1e-3)
    # TP 4 moves its message in ring steps of message / 4: read at the 8-rank message of the same step size
    assert math.isclose(measured_all_reduce_seconds("a100-80gb", 4, 33554432),
                        2 * 3 / 4 * 33554432 / 171.54e9, rel_tol=1e-3)
    # H100's sweep is NVLS's alone (NVLS off here), below the sweep (1 MB) or a group larger than the node measured:
    # the ring model
    assert measured_all_reduce_seconds("h100-sxm-80gb", 8, 67108864) == 0.0
    assert measured_all_reduce_seconds("a100-80gb", 8, 1e6) == 0.0
    hw = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8}))
    ring = 2 * 7 / 8 * 67108864 / 240e9 + 56e-6
    assert math.isclose(tp_unit_seconds(hw, 8, 67108864, 240e9, 56e-6, 0), ring)
    # the ring model at 0.8 x 300 GB/s and 56 us takes 20% less than the sweep measured at 64 MiB
    assert tp_unit_seconds(hw, 8, 67108864, 240e9, 56e-6, 8) > 1.2 * ring
