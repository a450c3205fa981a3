"""The time of the PyTorch-native FSDP2 stacks (OLMo-core, torchtitan, torchao's benchmarks through torchtitan): what
they run beside the GEMMs, each from the stack's own source."""

import pytest

from engine import scenario_from_dict
from engine.timing import step_time

OLMO_CORE = "allenai/OLMo-core at 7e58d1289bc27103880e7a8382ad0847c35e04f7"


def _s(**kw):
    base = {"model": "olmo-2-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "attention": "sdpa", "fsdp": True,
            "micro_batch": 2, "grad_accum": 4, "seq_len": 4096, "precision": "amp-bf16", "compile": True}
    return scenario_from_dict({**base, **kw})


def test_olmo_core_costs_fsdp2_copies_with_an_fp32_reduce():
    """OLMo-core shards with FSDP2 (src/olmo_core/nn/transformer/model.py apply_fsdp: fully_shard per block with
    MixedPrecisionPolicy(param_dtype, reduce_dtype), reshard_after_forward=True without pipelining) and reduces in
    float32 (src/olmo_core/distributed/parallel/data_parallel.py DataParallelConfig.reduce_dtype = DType.float32;
    src/scripts/train/OLMo2-7B.py sets reduce_dtype=DType.float32), reduce-scattering every micro-batch
    (train_module/transformer.py _train_microbatch_context only delays HSDP's all-reduce). So per micro-batch each
    of the two gathers casts the fp32 shard to bf16 into a flat buffer and copies that into the all-gather input
    (4 + 2 and 2 + 2 bytes per shard element) and splits the gathered bf16 buffer into the parameters (2 + 2 per
    element), the reduce-scatter's chunk_cat casts the bf16 gradients to fp32 (2 + 4 per element), and from the
    second micro-batch on the reduced fp32 shard is added to the sharded gradient (4 + 4 + 4 per shard element:
    torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py foreach_all_gather, foreach_all_gather_copy_out,
    foreach_reduce), none of which plain PyTorch's FSDP1 profile runs."""
    from engine.models.presets import model_spec_for
    from engine.timing.hardware import hardware_for

    olmo, plain = _s(framework="olmo-core"), _s(framework="pytorch")
    extra = step_time(olmo).breakdown_seconds["memory_bound"] - step_time(plain).breakdown_seconds["memory_bound"]
    params = model_spec_for("olmo-2-7b").total_params
    per_micro_batch = 2 * (4 + 2 + 2 + 2) / 8 * params + 2 * (2 + 2) * params + (2 + 4) * params
    accumulate = (olmo.grad_accum - 1) * (4 + 4 + 4) / 8 * params
    expected = olmo.grad_accum * per_micro_batch + accumulate
    assert extra == pytest.approx(expected / hardware_for(olmo).memory_bytes_per_s, rel=1e-3)


def test_olmo_core_casts_fp8_as_torchao_does():
    """OLMo-core's Float8Config builds torchao's Float8LinearConfig with dynamic (tensorwise) scaling of inputs,
    weights and output gradients (src/olmo_core/float8/__init__.py: scaling_type_* = Float8ScalingType.dynamic), so
    its fp8 casts are torchtitan's (the torchao-tensorwise figures of presets/efficiency.json fp8_cast_bytes), not
    Transformer Engine's delayed-scaling ones that plain PyTorch's profile takes."""
    def memory(framework, recipe="auto", gather="auto"):  # one AdamW for both (torchtitan's own is fused: runs.py)
        return step_time(_s(framework=framework, precision="fp8", fp8_recipe=recipe, optimizer="adamw",
                            fp8_all_gather=gather)).breakdown_seconds
    assert memory("olmo-core") == memory("olmo-core", "tensorwise")
    # the same stack as torchtitan's (FSDP2, fp32 reduce, torchao Float8Linear): term for term the same step, but
    # for the float8 all-gather OLMo-core turns on (test_float8_all_gather_casts_the_shard_instead_of_the_weight)
    assert memory("olmo-core", gather=False) == memory("torchtitan")
    assert memory("olmo-core")["memory_bound"] > memory("pytorch")["memory_bound"]


