"""MLX (Apple's array framework) training through mlx-lm's tuner, as a framework row: its memory facts, the layouts and
modes it runs, each with where it is written. Its time profile is presets/efficiency.json frameworks "mlx".

Sources: ml-explore/mlx at 846d176227a0 (v0.32.1-26, 2026-08-22) and ml-explore/mlx-lm at d78bf58e217c (2026-08-22).
MLX evaluates lazily: Python builds the step's graph and mx.eval runs it, with no per-op dispatch from Python as
PyTorch's eager mode has; mlx-lm compiles the whole step (forward, backward, optimizer) with mx.compile, which fuses
element-wise chains into single Metal kernels. Its kernels are MLX's own (steel GEMMs, mx.fast.rms_norm, rope and
scaled_dot_product_attention), so it runs on Apple GPUs (GpuPreset.runs_mlx), not through PyTorch.
"""

from __future__ import annotations

from dataclasses import replace

from ..messages import QT_TRANSLATE_NOOP
from .framework_row import FrameworkDefaults
from .parallelism_row import Parallelism
from .runs import WHOLE_LAYERS, Runs
from .shard_group_facts import ShardGroups, grouped

MLX_AT = "ml-explore/mlx at 846d176227a0"
MLX_LM_AT = "ml-explore/mlx-lm at d78bf58e217c"

_DATA_PARALLEL = (MLX_LM_AT + " mlx_lm/tuner/trainer.py lines 231-254: mx.distributed.init() and, in the compiled "
                  "step after the backward, average_gradients(grad) (" + MLX_AT + " python/mlx/nn/utils.py lines "
                  "99-170: all_sum over groups of gradients up to all_reduce_size 32 MiB): data parallelism only, the "
                  "reduction after the whole backward")

PARALLELISM = grouped(Parallelism(
    pp_schedules=(), max_zero=0, max_zero_with_pp=0, tensor=False, context=False, expert=False, zero_stages=(0,),
    offloads=("none",), sources=(
        ("pipeline schedules, tensor, context, expert", MLX_LM_AT + " mlx_lm/tuner/trainer.py train: one model per "
         "process, no pipeline, tensor, context or expert parallelism in training (mlx_lm/utils.py sharded_load's "
         "tensor-parallel shards serve generation only)"),
        ("ZeRO, ZeRO with PP, offload", _DATA_PARALLEL + "; every rank keeps the whole model, its gradients and the "
         "optimizer state, and nothing is offloaded"),
    )), ShardGroups((), _DATA_PARALLEL + ": no sharding to group"))

RUNS = Runs(WHOLE_LAYERS, recompute_methods=(), optimizer="adamw", sources=(
    ("checkpointing", MLX_LM_AT + " mlx_lm/tuner/trainer.py lines 25-38 grad_checkpoint: with --grad-checkpoint the "
     "decoder layer's class __call__ runs under mx.checkpoint (" + MLX_AT + " python/mlx/nn/utils.py checkpoint), "
     "whole layers only"),
    ("methods", MLX_LM_AT + " mlx_lm/lora.py lines 233-253: --fine-tune-type full (the top --num-layers layers "
     "trained: frozen layers), lora and dora (mlx_lm/tuner/utils.py linear_to_lora_layers on the top --num-layers "
     "layers: lora_layers); a quantized model (mlx_lm.convert -q, nn.QuantizedLinear) takes LoRA over its packed "
     "weights, QLoRA"),
    ("optimizer", MLX_LM_AT + " mlx_lm/lora.py lines 47-48 and 284-300: --optimizer adam (default), adamw, muon, sgd or "
     "adafactor, mlx.optimizers' classes (" + MLX_AT + " python/mlx/optimizers/optimizers.py Adam.init_single lines "
     "519-520: m and v zeros_like the parameter, in its dtype); taken as the planner's AdamW (the same two states)"),
    ("optimizers", MLX_AT + " python/mlx/optimizers/optimizers.py: SGD (momentum), Adam, AdamW, Adafactor and others, "
     "each updated inside mlx-lm's compiled step (AdamW: its own, fused by mx.compile, FrameworkDefaults.adam_fused); "
     "no torch.optim fused=True switch and no bitsandbytes 8-bit or paged AdamW (bitsandbytes is CUDA/ROCm code)"),
    ("attention", MLX_LM_AT + " mlx_lm/models/base.py line 132 scaled_dot_product_attention: every training forward "
     "calls mx.fast.scaled_dot_product_attention (" + MLX_AT + " mlx/fast.cpp); no FlashAttention package and no "
     "eager-attention switch"),
), optimizers=("auto", "adamw", "sgd", "sgd-momentum", "adafactor"), attentions=("sdpa",), own_names=(
    ("optimizer", "adamw", QT_TRANSLATE_NOOP("engine", "AdamW (mlx.optimizers, compiled into the step)")),
    ("optimizer", "sgd", QT_TRANSLATE_NOOP("engine", "SGD (mlx.optimizers)")),
    ("optimizer", "sgd-momentum", QT_TRANSLATE_NOOP("engine", "SGD with momentum (mlx.optimizers)")),
    ("optimizer", "adafactor", QT_TRANSLATE_NOOP("engine", "Adafactor (mlx.optimizers)")),
    ("attention", "sdpa", QT_TRANSLATE_NOOP("engine", "MLX fused attention (mx.fast.scaled_dot_product_attention)")),
))
# MLX v0.0.6 had no mx.fast: attention ran op by op (scores stored), its AdamW eager (no mx.compile)
RUNS_2023 = replace(RUNS, attentions=("eager",), own_names=(
    *(name for name in RUNS.own_names if name[0] == "optimizer" and name[1] != "adamw"),
    ("optimizer", "adamw", QT_TRANSLATE_NOOP("engine", "AdamW (mlx.optimizers, eager)")),
    ("attention", "eager", QT_TRANSLATE_NOOP("engine", "MLX attention op by op (stores b·a·s² scores)"))),
    sources=(*RUNS.sources, ("attention at v0.0.6", "ml-explore/mlx at v0.0.6 (8385f93ce) python/mlx/nn/layers/"
                             "transformer.py MultiHeadAttention: queries @ keys, softmax, @ values as separate ops (no "
                             "mx.fast before ccf164599, 2024-02-14); the optimizers as at 846d176227a0 (SGD and "
                             "AdamW there at v0.0.6; Adafactor not checked at that release)")))

