"""What the time model's scenario keys accept (issue 13): their choices and bounds, the run length, the calibration
and a custom GPU's speed figures. The keys themselves are declared in engine/scenario.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from .keys import MEGATRON, TIME_ONLY, Choice, Flag, Number, WholeNumber
from .keys import key as declare

# triton: the Triton FlashAttention kernel (llm-foundry's attn_impl triton, llmfoundry/models/layers/flash_attn_triton.py
# compiled by triton-pre-mlir), which has no measured rate here and takes FlashAttention-1's generic figure
ATTENTION_KERNELS = ("auto", "flash1", "flash2", "flash3", "cudnn", "cudnn8", "flash4", "triton")
MOE_TOKEN_DISPATCHERS = ("alltoall", "allgather", "flex")
# rowwise / rowwise_with_gw_hp: torchao's Float8LinearRecipeName values (torchao/float8/config.py), as torchtitan's
# float8 recipe_name passes them on
FP8_RECIPES = ("auto", "delayed", "tensorwise", "mxfp8", "blockwise", "rowwise", "rowwise_with_gw_hp")
# Which parts of a step run as captured CUDA graphs (Megatron's cuda_graph_impl / cuda_graph_scope): captured
# kernels are replayed without the host launching each one.
CUDA_GRAPH_SCOPES = ("auto", "none", "moe-router", "attention", "layers", "full-iteration")
# The host CPU (and its training loop) that issues the kernels: auto, the GPU system's own; lent-h200, the lent H200
# machine that measured tests/data/gpu_measured (presets/host_overhead.json hosts); or a CPU by name, where a run's
# source states its cluster's host (presets/host_overhead.json host_cpus, each with its vendor, architecture and
# source: NCCL's per-step network overhead across nodes depends on them, engine/timing/host_cpu.py).
HOST_CPUS = ("auto", "lent-h200", "amd-epyc-7742", "amd-epyc-optimized-3rd-gen", "intel-xeon-8480c", "intel-xeon-8570",
             "intel-xeon-e5-2698-v4", "nvidia-grace")
# Which code decides whether eager attention's softmax runs fused (presets/efficiency.json eager_attention_softmax):
# auto, the framework's own (frameworks eager_softmax), else the generic eager figure; megatron-deepspeed-2022,
# BigScience's Megatron-DeepSpeed of late 2021 to March 2022; aleph-alpha-2023, Aleph Alpha's 2023 training code
# (arXiv:2311.05610's 'fused' kernel: no torch fallback).
EAGER_SOFTMAX_RULES = ("auto", "megatron-deepspeed-2022", "aleph-alpha-2023")
# The RMSNorm kernel a run uses (presets/efficiency.json rms_norm_kernel, engine/timing/norm_kernel.py): auto, the
# framework's own; fused, one fused kernel (flash-attn's rms_norm) where the framework's own is eager PyTorch ops.
RMS_NORM_KERNELS = ("auto", "fused")
# The CUDA release whose cuBLAS a run's PyTorch was built with, where its source states it (presets/efficiency.json
# gemm_alignment cuda_toolkits): auto, 11.7 or later; 11.6; 11.5 and the releases before it.
CUDA_TOOLKITS = ("auto", "11.5", "11.6")
# The code of a Megatron run's optimizer step, where it is not the framework profile's own (presets/efficiency.json
# optimizer_steps, engine/timing/offload.py): auto, the profile's; apex-distributed-fused-adam, Apex's
# DistributedFusedAdam, which NeMo 1.0 builds for optim distributed_fused_adam (NeMo v1.23 megatron_base_model.py).
OPTIMIZER_STEPS = ("auto", "apex-distributed-fused-adam")
# How the layers are split over pipeline stages: even, Megatron's split (the first stages take the remainder); the
# others, DeepSpeed PipelineModule's partition methods as Megatron-DeepSpeed's GPTModelPipe passes them
# (engine/memory/parallelism/deepspeed_partition.py).
PIPELINE_PARTITIONS = ("even", "type:transformer", "type:transformer|embedding", "uniform")
POSITIVE_OR_NULL = QT_TRANSLATE_NOOP("engine", "must be a positive number or null, not {p!r}.")
LINK_BANDWIDTH_OR_NULL = QT_TRANSLATE_NOOP("engine", "must be from {low:g} to {high:g} bytes per second (1 MB/s to "
                                                     "1 PB/s) or null, not {p!r}.")
# The speed figures a custom GPU may carry (all optional).
CUSTOM_GPU_SPEED_KEYS = ("bf16_tflops", "fp16_tflops", "fp32_tflops", "fp8_tflops", "memory_bandwidth_bytes_per_s",
                         "interconnect_bandwidth_bytes_per_s", "pcie_generation")
# Bounds of the speed figures. Below 1 MB/s (slower than USB 2.0) or 1 GFLOP/s (one phone core) no GPU trains
# anything and the step time runs toward infinity (1e-300 B/s once made it infinite); above 1 PB/s or 1 EFLOP/s
# per GPU (over 100x today's fastest HBM, 8 TB/s, and fp8 peak, 4.5 PFLOP/s) the time rounds to zero.
BANDWIDTH_BYTES_PER_S_RANGE = (1e6, 1e15)
TFLOPS_RANGE = (1e-3, 1e6)
PCIE_GENERATION_RANGE = (1, 10)
# fp8 dense peak is twice bf16's on every card in presets/gpus.json (at most 2.03x, L40S); a custom card claiming
# more would show MFU over 100% (MFU counts fp8 runs against the bf16 peak).
FP8_OVER_BF16_MAX = 2.1
# A calibration scales every time by measured / predicted. The time model is within tens of percent of published
# runs (tests/test_speed_accuracy.py): a measured step more than 10x off the prediction was taken of another set-up
# (or in ms entered as s), and 1e308 / 5e-324 made every time infinite. A step is 1 microsecond to 115 days.
CALIBRATION_FACTOR_RANGE = (0.1, 10.0)
CALIBRATION_STEP_SECONDS_RANGE = (1e-6, 1e7)


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value > 0


def _within(value: Any, bounds: tuple[float, float]) -> bool:
    return _positive(value) and bounds[0] <= value <= bounds[1]


def _speed_bounds(key: str) -> tuple[float, float]:
    if key.endswith("_tflops"):
        return TFLOPS_RANGE
    return PCIE_GENERATION_RANGE if key == "pcie_generation" else BANDWIDTH_BYTES_PER_S_RANGE


def parse_gpu_speed(value: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    """The speed figures of a custom GPU object, validated against their bounds."""
    speed = []
    for key in CUSTOM_GPU_SPEED_KEYS:
        v = value.get(key)
        if v is None:
            continue
        if not _positive(v):
            raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "{field} of a custom GPU must be a positive number, "
                                                                   "not {v!r}."), field=key, v=v)
        low, high = _speed_bounds(key)
        if not _within(v, (low, high)):
            raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "{field} of a custom GPU must be from {low:g} to "
                                                                   "{high:g}, not {v:.3g}."),
                                field=key, low=low, high=high, v=float(v))
        speed.append((key, v))
    given = dict(speed)
    # MFU of an fp8 run counts against the bf16 peak, which falls back to fp16, then fp32, when not given
    half = given.get("bf16_tflops") or given.get("fp16_tflops") or given.get("fp32_tflops")
    if half and given.get("fp8_tflops", 0) > FP8_OVER_BF16_MAX * half:
        raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "fp8_tflops of a custom GPU must be at most {ratio} "
                                                               "times its bf16_tflops (or, without one, its fp16 or "
                                                               "fp32 figure), as on every GPU known."),
                            ratio=FP8_OVER_BF16_MAX)
    return tuple(speed)


def parse_tokens_to_train(tokens: Any) -> int | None:
    if tokens is None:
        return None
    if isinstance(tokens, float) and tokens.is_integer():
        tokens = int(tokens)
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise ScenarioError("tokens_to_train", QT_TRANSLATE_NOOP("engine", "must be a whole number of tokens (at "
                                                                           "least 1) or null, not {v!r}."), v=tokens)
    return tokens


def parse_calibration(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    pair = (value.get("measured_step_seconds"), value.get("predicted_step_seconds")) if isinstance(value, dict) else ()
    if len(pair) != 2 or not all(_positive(v) for v in pair):
        raise ScenarioError("time_calibration", QT_TRANSLATE_NOOP(
            "engine", 'must be {{"measured_step_seconds": M, "predicted_step_seconds": P}} with two positive numbers.'))
    measured, predicted = float(pair[0]), float(pair[1])
    low, high = CALIBRATION_STEP_SECONDS_RANGE
    if not (_within(measured, CALIBRATION_STEP_SECONDS_RANGE) and _within(predicted, CALIBRATION_STEP_SECONDS_RANGE)):
        raise ScenarioError("time_calibration", QT_TRANSLATE_NOOP(
            "engine", "the measured and predicted step times must each be from {low:g} to {high:g} seconds."),
            low=low, high=high)
    if not CALIBRATION_FACTOR_RANGE[0] <= measured / predicted <= CALIBRATION_FACTOR_RANGE[1]:
        raise ScenarioError("time_calibration", QT_TRANSLATE_NOOP(
            "engine", "the measured step ({measured:.3g} s) is more than {limit:g} times off the predicted one "
            "({predicted:.3g} s): it was measured on another set-up, or in other units."),
            measured=measured, predicted=predicted, limit=CALIBRATION_FACTOR_RANGE[1])
    return measured, predicted


@dataclass(frozen=True, kw_only=True)
class TimeKeys:
    """Time keys declared outside engine/scenario/format.py (a base class of `Scenario`, like MemoryKeys)."""

    cuda_graphs: str = declare("auto", "which parts of a step run as captured CUDA graphs (Megatron's cuda_graph_scope): "
                           "none; moe-router (each MoE layer's pre-MLP norm, router and dispatcher preprocess, its "
                           "attention eager: cuda_graph_scope moe_router, moe_preprocess); attention (each layer's "
                           "attention and, for MoE, its router); layers (every transformer layer); full-iteration (the "
                           "whole forward and backward); auto: the framework's default (none)",
                           Choice(CUDA_GRAPH_SCOPES), affects=TIME_ONLY)
    host_cpu: str = declare("auto", "the host CPU that issues the kernels, and its training loop: auto, the GPU system's "
                            "own host (a DGX's figures; Grace's factor on GB200/GB300; the system's CPU, e.g. DGX A100's "
                            "AMD EPYC 7742); lent-h200, the lent H200 machine that recorded tests/data/gpu_measured (a "
                            "virtual machine's CPUs, slower per call, and a loop that synchronises after the forward, the "
                            "backward and the optimizer step); or a named CPU where the run's cluster has another host "
                            "than its GPU's standard system: amd-epyc-7742 (DGX A100), amd-epyc-optimized-3rd-gen "
                            "(Frontier), intel-xeon-8480c (DGX H100/H200), intel-xeon-8570 (DGX B200), "
                            "intel-xeon-e5-2698-v4 (DGX-1), nvidia-grace (Arm): NCCL's per-step network overhead of a "
                            "ring across nodes is 2 us on AMD x86 hosts, 1 us on others, x 3 for Simple (NVIDIA/nccl "
                            "src/graph/tuning.cc getNetOverhead; each CPU's source in presets/host_overhead.json "
                            "host_cpus); the per-call speed stays the GPU system's",
                            Choice(HOST_CPUS), affects=TIME_ONLY)
    fp8_all_gather: bool | str = declare(
        "auto", "FSDP2 all-gathers the fp8 linear layers' weights in float8 (torchao Float8LinearConfig "
        "enable_fsdp_float8_all_gather, tensorwise scaling): each shard is cast before the gather instead of every "
        "whole weight after it; auto: the framework's default (OLMo-core's Float8Config: on; torchtitan: off)",
        Flag(auto=True), affects=TIME_ONLY, applies_to="precision fp8")
    fused_expert_mlp: bool = declare(
        False, "the routed experts' MLP runs as Transformer Engine's fused grouped-MLP ops (Megatron-Core "
        "use_transformer_engine_op_fuser, which Megatron-Bridge's cutedsl_fused_grouped_mlp presets turn on): the "
        "activation with its clamp and the experts' biases run inside the fused ops (gpt-oss), not as separate "
        "element-wise kernels", Flag(), affects=TIME_ONLY, applies_to=MEGATRON)
    fp8_attention: bool = declare(
        False, "the attention core runs in fp8 (Transformer Engine's fp8_dot_product_attention, which "
        "Megatron-Bridge's fp8_dot_product_attention presets turn on: cuDNN's fp8 SDPA); it is timed at the bf16 "
        "kernel's rate, except that its backward visits every causal key tile of a sliding-window layer",
        Flag(), affects=TIME_ONLY, applies_to="precision fp8")
    eager_softmax: str = declare(
        "auto", "the code whose rule decides when eager attention's softmax runs as Megatron's fused kernel: "
        "megatron-deepspeed-2022 (bigscience-workshop/Megatron-DeepSpeed from October 2021 to March 2022, whose "
        "kernel check sizes its block by the heads per tensor-parallel rank: where micro-batch x heads per rank does "
        "not fill whole blocks, PyTorch's fp32 softmax runs instead); aleph-alpha-2023 (Aleph Alpha's 2023 training "
        "code, arXiv:2311.05610's 'fused' kernel: the fused masked softmax always runs, as a shape it does not take "
        "stops the run, 'Kernel not available', instead of falling back); auto: the framework's own code where its "
        "profile names one (Megatron-LM's rule for megatron-2021, megatron-2022 and megatron-zb: the fused kernel "
        "where micro-batch x heads per rank is a multiple of 4), else the generic eager figure",
        Choice(EAGER_SOFTMAX_RULES), affects=TIME_ONLY, applies_to="attention eager")
    optimizer_step: str = declare(
        "auto", "the code of the optimizer step under the megatron framework: apex-distributed-fused-adam (Apex's "
        "DistributedFusedAdam, NeMo 1.0's optim distributed_fused_adam: one zero_ pass over the rank's gradient "
        "buffer, the norm over its own shard of it, and a fused step that writes the 16-bit weights itself; no "
        "Megatron-Core norm check over the whole buffer, no main-to-model copy); auto: the framework's own "
        "(Megatron-Core's distributed optimizer for megatron)",
        Choice(OPTIMIZER_STEPS), affects=TIME_ONLY, applies_to=MEGATRON)
    rms_norm_kernel: str = declare(
        "auto", "the kernel the hidden-state RMSNorms run as: fused, one fused kernel where the framework's own norm is "
        "eager PyTorch ops (flash-attn's rms_norm, which Aleph Alpha's code calls for its non-torch norm: it reads the "
        "input and writes the output, and in the backward reads the gradient and the input and writes the input's "
        "gradient, where the eager norm runs some twenty ATen kernels); the framework's own where it is fused already "
        "(compiled, Liger-Kernel, Transformer Engine layers); auto: the framework's own. Memory: the fused kernel "
        "keeps only its input (in the input's dtype) and one fp32 figure per row for the backward, where the eager "
        "norm keeps an fp32 copy of its input and its normalised output",
        Choice(RMS_NORM_KERNELS))
    cuda_toolkit: str = declare(
        "auto", "the CUDA release whose cuBLAS the run's PyTorch was built with, where its source states it; it decides "
        "how fp16 and bf16 matmuls whose rows are not a multiple of 16 bytes run (eager attention at head dims that "
        "are not a multiple of 8): auto, 11.7 or later (tensor-core kernels of reduced alignment, 0.65-0.69 of the "
        "aligned rate); 11.6 (fp16 has them, bf16 runs on the CUDA cores); 11.5 and earlier (fp16 and bf16 run on the "
        "CUDA cores: 12.2 TFLOPS on an A100, 0.045 of its fp16 matmul rate)",
        Choice(CUDA_TOOLKITS), affects=TIME_ONLY)
    moe_grouped_gemm: bool = declare(
        True, "Megatron --moe-grouped-gemm: the routed experts run as Transformer Engine's GroupedLinear (TEGroupedMLP: "
        "one cuBLAS GEMM per local expert, up to 4 at once on its compute streams), as NVIDIA's recipes set it "
        "(NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/recipes/qwen/qwen3_moe.py at 2afd2d34: "
        "cfg.model.moe_grouped_gemm = True); false: Megatron-LM's own default (megatron/training/arguments.py at "
        "NVIDIA/Megatron-LM ba773259, core_v0.6.0: store_true, default False), SequentialMLP: one expert after "
        "another on one stream, and at EP 1 the allgather dispatcher's unfused gathers and scatters with autograd's "
        "per-expert copies of the whole gradient (engine/timing/sequential_experts.py)",
        Flag(), affects=TIME_ONLY, applies_to=MEGATRON)
    apply_rope_fusion: bool = declare(
        True, "Megatron's fused rotary-embedding kernel on q and k (TransformerConfig apply_rope_fusion, on unless "
        "--no-rope-fusion: megatron/training/arguments.py at NVIDIA/Megatron-LM ba773259, core_v0.6.0); false: "
        "Megatron-Core's eager apply_rotary_pos_emb_bshd (t * cos, the rotated half's negation and concatenation, "
        "* sin, the sum and a last concatenation: 10 more elements read and written forward and 11 backward per "
        "rotated query and key unit, engine/timing/rope_fusion.py; and cos and sin kept for backward, 4 x sequence / "
        "CP x rot_dim elements a layer, engine/frameworks/megatron_layer.py). Only Megatron-Core's rotary code reads "
        "it (verl's and NeMo-RL's Megatron workers run it too; Megatron-LM from a01b42ccac, 2023-11; the 2021-2023 "
        "releases had no RoPE switch, the Zero Bubble fork runs the legacy model); Megatron-Bridge / NeMo 2.0 runs "
        "take it from their model provider: on for Llama, Mixtral, Nemotron (Megatron-Bridge llama_bridge.py line "
        "60 and nemotron_bridge.py line 71 at 067f987d; NeMo llm/gpt/model/llama.py line 81) and wherever "
        "scripts/performance/utils/overrides.py lines 81-82 force it; off under Megatron-Core's TransformerConfig "
        "default (Qwen and other GPTModelProvider models outside that harness), which such a run states",
        Flag(), applies_to="framework megatron, verl-megatron, nemo-rl-megatron")
    pipeline_partition: str = declare(
        "even", "how the layers are split over pipeline stages: even (Megatron's split, the first stages taking the "
        "remainder); or DeepSpeed PipelineModule's partition method as Megatron-DeepSpeed's GPT model passes it "
        "(--pp-partition-method): type:transformer (its default: the decoder layers balanced, each stage up to "
        "ceil(layers / pp) of them, the last taking what is left), type:transformer|embedding (the embedding and the "
        "tied output layer counted as one layer each, as BigScience's BLOOM runs), uniform (every layer spec, casts "
        "and transposes included, counted alike); the output layer is on the last stage",
        Choice(PIPELINE_PARTITIONS), applies_to="framework deepspeed")
    inter_node_ring_bandwidth_bytes_per_s: float | None = declare(
        None, "bus bandwidth of one collective ring between nodes as measured on the cluster (nccl-tests' busbw of "
        "an all-reduce over its nodes): a data-parallel collective across nodes runs no faster, whatever number of "
        "its GPUs a node holds (NCCL drives one NIC pair per ring where a cluster's log shows its channels on one "
        "NIC); null: each of the group's GPUs in a node drives its own NIC at inter_node_bandwidth_bytes_per_s",
        Number(*BANDWIDTH_BYTES_PER_S_RANGE, LINK_BANDWIDTH_OR_NULL, low_inclusive=True, null=True), affects=TIME_ONLY)
    cp_comm_max_ctas: int = declare(
        0, "CTAs (NCCL channels) the context-parallel group's communicator may use, as Megatron's "
        "nccl_communicator_config_path sets them per group (max_ctas of its cp entry; MLPerf Training v5.1's "
        "custom_communicator_cta.yaml: 1): Transformer Engine's K/V ring then moves at most that many channels' rate "
        "(presets/efficiency.json nccl_channel_bytes_per_s); 0: NCCL's own choice, the link's rate",
        WholeNumber(0, 64), affects=TIME_ONLY, applies_to="cp > 1")
    op_sac_saves_attention: bool | str = declare(
        "auto", "per-op selective checkpointing keeps the attention kernel's output for the backward; false: the "
        "attention forward runs again in the backward and its output is not kept, as in torchtitan before pull "
        "request #2095 (December 2025) wherever SDPA ran cuDNN's kernel (its first backend on Blackwell from pull "
        "request #1196, May 2025), which its op_sac_save_list did not name; auto: as the framework's current "
        "release (kept)", Flag(auto=True), applies_to="checkpointing op-selective")
    grad_reduce_fp32: bool | str = declare(
        "auto", "the data-parallel gradient reduce (all-reduce, or ZeRO's and FSDP's reduce-scatter) moves fp32 "
        "gradients whatever dtype the gradients are kept in (FSDP's MixedPrecision reduce_dtype float32; Llama 3's "
        "FSDP, arXiv:2407.21783 section 3.3.2: 'reduce-scatter gradients in FP32 across data parallel workers'); "
        "false: the gradients' own dtype; auto: fp32 where the gradients accumulate in an fp32 buffer "
        "(main_grads_fp32: Megatron reduces that buffer, one setting --accumulate-allreduce-grads-in-fp32 for both), "
        "else the framework's (fp32 in torchtitan and OLMo-core, whose FSDP2 reduce_dtype is float32; the gradients' "
        "dtype in the others)", Flag(auto=True), affects=TIME_ONLY)
    packed_sequence_tokens: int = declare(
        0, "mean tokens of the sequences packed into a row, as attention sees them (sum of squares over sum of "
        "lengths): fused attention over packed or padding-free rows attends within each sequence (cu_seqlens / position "
        "ids: Transformer Engine's thd format, flash-attn's varlen kernels), so a row costs that length's attention, "
        "not seq_len's; 0: seq_len (one sequence fills a packed row, each padding-free sequence is seq_len tokens)",
        WholeNumber(0, 100_000_000), affects=TIME_ONLY, applies_to="packing padding-free, packed")
    tp_comm_overlap: bool | str = declare(
        "auto", "Megatron --tp-comm-overlap: Transformer Engine's userbuffers run the sequence-parallel all-gathers and "
        "reduce-scatters in chunks beside their GEMMs (engine/timing/tp_overlap.py); false: only the backward's "
        "asynchronous collectives hide behind GEMMs; auto: the framework's (on in NVIDIA's Megatron recipes)",
        Flag(auto=True), affects=TIME_ONLY, applies_to=MEGATRON)
