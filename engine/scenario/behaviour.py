"""The behaviour a scenario gets: the framework's defaults, overridden by explicit scenario keys."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..frameworks.defaults import defaults_for
from ..models.presets import get_gpu
from .posttraining_checks import ONLINE_OBJECTIVES

if TYPE_CHECKING:
    from ..models.architecture import ModelSpec
    from . import Scenario


@dataclass(frozen=True, slots=True)
class Behaviour:
    framework: str
    cross_entropy: str  # standard | chunked | fused-linear
    loss_upcast: bool
    loss_chunks: int
    loss_chunk_tokens: int
    op_selective: bool  # per-op selective checkpointing (torchtitan/torchtune), not Megatron's attention core
    expandable_segments: bool
    loader: str
    peak_includes_load: bool
    main_grads_fp32: bool
    offload_checkpoints: bool
    deepspeed_buckets: bool  # ZeRO-3 gathers follow DeepSpeed's live-parameter and prefetch limits
    quantized_saves_inputs: bool  # QLoRA through bitsandbytes MatMul4Bit, which keeps each layer input
    compile_loss: bool  # `compile` covers the loss too (not only the transformer blocks)
    outputs_fp32: bool = False  # logits reach the loss as fp32 (Fabric's convert_output)
    logits_kept: bool = False  # the loop keeps the logits through backward and the optimizer step
    quantizes_head: bool = False  # QLoRA quantises the lm_head (from an fp16 copy)
    te_layers: bool = False  # Megatron-Core's Transformer Engine layers
    selective_by_modules: bool = False  # "selective" rebuilds the scenario's recompute_modules (Megatron)
    kernels_save_as_compiled: bool = False  # hand-written kernels save what a compiled layer saves (Unsloth)
    fused_lora_kernels: bool = False  # fused LoRA autograd functions replace peft's layers (Unsloth)
    grads_reduced_in_buffer: bool = False  # DDP reduces the gradient buffer in place (Megatron), no flat copy
    main_grad_aliases_grad: bool = False  # the last step's gradients stay referenced all step (Megatron 2021, fp16)
    loss_in_place: bool = False  # the loss works in place on one fp32 copy of the logits (Megatron)
    allocator_cache: str = ""  # an allocator that is not PyTorch's: its cache's name (FrameworkDefaults.allocator_cache)
    nf4_tensor_build: bool = False  # QLoRA weights are torchao NF4Tensors, quantised on the GPU as they are built


def cross_entropy_path(s: Scenario) -> str:
    """The loss path the scenario runs: its own choice, or its framework's default."""
    return _cross_entropy(s.framework, s.cross_entropy)


def _cross_entropy(framework: str, cross_entropy: str) -> str:
    return defaults_for(framework).cross_entropy if cross_entropy == "auto" else cross_entropy


def compiles_loss(s: Scenario) -> bool:
    """torch.compile covers the loss too (Behaviour.compile_loss, for a compiled scenario)."""
    return s.compile and _compile_loss(s.compile_loss)


def _compile_loss(compile_loss: bool | str) -> bool:
    return compile_loss == "auto" or bool(compile_loss)


def sac_saves_attention(s: Scenario) -> bool:
    """Per-op selective checkpointing keeps the attention kernel's output (scenario key op_sac_saves_attention, read
    where checkpointing is op-selective; auto: every framework's current release does, torchtitan's since pull request
    #2095 named every SDPA backend)."""
    return s.op_sac_saves_attention in (True, "auto") or s.checkpointing != "op-selective"


def quantizes_head(s: Scenario) -> bool:
    """QLoRA quantises the lm_head too (Fabric's bitsandbytes plugin replaces every nn.Linear)."""
    return _quantizes_head(s.framework, s.method)


def _quantizes_head(framework: str, method: str) -> bool:
    return method == "qlora" and defaults_for(framework).quantizes_head