def test_mi300x_attention_runs_at_the_measured_ck_flashattention2_rate():
    """ROCm/flash-attention issue #142 (MI300X, ROCm 6.3.2, the repository's benchmark_flash_attention.py on its
    Composable Kernel build, head dim 128, non-causal, 16,384 tokens, batch 1 / 2 / 4 / 8): forward 353.2 / 355.5 /
    339.6 / 309.6 and backward 194.4 / 202.1 / 205.4 / 206.7 TFLOPS, medians 346.4 and 203.8; a training step runs
    the backward at 2.5x the forward's FLOPs, so the step's rate is 3.5 / (1 / 346.4 + 2.5 / 203.8) TFLOPS, whatever
    kernel the scenario names (FlashAttention-3 and cuDNN are NVIDIA-only; PyTorch's SDPA runs AOTriton, no faster).
    It stays below FlashAttention-2's H100 rate of a training step (0.326 x 989 TFLOPS, arXiv 2407.08608 figures),
    the bound it replaced: ROCm's port 'still needs more optimization' in its backward (ROCm/rocm-blogs
    blogs/ecosystems-and-partners/zyphra/README.md at 425e6c99)."""
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    measured = 3.5 / (1 / 346.4e12 + 2.5 / 203.8e12)
    for kernel in ("auto", "flash2", "flash3", "cudnn"):
        s = _s(model="llama-3-8b", gpu="mi300x", framework="torchtitan", attention_kernel=kernel)
        hw = hardware_for(s)
        attention = rates_for(s, hw, framework_profile("torchtitan")).attention
        assert attention == pytest.approx(measured * hw.sustained_fraction, rel=3e-3)
        assert attention < 0.326 * 989e12


def test_fsdp1_divides_the_whole_gradient_before_its_reduce_scatter():
    """FSDP1 (IBM's fms-fsdp: main_training.py at 0d319983 wraps in FullyShardedDataParallel with bf16 param and
    reduce dtypes) per micro-batch: before each of its two gathers copies the fp32 shard into the bf16 shard
    (_use_low_precision_shard, 4 + 2 bytes per shard element); after backward divides the whole unsharded bf16
    gradient in place by the pre-divide factor (torch/distributed/fsdp/_runtime_utils.py _reduce_grad, 2 + 2 per
    element), then the reduced shard by the post-divide factor (2 + 2 per shard element) and casts it to fp32
    (_cast_grad_to_param_dtype, 2 + 4). The factors are ~sqrt(world) (_get_gradient_predivide_factor): 16 and 6 on
    96 GPUs, both above 1, so both divisions run. FSDP2 (fully_shard) does neither division for bf16 or fp32
    reductions: NCCL's average does it (pytorch/pytorch pull requests #120919 and #123362)."""
    from engine.models.presets import model_spec_for
    from engine.timing.data_parallel import fsdp1_divide_factors
    from engine.timing.hardware import hardware_for

    assert fsdp1_divide_factors(96) == (16.0, 6.0) and fsdp1_divide_factors(2) == (2.0, 1.0)

    def memory(version):
        s = _s(model="llama-2-70b", framework="pytorch", gpus_per_node=8, nodes=12, micro_batch=2, grad_accum=1,
               precision="mixed-bf16", compile=False, attention="flash", checkpointing="full", fsdp_version=version)
        return step_time(s).breakdown_seconds["memory_bound"], hardware_for(s)

    (fsdp1, hw), fsdp2 = memory(1), memory(2)[0]
    params = model_spec_for("llama-2-70b").total_params
    expected = 2 * (4 + 2) / 96 * params + (2 + 2) * params + ((2 + 2) + (2 + 4)) / 96 * params
    assert fsdp1 - fsdp2 == pytest.approx(expected / hw.memory_bytes_per_s, rel=1e-3)


def test_float8_all_gather_casts_the_shard_instead_of_the_weight():
    """torchao's float8 all-gather (pytorch/ao torchao/float8/fsdp_utils.py at 50865d5,
    WeightWithDynamicFloat8CastTensor: fsdp_pre_all_gather casts the fp32 shard with the scale precomputed once a
    step, fsdp_post_all_gather hands Float8Linear its fp8 weight) against the bf16 gather: per gather and fp8
    linear weight element the copy-in is 4 + 1 and 1 + 1 bytes per shard element instead of 4 + 2 and 2 + 2, the
    copy-out 1 + 1 instead of 2 + 2; Float8Linear.forward no longer casts the whole weight each micro-batch (5 bytes
    per element, float8_linear.py); the scale reads each shard once a step (4). OLMo-core's Float8Config turns it on
    (src/olmo_core/float8/__init__.py at 7e58d12: enable_fsdp_float8_all_gather = True); torchtitan's default is
    off."""
    from engine.models.presets import model_spec_for
    from engine.timing.hardware import hardware_for

    def memory(framework, gather):
        s = _s(framework=framework, precision="fp8", fp8_all_gather=gather)
        return step_time(s).breakdown_seconds["memory_bound"], s

    (on, s), off = memory("olmo-core", True), memory("olmo-core", False)[0]
    assert memory("olmo-core", "auto")[0] == on and memory("torchtitan", "auto")[0] == memory("torchtitan", False)[0]
    spec = model_spec_for("olmo-2-7b")
    weights = spec.layers * sum(lin.params for lin in spec.layer_linears(False) if lin.group != "router")
    per_gather = ((4 + 1 + 1 + 1) / 8 + 2) - ((4 + 2 + 2 + 2) / 8 + 4)
    expected = (s.grad_accum * 2 * per_gather - s.grad_accum * 5 + 4 / 8) * weights
    assert on - off == pytest.approx(expected / hardware_for(s).memory_bytes_per_s, rel=1e-3)


