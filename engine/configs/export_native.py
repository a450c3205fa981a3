"""Launch configs of the PyTorch-native and Megatron trainers: a torchtune recipe config, a torchtitan job TOML and
Megatron-LM arguments (engine/configs/exporting.py dispatches to them)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import CustomModel, Scenario, resolve_model
from ..scenario.behaviour import cross_entropy_path, main_grads_fp32
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from .export_common import ExportError, half_precision, header, hsdp_degrees, lora_target_list, model_name, yaml_config
from .megatron_offload import offload_flags
from .models import TORCHTITAN_FLAVORS, TORCHTUNE_BUILDERS
from .torchtitan_float8 import float8_lines

_TT_OPT = {
    "adamw": "torch.optim.AdamW",
    "adamw-fused": "torch.optim.AdamW",
    "adamw-8bit": "bitsandbytes.optim.AdamW8bit",
    "adamw-8bit-paged": "bitsandbytes.optim.PagedAdamW8bit",
    "sgd": "torch.optim.SGD",
}



def _torchtune_builder(s: Scenario) -> str:
    if isinstance(s.model, CustomModel):
        raise ExportError(
            QT_TRANSLATE_NOOP("engine", "torchtune has no builder for the custom model '{name}'; pick a preset model."),
            name=s.model.name,
        )
    for builder, preset in TORCHTUNE_BUILDERS.items():
        if preset == s.model:
            family = (
                builder.split("_")[0]
                if not builder.startswith(("llama3_1", "llama3_2", "llama3_3", "qwen2_5"))
                else ("_".join(builder.split("_")[:2]))
            )
            return f"torchtune.models.{family}.{builder}"
    raise ExportError(QT_TRANSLATE_NOOP("engine", "torchtune has no builder for the model '{name}'."), name=s.model)


# the loss path -> torchtune's component (torchtune/modules/loss: chunked output projection + CE, or torch's CE)
_TT_LOSS = {"chunked": "torchtune.modules.loss.CEWithChunkedOutputLoss", "standard": "torch.nn.CrossEntropyLoss"}


def torchtune_config(s: Scenario) -> str:
    comp = _torchtune_builder(s)
    module, builder = comp.rsplit(".", 1)
    model: dict[str, Any] = {}
    optimizer = optimizer_used(s)  # "auto" resolved to the framework's own
    if s.method in ADAPTER_METHODS:
        builder = ("qlora_" if s.method == "qlora" else "lora_") + builder
        targets = lora_target_list(s)
        attn = [{"o_proj": "output_proj"}.get(t, t) for t in targets if t in ("q_proj", "k_proj", "v_proj", "o_proj")]
        model = {
            "lora_attn_modules": attn,
            "apply_lora_to_mlp": any(t in targets for t in ("gate_proj", "up_proj", "down_proj")),
            "apply_lora_to_output": "lm_head" in targets,
            "lora_rank": s.lora_rank,
            "lora_alpha": s.lora_alpha,
        }
    data: dict[str, Any] = {
        "model": {"_component_": f"{module}.{builder}", **model},
        "tokenizer": {"max_seq_len": s.seq_len},
        "batch_size": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "dtype": ({"bf16": "bf16", "fp32": "fp32"}.get(half_precision(s) or "fp32", "bf16")
                  if s.precision != "fp32" else "fp32"),
        "enable_activation_checkpointing": s.checkpointing != "none",
        "enable_activation_offloading": s.activation_offload,
        "optimizer_in_bwd": s.optimizer_in_backward,
        "compile": s.compile,
        "optimizer": {
            "_component_": _TT_OPT.get(optimizer, "torch.optim.AdamW"),
            **({"fused": True} if optimizer == "adamw-fused" else {}),
        },
    }
    loss = _TT_LOSS.get(cross_entropy_path(s))
    if loss:  # the loss the plan runs (torchtune's configs name CEWithChunkedOutputLoss; the import reads it back)
        data["loss"] = {"_component_": loss}
    if s.tp > 1:
        data["tensor_parallel_dim"] = s.tp
    if s.offload != "none":
        data["fsdp_cpu_offload"] = True
    recipe = ("lora_finetune" if s.method in ADAPTER_METHODS else "full_finetune") + (
        "_distributed" if s.world_size > 1 else "_single_device"
    )
    launch = f"# Launch: tune run --nproc_per_node {s.world_size} {recipe} --config torchtune.yaml\n"
    return launch + yaml_config(s, "torchtune", data)


def torchtitan_config(s: Scenario) -> str:
    flavor = next((k for k, v in TORCHTITAN_FLAVORS.items() if v == s.model), None)
    if flavor is None:
        raise ExportError(
            QT_TRANSLATE_NOOP("engine", "torchtitan has no model flavour for '{name}'; pick Llama 3.1 or Qwen3."),
            name=model_name(s),
        )
    other = s.tp * s.pp * s.cp
    # torchtitan shards only with FSDP2, so ZeRO-3 (zero_stage 3 without the fsdp key, as examples/qwen3-30b-a3b-8x-h100
    # .json states it) is that FSDP: the estimate shards it so (Scenario.effective_zero), and a replicate-only mesh
    # would keep a whole copy of the states on every GPU
    sharded = s.effective_zero == 3
    shard = s.world_size // other if sharded else 1
    replicate = 1 if sharded else s.world_size // other
    if sharded and s.dp_shard:  # HSDP: the ("dp_replicate", "dp_shard_cp") mesh, dp_shard x cp ranks a group
        shard, replicate = hsdp_degrees(s)
    elif sharded:  # torchtitan's -1: every rank the other degrees leave (config/job_config.py), as its configs say
        shard = -1
    converters, float8 = float8_lines(s)
    lines = [
        header(s, "torchtitan"),
        # torchtitan's run_train.sh: torchrun --nproc_per_node=${NGPU} ... -m torchtitan.train --job.config_file
        f"# Launch: torchrun --nnodes {s.nodes} --nproc_per_node {s.gpus_per_node} -m torchtitan.train "
        "--job.config_file torchtitan.toml",
        "[model]",
        f'name = "{flavor[0]}"',
        f'flavor = "{flavor[1]}"',
        *converters,
        "",
        "[training]",
        f"local_batch_size = {s.micro_batch}",
        f"seq_len = {s.seq_len}",
        f"global_batch_size = {s.micro_batch * s.grad_accum * (s.world_size // other)}",
        "",
        "[parallelism]",
        f"data_parallel_replicate_degree = {replicate}",
        f"data_parallel_shard_degree = {shard}",
        f"tensor_parallel_degree = {s.tp}",
        f"pipeline_parallel_degree = {s.pp}",
        f"context_parallel_degree = {s.cp}",
        *_pipeline_schedule(s),
        "",
        "[activation_checkpoint]",
        *_activation_checkpoint(s),
        "",
        "[compile]",
        f"enable = {'true' if s.compile else 'false'}",
        "",
        *([*float8, ""] if float8 else []),
    ]
    return "\n".join(lines)


MEGATRON_ATTENTION = {"flash": "flash", "eager": "unfused"}  # TE's UnfusedDotProductAttention: the whole softmax


def megatron_args(s: Scenario) -> str:
    spec = resolve_model(s)
    dp = s.world_size // (s.tp * s.pp * s.cp)
    args = [
        ("--tensor-model-parallel-size", s.tp),
        ("--pipeline-model-parallel-size", s.pp),
        ("--context-parallel-size", s.cp),
        ("--expert-model-parallel-size", s.ep),
        ("--micro-batch-size", s.micro_batch),
        ("--global-batch-size", s.micro_batch * s.grad_accum * dp),
        ("--seq-length", s.seq_len),
    ]
    args += _virtual_stage_args(s, spec.layers)
    flags = _zbv_flags(s, spec.layers)
    if s.pp > 1 and s.pp_schedule in ("zb-h1", "zb-2p"):  # the Zero Bubble fork's flags (configs/megatron.py reads them)
        flags.append("--enable-zero-bubble")
        args.append(("--zero-bubble-max-pending-backward", s.pp * (2 if s.pp_schedule == "zb-2p" else 1)))
    if s.sequence_parallel:
        flags.append("--sequence-parallel")
    half = half_precision(s)
    if s.precision == "fp8":
        args.append(("--fp8-format", "hybrid"))
        flags.append("--bf16")
        if s.fp8_param_gather:
            flags.append("--fp8-param-gather")
    elif s.precision == "nvfp4":  # Megatron's FP4 arguments: e2m1 under Transformer Engine's NVFP4 recipe (the
        # default --fp4-recipe; Megatron-Bridge's bf16_with_nvfp4_mixed sets fp4 'e2m1', fp4_recipe 'nvfp4' on bf16)
        args.append(("--fp4-format", "e2m1"))
        flags.append("--bf16")
    elif half:
        flags.append(f"--{half}")
    # the main_grad buffer's dtype as planned: Megatron makes it fp32 under bf16 unless --grad-reduce-in-bf16, and
    # 16-bit under fp16 unless --accumulate-allreduce-grads-in-fp32 (arguments.py at d98e8a64 lines 1204-1216)
    if half == "bf16" and not main_grads_fp32(s):
        flags.append("--grad-reduce-in-bf16")
    elif half == "fp16" and main_grads_fp32(s):
        flags.append("--accumulate-allreduce-grads-in-fp32")
    # ZeRO-1 is Megatron's distributed optimizer (its optimizer states sharded over the data-parallel ranks;
    # Scenario.effective_zero): a plan that sets zero_stage 1 (Fastest layouts, Make it fit) was written without it
    # and called "not in this megatron file" (user audit 16), so a student's launch held every state on every rank
    if s.distributed_optimizer or s.zero_stage == 1:
        flags.append("--use-distributed-optimizer")
        if s.dp_shard:  # instances of dp x cp / dp_shard ranks each (megatron/core/parallel_state.py at d98e8a64 l. 922-929)
            args.append(("--num-distributed-optimizer-instances", dp * s.cp // s.dp_shard))
    flags += offload_flags(s)  # Megatron's hybrid optimizer offload (megatron_offload.py)
    # the attention kernel: TransformerConfig.attention_backend, an AttnBackend (flash, fused, unfused, local, auto;
    # NVIDIA/Megatron-LM at d98e8a64 megatron/core/transformer/enums.py lines 51-58), a flag of its own through
    # ArgumentGroupFactory (megatron/training/argument_utils.py lines 106, 109-118); sdpa leaves auto, Transformer
    # Engine's own pick of its flash or fused kernel (both memory-efficient). configs/megatron.py reads it back; the
    # export called FlashAttention "not in this file" (user audit 16)
    if s.attention in MEGATRON_ATTENTION:
        args.append(("--attention-backend", MEGATRON_ATTENTION[s.attention]))
    if s.checkpointing in ("full", "selective"):
        args.append(("--recompute-granularity", s.checkpointing))
        if s.checkpointing == "full" and s.recompute_num_layers:  # some layers, or groups (recompute_layers.py)
            args += [("--recompute-method", s.recompute_method), ("--recompute-num-layers", s.recompute_num_layers)]
        elif s.checkpointing == "full":
            args += [("--recompute-method", "uniform"), ("--recompute-num-layers", 1)]
    model, mflags = _model_args(s, spec)
    out = [
        "#!/bin/bash",
        header(s, "megatron").rstrip(),
        "",
        f"torchrun --nproc_per_node {s.gpus_per_node} --nnodes {s.nodes} pretrain_gpt.py \\",
    ]
    body = [f"    {k} {v}" for k, v in model + args] + [f"    {f}" for f in mflags + flags]
    out += [line + " \\" for line in body[:-1]] + [body[-1]]
    return "\n".join(out) + "\n"


def _model_args(s: Scenario, spec: ModelSpec) -> tuple[list[tuple[str, object]], list[str]]:
    """The model's shape as Megatron-LM's arguments and switches (its experts and their dispatcher among them)."""
    model = [
        ("--num-layers", spec.layers),
        ("--hidden-size", spec.hidden),
        ("--ffn-hidden-size", spec.ffn),
        ("--num-attention-heads", spec.heads),
        ("--num-query-groups", spec.kv_heads),
        ("--kv-channels", spec.head_dim),
        ("--max-position-embeddings", spec.max_position or s.seq_len),
        ("--vocab-size", spec.vocab),
    ]
    mflags = _model_flags(spec)
    if not spec.tied_embeddings:
        mflags.append("--untie-embeddings-and-output-weights")
    if spec.n_experts:
        model += [
            ("--num-experts", spec.n_experts),
            ("--moe-router-topk", spec.top_k),
            ("--moe-ffn-hidden-size", spec.expert_ffn),
            ("--moe-token-dispatcher-type", s.moe_token_dispatcher_type),
        ]
        if s.moe_grouped_gemm:  # a store_true flag, off by default in Megatron-LM: the plan's grouped experts
            mflags.append("--moe-grouped-gemm")
    if not s.apply_rope_fusion and spec.rope:  # Megatron-Core's eager rotary embedding (store_false)
        mflags.append("--no-rope-fusion")
    return model, mflags


# Nemotron-3 / Nemotron-4 (model_type nemotron) as Megatron-LM spells them: NVIDIA/Megatron-LM at d98e8a64
# examples/mamba/run_text_gen_server_8b_gpt3.sh lines 24-38 (Nemotron-3 8B's shape), engine/models/nemotron_family.py
# (its rotary_percentage 0.5 comes from the model: _rotary_percent_flag)
_NEMOTRON_FLAGS = ["--squared-relu", "--apply-layernorm-1p"]


# Megatron-LM at d98e8a64: --add-qkv-bias is TransformerConfig.add_qkv_bias (megatron/core/transformer/
# transformer_config.py line 218, a flag through ArgumentGroupFactory; arguments.py lines 1608-1610 set it only
# where --disable-bias-linear is absent); the MLP activations are --swiglu, --squared-relu and --quick-geglu
# (megatron/training/argument_utils.py lines 314-327; gated_linear_unit and activation_func have no flag of their
# own, arguments.py's exclude list), so Gemma's GeGLU with tanh GELU and its sqrt(hidden) embedding scale
# (Megatron-Bridge 067f987d src/megatron/bridge/models/gemma/gemma_provider.py lines 33-45, modules.py
# EmbeddingScalingMixin) are Megatron-Bridge's model code, not flags.
def _model_flags(spec: ModelSpec) -> list[str]:
    """Megatron's flags for the model's layer: Llama-style (SwiGLU, RMSNorm, RoPE, no biases) for a gated MLP, as
    before; for a plain MLP the layer it has (LayerNorm where its norms have a bias, RoPE or learned absolute
    positions, biases kept where it has them, Megatron's GELU by default: NeMo's GPT-3; squared ReLU, LayerNorm1p
    and half rotary for Nemotron-3 / 4), where every model was written as a Llama. A hybrid Mamba-2 or gated
    DeltaNet stack is refused: these flags build a transformer."""
    if spec.block_kinds or "linear" in spec.kinds:
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "The Megatron export writes a transformer's flags, and {name} has Mamba-2 or gated DeltaNet "
                      "layers: take its model flags from its Megatron-Bridge recipe and add the parallel settings."),
            name=spec.name)
    if spec.norm_style == "gemma":  # Gemma 1 / 2 / 3 (Qwen3-Next's zero-centred norms are refused above)
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "Megatron-LM's flags cannot build {name}: its GeGLU MLP (tanh GELU; Megatron-LM has --swiglu "
                      "and --quick-geglu only) and its embeddings scaled by the square root of the hidden size have no "
                      "pretrain_gpt flag; take its model flags from its Megatron-Bridge recipe and add the parallel "
                      "settings."), name=spec.name)
    if spec.mlp_gated:  # Qwen2 / 2.5: biases on q, k and v only (add_qkv_bias, its own flag beside no other bias)
        return ["--group-query-attention", "--swiglu", "--normalization RMSNorm", "--position-embedding-type rope",
                "--disable-bias-linear", *(["--add-qkv-bias"] if spec.qkv_bias and not spec.o_bias else []),
                *_rotary_percent_flag(spec)]
    flags = ["--group-query-attention"] if spec.kv_heads < spec.heads else []
    flags += [f"--normalization {'LayerNorm' if spec.norm_bias else 'RMSNorm'}",
              f"--position-embedding-type {'rope' if spec.rope else 'learned_absolute'}"]
    if not (spec.qkv_bias or spec.o_bias or spec.mlp_bias):
        flags.append("--disable-bias-linear")
    return flags + (_NEMOTRON_FLAGS if spec.model_type == "nemotron" else []) + _rotary_percent_flag(spec)


def _rotary_percent_flag(spec: ModelSpec) -> list[str]:
    """--rotary-percent where the model rotates part of each head (a fraction: Megatron-LM arguments.py type=float,
    default 1.0; RotaryEmbedding's dim = int(kv_channels x rotary_percent), rotary_pos_embedding.py at
    NVIDIA/Megatron-LM ba773259 lines 68-70): Nemotron 0.5, Phi-2 0.4, Pythia 0.25, GLM-4.5 0.5 (hf_config.py)."""
    return [f"--rotary-percent {spec.rotary_fraction:g}"] if spec.rope and spec.rotary_fraction != 1.0 else []


def _zbv_flags(s: Scenario, layers: int) -> list[str]:
    """The Zero Bubble fork's ZB-V flag, and its layer padding where pp does not divide the layers (the fork asserts
    ZB-V's layers divisible by pp unless --allow-padding-num-layers pads them: f68d3879 megatron/arguments.py lines
    152-161 and 193-194)."""
    if s.pp <= 1 or s.pp_schedule != "zbv":
        return []
    return ["--zero-bubble-v-schedule", *(["--allow-padding-num-layers"] if layers % s.pp else [])]


# the planner's schedules torchtitan names (torch.distributed.pipelining get_schedule_class; configs/torchtitan.py
# reads the same names back); zb-h1 / zb-2p are the Zero Bubble fork's, with no torchtitan name
_TORCHTITAN_SCHEDULES = {"1f1b": "1F1B", "gpipe": "GPipe", "interleaved-1f1b": "Interleaved1F1B", "zbv": "ZBVZeroBubble"}


def _virtual_stage_args(s: Scenario, layers: int) -> list[tuple[str, Any]]:
    """The pipeline's layout or virtual stages as Megatron-LM takes them (megatron/training/arguments.py at d98e8a64
    lines 3103-3117, 927-951): the plan's pipeline_layout, which gives the stages itself; else the layers a virtual
    stage (since 2021-02; where they divide) or the stages a rank (since 2025-02). The file used to write
    --virtual-pipeline-model-parallel-size, which Megatron-LM removed in dcef906978 (2021-02; its parser rejects it),
    and left a layout a plan needs to run (Llama 3.1 405B's 126 layers on pp 16) out without a word (user audit 11).
    The Zero Bubble fork's --zero-bubble-v-schedule sets its two chunks itself."""
    if s.pipeline_layout:
        return [("--pipeline-model-parallel-layout", f"'{s.pipeline_layout}'")]
    if s.vpp <= 1 or s.pp_schedule == "zbv":
        return []
    if layers % (s.pp * s.vpp) == 0:
        return [("--num-layers-per-virtual-pipeline-stage", layers // (s.pp * s.vpp))]
    return [("--num-virtual-stages-per-pipeline-rank", s.vpp)]


def _pipeline_schedule(s: Scenario) -> list[str]:
    """[parallelism] pipeline_parallel_schedule where there is a pipeline and torchtitan has the schedule: without
    it torchtitan runs its default, "1F1B" (pytorch/torchtitan at b5bcd76c torchtitan/config/configs.py line 216), and
    a zbv plan's V of two stages a rank would be lost."""
    name = _TORCHTITAN_SCHEDULES.get(s.pp_schedule)
    return [f'pipeline_parallel_schedule = "{name}"'] if s.pp > 1 and name else []


def _activation_checkpoint(s: Scenario) -> list[str]:
    """torchtitan's [activation_checkpoint]: per-op selective, full, or every N-th block ("selective" with an
    integer option, activation_checkpoint.py) where full checkpointing recomputes only some layers: N = layers /
    recomputed, which gives floor(layers / N) of them (the nearest torchtitan states)."""
    if s.checkpointing == "full" and s.recompute_num_layers:
        every = max(1, resolve_model(s).layers // s.pp // s.recompute_num_layers)
        return ['mode = "selective"', f'selective_ac_option = "{every}"']
    mode = {"none": "none", "full": "full"}.get(s.checkpointing, "selective")
    return [f'mode = "{mode}"', 'selective_ac_option = "op"']