def liger_can_patch(s: Scenario, spec: ModelSpec) -> bool:
    """Transformers' use_liger_kernel=True would patch this model (Llama-style RMSNorm, SwiGLU, no MLA), the scenario
    does not already run it, and its GPU runs Liger's Triton kernels (a LoRA on a Mac was told to install
    liger-kernel, user audit 7)."""
    return (defaults_for(s.framework).offers_liger_kernel and not s.liger_kernels and spec.norm_style == "llama"
            and spec.mlp_gated and spec.attention != "mla" and (not isinstance(s.gpu, str) or get_gpu(s.gpu).runs_triton))


def eight_bit_optimizer_runs(s: Scenario) -> bool:
    """bitsandbytes' 8-bit AdamW runs on the scenario's GPU (GpuPreset.runs_bnb_8bit_optimizers: not Apple's Metal
    nor Gaudi at bitsandbytes 0.50.1); a GPU typed in by hand is taken to run it."""
    return not isinstance(s.gpu, str) or get_gpu(s.gpu).runs_bnb_8bit_optimizers


def fsdp_shards(s: Scenario) -> bool:
    """The scenario shards with FSDP: its fsdp key, or zero_stage 3 under a framework whose only sharding is FSDP
    (its parallelism row: Parallelism.sharding), whose ZeRO-3 is its FSDP (torchtitan's FSDP2: Scenario.effective_zero;
    examples/qwen3-30b-a3b-8x-h100.json states it so), not DeepSpeed's per-module gathers."""
    return s.fsdp or (s.zero_stage == 3 and _zero3_is_fsdp(s.framework))


@lru_cache(maxsize=256)  # a framework id (a shipped row)
def _zero3_is_fsdp(framework: str) -> bool:
    return bool(defaults_for(framework).parallelism.sharding(3)["fsdp"])


def fsdp1_wrap(s: Scenario) -> bool:
    """The scenario shards with PyTorch's FSDP1 (FullyShardedDataParallel): its own fsdp_version, or its
    framework's default (engine/frameworks/defaults.py fsdp_version)."""
    return _fsdp1_wrap(s.framework, s.fsdp_version, s.fsdp, s.zero_stage)


@lru_cache(maxsize=1024)  # the framework's row and three keys: a step time asks three times
def _fsdp1_wrap(framework: str, fsdp_version: int | str, fsdp: bool, zero_stage: int) -> bool:
    version = defaults_for(framework).fsdp_version if fsdp_version == "auto" else fsdp_version
    return (fsdp or (zero_stage == 3 and _zero3_is_fsdp(framework))) and version == 1  # fsdp_shards and FSDP1


def whole_mla_down(s: Scenario) -> bool:
    """Whether each tensor-parallel rank holds an MLA layer's down projections whole (the framework's
    mla_down_proj: Megatron-Core's 'duplicated' TELinear, torchtitan's Replicate); False without tensor parallelism,
    where whole and split are one."""
    return s.tp > 1 and bool(defaults_for(s.framework).mla_down_proj)


def main_grads_fp32(s: Scenario) -> bool:
    """Gradients accumulate in an fp32 main_grad buffer: the scenario's main_grads_fp32, or its framework's default
    (what behaviour(s).main_grads_fp32 says, reading no other key: the stage time's memo ignores ZeRO and FSDP)."""
    return defaults_for(s.framework).main_grads_fp32 if s.main_grads_fp32 == "auto" else bool(s.main_grads_fp32)


def behaviour(s: Scenario) -> Behaviour:
    return _behaviour(s.framework, s.cross_entropy, s.checkpointing, s.expandable_segments, s.main_grads_fp32,
                      s.zero_stage, s.fsdp, s.method, s.compile_loss)