def test_fsdp2_leaves_the_first_units_collectives_exposed():
    """torchtitan (torchtitan/models/llama3/infra/parallelize.py apply_fsdp since pull request #1094, 2025-07-28:
    fully_shard on tok_embeddings, on each block and on [norm, output]) under FSDP2 (torch/distributed/fsdp/
    _fully_shard: a unit all-gathers in its pre-forward hook; its gradients are reduce-scattered in its post-backward
    and _root_post_backward_final_callback makes the compute stream wait for the last reduce-scatter): nothing hides
    the embedding's gather, the first block's gather after it (only the embedding lookup runs between them), the
    first block's reduce-scatter and the embedding's (only the embedding's backward runs after them). Per micro-batch:
    the embedding and one block, gathered in bf16 (2 bytes) and reduce-scattered in fp32 (4 bytes: torchtitan's
    mixed_precision_reduce float32), each share (ranks - 1) / ranks of it over the link."""
    from engine.models.presets import model_spec_for
    from engine.timing.collectives import group_latencies
    from engine.timing.data_parallel import fsdp2_end_seconds
    from engine.timing.hardware import hardware_for
    from engine.timing.links import link, nvlink_domain

    spec = model_spec_for("llama-3-8b")
    s = _s(model="llama-3-8b", framework="torchtitan", grad_accum=1, seq_len=8192, micro_batch=1)
    params = spec.total_params

    class Stage:  # the whole model on each of the 8 ranks (no pipeline, no TP)
        trainable = params
        layers = spec.layers

    Stage.params = params
    block = (params - spec.embedding_params - spec.head_params) / spec.layers
    link_bytes = spec.embedding_params * (2 + 4) + block * (2 + 4)
    assert fsdp2_end_seconds(s, spec, Stage, 2 * params, 4 * params, 2, 1.0, 0.0) == pytest.approx(link_bytes)
    hw = hardware_for(s)
    ag, rs, _ = group_latencies(hw, 8, 8, nvlink_domain(s, hw), 1)
    ends = fsdp2_end_seconds(s, spec, Stage, 2 * params, 4 * params, 2, 7 / 8 / link(hw, 8, nvlink_domain(s, hw))[0],
                             ag + rs)
    assert step_time(s).breakdown_seconds["communication_dp"] >= ends > 0


def test_a_compiled_loss_reads_the_logits_once():
    """torchtitan compiles F.cross_entropy(pred.float(), labels) with the model since pull request #1033
    (torchtitan/components/loss.py build_cross_entropy_loss, 2025-04-02; before it 'compiling loss function causes
    CUDA errors, turning off for now'): Inductor fuses the upcast, log-softmax and its backward, so the loss reads the
    bf16 logits and writes their gradient once (presets/efficiency.json loss_bytes_per_token_per_vocab 'fused')
    instead of the eager upcast, log-softmax, backward and cast back ('standard'). compile_loss false states the
    older release (torchao's H100 float8 table and torchtitan's 2024 reports ran it)."""
    from engine.models.presets import model_spec_for
    from engine.timing.data import efficiency
    from engine.timing.hardware import hardware_for

    def memory(compile_loss):
        return step_time(_s(model="llama-3-8b", framework="torchtitan", grad_accum=1, micro_batch=1, seq_len=8192,
                            compile_loss=compile_loss)).breakdown_seconds["memory_bound"]
    table = efficiency()["loss_bytes_per_token_per_vocab"]
    s = _s(model="llama-3-8b")
    logits = 8192 * model_spec_for("llama-3-8b").vocab
    expected = logits * (table["standard"] - table["fused"]) / hardware_for(s).memory_bytes_per_s
    assert memory(False) - memory("auto") == pytest.approx(expected, rel=1e-6)
