"""What a framework row holds: one column per behaviour that changes memory or time, each with what it means.

engine/frameworks/defaults.py holds the rows themselves (TABLE, one per framework, each fact with its source) and the
framework names; this module is the row's type, split from it by meaning (the table had reached the 420-line limit).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import parallelism as par
from . import posttraining as rl
from . import runs as rn
from .posttraining import PostTrainingDefaults


@dataclass(frozen=True, slots=True)
class FrameworkDefaults:
    id: str
    label: str  # the framework's own name (proper noun, not translated)
    cross_entropy: str  # standard | chunked | fused-linear
    loss_upcast: bool  # the loss upcasts (chunks of) logits to fp32 before log-softmax
    loss_chunks: int  # chunks of the chunked loss (0: by tokens, see chunk_tokens)
    loss_chunk_tokens: int  # tokens per chunk when chunked by a fixed token count
    selective: str  # what checkpointing "selective" means: "attention" (Megatron) or "op" (per-op SAC)
    expandable_segments: bool  # PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True set by the launcher
    loader: str  # how weights reach the GPU: "direct" | "full-then-shard" | "sharded"
    peak_includes_load: bool  # the reported peak statistics are never reset after loading
    main_grads_fp32: bool  # gradients accumulated in an fp32 buffer (Megatron DDP main_grad)
    offload_checkpoints: bool  # "full" checkpointing moves each layer's saved input to CPU memory
    qlora_kernel: str  # "bitsandbytes" (Linear4bit, keeps its inputs) | "torchao" (NF4Tensor, keeps the weight
    # only) | "unsloth" (its own LoRA kernels over the 4-bit weight)
    sources: tuple[tuple[str, str], ...]  # (what, where it is set)
    outputs_fp32: bool = False  # the model's outputs (the logits) are cast to fp32 before the loss (Fabric)
    unchunked_logits_fp32: bool = False  # ... only when the loss is not chunked (torchtune's TransformerDecoder)
    logits_kept: bool = False  # the training loop's `logits` variable keeps them until the next forward returns
    unties_embeddings: bool = False  # the model always has its own lm_head weight (a copy of a tied embedding)
    quantizes_head: bool = False  # QLoRA quantises the lm_head too (every nn.Linear), weights quantised from fp16
    # QLoRA's input-gradient GEMM of each frozen quantised linear runs on a whole 16-bit copy of the weight made for
    # it (bitsandbytes MatMul4Bit / MatMul8bitLt, torchao's linear_nf4, Unsloth's fast_dequantize); false where the
    # kernel reads the packed weight (MLX's quantized_matmul)
    qlora_backward_copy: bool = True
    # ... and the forward's copies are written into one buffer per device, grown to the largest weight and never freed
    # (Unsloth's fast_dequantize(use_global_buffer=True) in matmul_lora, since 2025-02)
    qlora_dequant_buffer: bool = False
    # Tensor parallelism. torchtitan: parallelism.disable_loss_parallel defaults to false, so train.py runs the
    # loss under loss_parallel() whenever TP is on; Megatron: megatron/core/tensor_parallel/cross_entropy.py is
    # vocabulary-parallel always (layers.py VocabParallelEmbedding keeps only its shard's gradient, and its
    # sequence parallelism keeps each linear's input shard and gathers it again in backward).
    loss_parallel_by_default: bool = False  # under TP the loss is vocabulary-parallel unless the scenario says not
    loss_always_parallel: bool = False  # ... and even when the scenario says not (Megatron's own cross-entropy)
    vocab_parallel_embedding: bool = False  # the embedding's gradient is only the rank's vocabulary shard
    sp_saves_gathered_inputs: bool = True  # sequence parallelism: a column-parallel linear saves its gathered input
    # ... gathered once per block for all the linears that read it (torchtitan's PrepareModuleInput), not per linear
    sp_gathers_per_block: bool = False
    # torchtitan and torchtune recipes compute the loss on the logits outside the model's forward (transformers'
    # models compute it inside when given labels)
    loss_outside_model: bool = False
    # Megatron's schedules (megatron/core/pipeline_parallel/schedules.py, p2p_communication.py) allocate each
    # receive when it happens and free each output once sent (deallocate_pipeline_outputs); torch.distributed.
    # pipelining keeps a receive buffer per micro-batch and the outputs it returns. Megatron's interleaved schedule
    # also runs microbatch_group_size_per_vp_stage (default: pp) micro-batches through a chunk before the next.
    pipeline_frees_sent_outputs: bool = False
    # ... except Megatron-LM of 2021, whose schedules keep each sent output until its micro-batch's backward
    pipeline_keeps_sent_outputs: bool = False
    # torch.distributed.pipelining with FSDP2 (torchtitan, plain PyTorch): a stage keeps its weights unsharded
    # across micro-batches (torchtitan parallelize: reshard_after_forward = not pp_enabled) and accumulates
    # unsharded gradients until the last micro-batch (set_requires_gradient_sync / set_reshard_after_backward)
    pipeline_keeps_weights: bool = False
    # torchtitan's fsdp_reshard_after_forward "default" (apply_fsdp in torchtitan/models/llama3/infra/parallelize.py):
    # every block but the last is resharded after forward, "since FSDP would prefetch it immediately"
    fsdp_keeps_last_layer: bool = False
    pipeline_returns_outputs: bool = True  # False: torchtitan steps its schedule with return_outputs=False
    # DeepSpeed's PipelineEngine receives into one activation buffer and one gradient buffer allocated once
    # (deepspeed/runtime/pipe/engine.py at edaa7221: pipe_recv_buf, grad_layer), not one per micro-batch
    pipeline_recv_once: bool = False
    # PyTorch's load-balanced ring attention (torch.distributed.tensor.experimental.context_parallel), whose merge
    # copies the output; Megatron's context parallelism runs inside TransformerEngine's attention
    cp_ring_attention: bool = True
    # context parallelism that all-gathers every rank's K and V before the attention kernel and reduce-scatters
    # their gradients after its backward, both on the critical path (timing/context_parallel.py
    # kv_all_gather_seconds): Meta's stack for Llama 3 (engine/frameworks/meta_llama3.py), not a ring
    cp_kv_all_gather: bool = False
    # the model repeats the K/V heads to the query heads before calling SDPA, so what the ring carries and merges is
    # query-sized (torchtitan's Llama, torchtitan/models/llama/model.py at 9dec370, the CP report's commit:
    # keys = repeat_kv(xk, self.n_rep) before F.scaled_dot_product_attention)
    attention_kv_expanded: bool = False
    # sequence parallelism through DTensor on batch-first activations (Shard(1)): functional collectives gather and
    # scatter dim 0 and reorder with torch.cat, a copy of the gathered tensor each (timing/sequence_parallel.py)
    sp_batch_first_copies: bool = False
    # expert parallelism by torchtitan's all-to-all token dispatch; Megatron's token dispatcher keeps its own
    # buffers (not traced here)
    ep_all_to_all_dispatch: bool = True
    # Megatron-Core builds its layers from Transformer Engine modules (megatron/core/models/gpt/gpt_layer_specs.py;
    # what they save: engine/frameworks/megatron_layer.py), and its --recompute-granularity selective rebuilds the
    # modules named by --recompute-modules (default core_attn) rather than the attention core alone
    te_layers: bool = False
    selective_by_modules: bool = False
    # Megatron-Core's rotary embedding with its apply_rope_fusion switch (scenario key apply_rope_fusion): the fused
    # kernel or apply_rotary_pos_emb_bshd (megatron/core/models/common/embeddings/rotary_pos_embedding.py at
    # NVIDIA/Megatron-LM ba773259 lines 173-244). False where the code has no such switch: Megatron-LM before
    # a01b42ccac (2023-11-19, the knob) had no RoPE at all before 1e0e555c43 (2023-03-31), and the legacy model
    # path (megatron/model/) never read the knob
    megatron_core_rope: bool = False
    # The framework runs its time profile's optimizer step passes (presets/efficiency.json frameworks
    # step_bytes_per_param, step_grad_buffer_passes, step_main_grad_cast: the code they were counted from). False where
    # the row borrows a profile whose step code it does not run (meta-llama3: Megatron-LM's profile as a stand-in for
    # Meta's own stack, arXiv:2407.21783 section 3.3, not Megatron-Core's distributed optimizer), which then takes
    # the generic gradient passes (optimizer_bytes_per_param clip_passes) as the frameworks of no counted step do
    profile_step_passes: bool = True
    # An MLA layer's down projections (engine/models/layer_shapes.py MLA_DOWN_PROJECTIONS) under tensor parallelism:
    # "" split like the other attention linears; "duplicated": Megatron-Core's TE spec builds them as TELinear with
    # parallel_mode 'duplicated', whole on every rank, each rank multiplying its own sequence-parallel tokens (the whole
    # sequence without SP), their gradients summed over the TP group once a step under SP (finalize_model_grads);
    # "replicated": torchtitan's Replicate weights on the attention input gathered to the whole sequence
    mla_down_proj: str = ""
    # Unsloth's hand-written kernels save what a compiled layer saves: fast_rms_layernorm keeps X and the inverse
    # RMS (unsloth/kernels/rms_layernorm.py), LoRA_MLP keeps X, gate and up (unsloth/kernels/fast_lora.py); its
    # fused LoRA autograd functions (LoRA_QKV / LoRA_W / LoRA_MLP) replace peft's and bitsandbytes' layers
    kernels_save_as_compiled: bool = False
    fused_lora_kernels: bool = False
    # Megatron-LM's arguments (--use-distributed-optimizer, --accumulate-allreduce-grads-in-fp32,
    # --recompute-modules, --cpu-offloading-num-layers, --account-for-*-in-pipeline-split,
    # --moe-token-dispatcher-type): the window offers them for this framework
    takes_megatron_arguments: bool = False
    # Tensor-parallel collectives beside GEMMs (engine/timing/tp_overlap.py): tp_async_backward, a column-parallel
    # linear's backward runs its input all-gather beside the dgrad GEMM and its input-gradient reduce-scatter or
    # all-reduce beside the wgrad GEMM (Megatron-Core's LinearWithGradAccumulationAndAsyncCommunication, Transformer
    # Engine's modules); tp_comm_overlap, what the scenario's tp_comm_overlap "auto" means (userbuffers)
    tp_async_backward: bool = False
    tp_comm_overlap: bool = False
    pipeline_layouts: bool = False  # Megatron-Core's pipeline_model_parallel_layout: uneven chunks (pipeline_chunks.py)
    # DeepSpeed's ZeRO bucket settings (deepspeed/runtime/zero/config.py: reduce_bucket_size, allgather_bucket_size,
    # stage3_max_live_parameters, stage3_prefetch_bucket_size) apply
    zero_bucket_settings: bool = False
    # transformers' TrainingArguments.use_liger_kernel patches the model with Liger-Kernel's layers when the
    # Trainer builds it (transformers/trainer.py)
    offers_liger_kernel: bool = False
    # Megatron's DDP reduces (all-reduce or reduce-scatter) its contiguous gradient buffer in place, whatever its
    # dtype (megatron/core/distributed/param_and_grad_buffer.py: each bucket is a view of the grad buffer; the
    # main_grad of every parameter is a view too): no second, flat copy of the gradients as PyTorch's DDP keeps
    grads_reduced_in_buffer: bool = False
    # ... except Megatron-LM of 2021 without that buffer (fp16), whose param.main_grad keeps the last step's gradients
    main_grad_aliases_grad: bool = False
    # lora_adapter_dtype "auto": the framework builds its LoRA adapters in the model's dtype rather than peft's fp32
    lora_adapters_in_model_dtype: bool = False
    # lora_adapter_dtype "auto" of a QLoRA plan: the objectives whose trainer casts a bitsandbytes-quantised model's
    # trainable parameters (its LoRA adapters) to bfloat16 after get_peft_model, whatever the precision (TRL's own
    # trainers since v0.26.0: defaults.py); the adapters' weights, gradients and torch AdamW's states are then 2 bytes
    quantized_adapters_bf16: tuple[str, ...] = ()
    # the cross-entropy works in place on one fp32 copy of the logits (Megatron's _VocabParallelCrossEntropy)
    loss_in_place: bool = False
    # the framework's Adam is always a fused multi-tensor kernel (no state-sized temporaries), whatever the scenario's
    # "adamw" says: Megatron's --optimizer adam is Transformer Engine's (else Apex's) FusedAdam; DeepSpeed 2021-22 (runs.py)
    adam_fused: bool = False
    # bf16 without ZeRO runs DeepSpeed's BF16_Optimizer: fp32 gradients of every parameter, master weights and
    # optimizer states sharded over data-parallel ranks (engine/scenario/behaviour.py bf16_optimizer cites the lines)
    bf16_optimizer_without_zero: bool = False
    # FSDP2: the token embedding is its own unit, resharded after its forward and never gathered in backward
    # (set_unshard_in_backward(False): its weight gradient needs only the ids), so it is not part of the root unit
    # that stays gathered around the loss
    fsdp_embedding_unit: bool = False
    # LoRA on "all-linear" (or on the MLP projections) also adapts every routed expert: one A and one B per expert
    # for the grouped fc1 (hidden -> 2 x expert_ffn when gated) and fc2 (expert_ffn -> hidden)
    lora_adapts_experts: bool = False
    # the optimizer keeps an fp32 master copy of bf16 adapters and accumulates their gradients in the fp32 main_grad
    # buffer, as for any bf16 parameter (peft's fp32 adapters need neither)
    adapters_fp32_master: bool = False
    # the framework runs on its own Metal kernels (MLX), so only on GPUs that run them (GpuPreset.runs_mlx), not through
    # PyTorch on CUDA, ROCm or Gaudi
    metal_only: bool = False
    # the cache of an allocator that is not PyTorch's (MLX's Metal buffer cache), named where the planner's "reserved"
    # figure would stand: PyTorch's caching-allocator model (frameworks/allocator.py) is not its; "": PyTorch's
    allocator_cache: str = ""
    # the framework's own counter of the peak allocated memory, the figure the planner's "peak allocated" stands for
    # (the plan card's assumptions name it); "": PyTorch's torch.cuda.max_memory_allocated
    peak_counter: str = ""
    # a vision-language model's vision tower is the Hugging Face module, whole on every tensor-parallel rank
    vision_tower_replicated: bool = False
    # the PyTorch FSDP a scenario's fsdp runs by default: 1 (FullyShardedDataParallel, whose wrap flattens each unit
    # into a FlatParameter: engine/memory/loading.py) or 2 (fully_shard, per-parameter DTensor shards)
    fsdp_version: int = 2
    checkpoint_save: str = ""  # its default save's CPU copy: fsdp1-full | torch-dist | deepspeed-torch-save (memory/)
    # post-training defaults (engine/frameworks/posttraining.py): what "auto" means for the rollout engine, the
    # reference, the log-prob path and the weight sync; frameworks without post-training trainers of their own run TRL's
    posttraining: PostTrainingDefaults = rl.TRL
    profile: str = ""  # the time model's framework profile (presets/efficiency.json) when not this row's own id
    parallelism: par.Parallelism = par.ANY  # the layouts it can run, with their sources (frameworks/parallelism.py)
    runs: rn.Runs = rn.ANY  # the checkpointing modes and training methods it runs, with their sources (frameworks/runs.py)