@lru_cache(maxsize=1024)  # bounded (engine.caches.clear_caches empties it); every scenario of a search shares a few
def _behaviour(framework: str, cross_entropy: str, checkpointing: str, expandable_segments: bool | str,
               main_grads_fp32: bool | str, zero_stage: int, fsdp: bool, method: str,
               compile_loss: bool | str = "auto") -> Behaviour:
    d = defaults_for(framework)
    # Megatron's unfused vocab-parallel loss holds the tensors of Megatron's own in-place fp32 loss under any
    # framework that names it (BigScience's Megatron-DeepSpeed too: mpu/cross_entropy.py at 1cb76a64 lines 36-81 sub_,
    # exp(out=), div_ on one fp32 copy, saved as the softmax); its time is its own (costs.loss_path)
    unfused = cross_entropy == "megatron-unfused"
    ce = "standard" if cross_entropy == "megatron-unfused" else _cross_entropy(framework, cross_entropy)
    op = checkpointing == "op-selective" or (checkpointing == "selective" and d.selective == "op")
    expandable = d.expandable_segments if expandable_segments == "auto" else bool(expandable_segments)
    main_fp32 = d.main_grads_fp32 if main_grads_fp32 == "auto" else bool(main_grads_fp32)
    return Behaviour(
        framework=framework,
        cross_entropy=ce,
        loss_upcast=d.loss_upcast if ce == d.cross_entropy else ce not in ("fused-linear", "no-upcast"),
        loss_chunks=d.loss_chunks if ce == d.cross_entropy and d.loss_chunks else 8,
        loss_chunk_tokens=d.loss_chunk_tokens if ce == d.cross_entropy else 0,
        op_selective=op,
        expandable_segments=expandable,
        loader=d.loader,
        peak_includes_load=d.peak_includes_load,
        main_grads_fp32=main_fp32,
        offload_checkpoints=d.offload_checkpoints and checkpointing == "full",
        deepspeed_buckets=d.zero_bucket_settings and zero_stage == 3 and not fsdp,
        quantized_saves_inputs=d.qlora_kernel == "bitsandbytes",
        # every framework's current release compiles the loss with the model (torchtitan since pull request #1033:
        # the sources of engine/frameworks/defaults.py); compile_loss false states an older torchtitan
        compile_loss=_compile_loss(compile_loss),
        # torchtune's TransformerDecoder.unembed casts a non-chunked output to fp32 (`self.output(h).float()`;
        # chunked_output leaves each chunk in the compute dtype): torchtune/modules/transformer.py at 1814feb17a
        outputs_fp32=d.outputs_fp32 or (d.unchunked_logits_fp32 and ce != "chunked"),
        logits_kept=d.logits_kept,
        quantizes_head=_quantizes_head(framework, method),
        te_layers=d.te_layers,
        selective_by_modules=d.selective_by_modules,
        kernels_save_as_compiled=d.kernels_save_as_compiled,
        fused_lora_kernels=d.fused_lora_kernels,
        grads_reduced_in_buffer=d.grads_reduced_in_buffer,
        # --accumulate-allreduce-grads-in-fp32 gives 2021 Megatron its contiguous buffer (engine/frameworks/megatron_2021.py)
        main_grad_aliases_grad=d.main_grad_aliases_grad and not main_fp32,
        loss_in_place=(d.loss_in_place and ce == "standard") or unfused,
        nf4_tensor_build=d.qlora_kernel == "torchao",
        allocator_cache=d.allocator_cache,
    )


def adapter_dtype_bytes(s: Scenario, compute: int) -> int:
    """Bytes per LoRA adapter parameter: fp32 (peft's default upcast of the adapters), the compute dtype, or with
    "auto" the framework's own (the model's dtype where it builds its adapters so; bf16 where its trainer for the
    objective casts a quantised model's adapters: engine/frameworks/defaults.py)."""
    if s.lora_adapter_dtype == "auto":
        if defaults_for(s.framework).lora_adapters_in_model_dtype:
            return compute
        return 2 if casts_adapters_to_bf16(s) else 4
    return 4 if s.lora_adapter_dtype == "fp32" else compute