ROW = FrameworkDefaults(
    "mlx", "MLX (mlx-lm)", "standard", False, 1, 0, "attention", False, "direct", True, False, False, "torchao",
    (("loss", MLX_LM_AT + " mlx_lm/tuner/trainer.py lines 86-99 default_loss: nn.losses.cross_entropy(logits, targets) "
      "over the whole logits in the model's dtype (" + MLX_AT + " python/mlx/nn/losses.py lines 86-110: the max "
      "subtracted, take_along_axis and mx.logsumexp, no fp32 upcast); only the per-token loss is cast to float32"),
     ("compile", MLX_LM_AT + " mlx_lm/tuner/trainer.py lines 246-258: @partial(mx.compile, inputs=state, "
      "outputs=state) step: forward, value_and_grad's backward and optimizer.update compiled as one graph, whose "
      "element-wise chains MLX fuses into one kernel each"),
     ("kernels", MLX_AT + " python/mlx/nn/layers/normalization.py line 164 RMSNorm: mx.fast.rms_norm, "
      "positional_encoding.py line 47 RoPE: mx.fast.rope; " + MLX_LM_AT + " mlx_lm/models/base.py line 132 "
      "mx.fast.scaled_dot_product_attention; mlx_lm/models/activations.py lines 9-11 swiglu compiled "
      "(shapeless)"),
     ("LoRA", MLX_LM_AT + " mlx_lm/tuner/lora.py lines 88-93 LoRALinear: lora_a mx.random.uniform and lora_b mx.zeros, "
      "float32 (MLX's default dtype) whatever the model's dtype"),
     ("QLoRA", "nn.QuantizedLinear (" + MLX_AT + " python/mlx/nn/layers/quantized.py): mx.quantized_matmul reads the "
      "packed weight in its kernel and keeps only it (no dequantised copy saved)"),
     ("peak memory", MLX_LM_AT + " mlx_lm/tuner/trainer.py line 345 reports mx.get_peak_memory(), never reset after "
      "the model is loaded"),
     ("GPUs", MLX_AT + " README.md: MLX runs on Apple silicon (Metal); its CUDA and CPU Linux packages (mlx[cuda], "
      "mlx[cpu]) are not offered here: no measured MLX training run on them")),
    adam_fused=True, metal_only=True, parallelism=PARALLELISM, runs=RUNS,
    # the gradient wrt x of a quantised linear is quantized_matmul(cotangent, w, scales, biases, !transpose) on the
    # packed weight (ml-explore/mlx mlx/primitives.cpp QuantizedMatmul::vjp): no 16-bit copy of the weight
    qlora_backward_copy=False,
    # MLX's own allocator: freed Metal buffers stay in its cache ("memory not currently used that has not been
    # returned to the system allocator": ml-explore/mlx at 846d176227a0 mlx/memory.h get_cache_memory, Python
    # mx.get_cache_memory, formerly mx.metal.get_cache_memory), the analogue of PyTorch's reserved-but-unallocated;
    # no model of its size here, so it is named without a figure
    allocator_cache=QT_TRANSLATE_NOOP("engine", "MLX's Metal buffer cache (mx.get_cache_memory)"),
    # the peak mlx-lm's trainer reports (the "peak memory" source above; mlx/memory.h get_peak_memory at 846d176227a0)
    peak_counter="mx.get_peak_memory",
)

# MLX of December 2023 (v0.0.6), which ran the transformer_lm runs of ml-explore/mlx-examples issue #127: the same
# trainer shape (value_and_grad, one mx.eval per step) before mx.compile and the mx.fast kernels existed
MLX_2023_AT = "ml-explore/mlx at v0.0.6 (8385f93ce, 2023-12-21)"
ROW_2023 = replace(
    ROW, id="mlx-2023", label="MLX (v0.0.6, December 2023)", profile="mlx-2023", adam_fused=False, runs=RUNS_2023,
    sources=(("release", MLX_2023_AT + ": no mx.compile (mlx/compile.cpp added in 8fa6b322b, 2024-01-26, pull request "
              "#476) and no mx.fast kernels (mlx/fast.cpp added in ccf164599, 2024-02-14, #676): every element-wise op, "
              "norm and the unfused attention's ops run as kernels of their own"),
             ("training loop", "ml-explore/mlx-examples at 27c0a8c0 transformer_lm/main.py: nn.value_and_grad(model, "
              "loss_fn), optimizer.update, mx.eval(loss, model.parameters()) once per step"),
             *(fact for fact in ROW.sources if fact[0] in ("loss", "peak memory", "GPUs"))),
    # v0.0.6 kept its peak in the Metal allocator (mlx/backend/metal/allocator.h peak_allocated_size_) with no Python
    # call: mx.metal.get_peak_memory came with d5964a271 (2024-03-01, pull request #761, v0.5.1), the top-level
    # mx.get_peak_memory with 4e1994e9d (2025-03-21, #1982)
    peak_counter="MLX's Metal allocator peak (peak_allocated_size_; no Python call in v0.0.6, "
                 "mx.metal.get_peak_memory from v0.5.1)",
)