def casts_adapters_to_bf16(s: Scenario) -> bool:
    """Whether the framework's trainer for the objective casts a quantised model's LoRA adapters to bf16 whatever the
    run's precision (FrameworkDefaults.quantized_adapters_bf16: TRL's), under lora_adapter_dtype auto."""
    return (s.lora_adapter_dtype == "auto" and s.method == "qlora"
            and s.training_objective in defaults_for(s.framework).quantized_adapters_bf16)


def bf16_adapters_on_fp16(s: Scenario) -> bool:
    """TRL's bf16 adapters (casts_adapters_to_bf16) on a model run in fp16 without autocast (precision fp16 or
    mixed-fp16): peft casts each adapted linear's input to the adapters' dtype whenever the dtypes differ, not the byte
    sizes (peft 0.21.0 tuners_utils.py _cast_input_dtype, lines 2220-2235: `if ... x.dtype == dtype: return x`, else
    x.to(dtype); lora/bnb.py Linear4bit.forward casts x to lora_A's dtype and the product back to the base output's),
    so an fp16 input meets bf16 adapters through a 2-byte copy per adapted linear, as fp32 adapters' 4-byte one."""
    return casts_adapters_to_bf16(s) and s.precision in ("fp16", "mixed-fp16")


def accelerate_native_amp(s: Scenario, compute: int) -> bool:
    """Whether accelerate's native amp wraps the trainer's forward: autocast, and every bf16/fp16 output cast to fp32.
    The framework's offline trainers run the HF Trainer with bf16/fp16 mixed precision (PostTrainingDefaults.
    outputs_fp32_without_deepspeed; its online ones where outputs_fp32_online names them), and accelerate turns native
    amp on outside DeepSpeed and Megatron (src/accelerate/accelerator.py at 16cb6eb8 lines 586-592; prepare_model
    1818-1829 wraps the forward in convert_outputs_to_fp32(autocast(forward)))."""
    objective = s.training_objective
    if objective == "sft" or compute != 2 or s.zero_stage != 0:
        return False
    facts = defaults_for(s.framework).posttraining
    return facts.outputs_fp32_without_deepspeed and (objective not in ONLINE_OBJECTIVES
                                                     or objective in facts.outputs_fp32_online)


def bf16_optimizer(s: Scenario) -> bool:
    """DeepSpeed wraps the optimizer in its BF16_Optimizer: bf16 training without ZeRO. DeepSpeedEngine.
    _configure_optimizer takes ZeRO's optimizer for stage >= 1, else FP16_Optimizer for fp16, else BF16_Optimizer for
    bf16 (microsoft/DeepSpeed deepspeed/runtime/engine.py at 15293139f, 2022-02-28, the bf16 branch BigScience ran,
    merged as 56c522386, pull request #1801; at 38327e07f, 2025, the same: get_data_types makes fp32 the gradient
    accumulation type of bf16 without ZeRO, and _do_optimizer_sanity_check returns BFLOAT16 for it). It keeps an fp32
    gradient of every parameter (fp32_groups_gradients_flat, torch.zeros_like at init), adds each micro-batch's bf16
    gradients into them, shards the fp32 master weights and optimizer states over the data-parallel ranks and
    all-gathers the updated bf16 weights after its step (deepspeed/runtime/bf16_optimizer.py): BigScience's 'bf16
    must use z0! it implements its own zero stage 1 equivalent' (bigscience-workshop/bigscience
    train/tr11-176B-ml/tr11-176B-ml.slurm). Frameworks that run DeepSpeed say so (engine/frameworks/defaults.py
    bf16_optimizer_without_zero); DeepSpeed of April 2021 (deepspeed-2021) predates it."""
    return (s.precision == "mixed-bf16" and s.zero_stage == 0 and not s.fsdp  # the keys first: most scenarios stop here
            and defaults_for(s.framework).bf16_optimizer_without_zero)
