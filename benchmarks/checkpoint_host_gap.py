"""docs/gpu-accuracy.md's section on torch's non-reentrant checkpointing and PEFT's own Python on the host
(engine/timing/checkpoint_host.py, lora_adapters.py peft_python_seconds), read by benchmarks/gpu_accuracy_report.py."""

CHECKPOINT_HOST_GAP = """### Known gaps: non-reentrant checkpointing's and PEFT's host Python (checkpoint_host.py)

transformers 5.17.0's gradient_checkpointing_enable(use_reentrant=False) wraps each decoder layer
(GradientCheckpointingLayer) in torch 2.11.0's non-reentrant checkpoint (torch/utils/checkpoint.py
_checkpoint_without_reentrant_generator), whose bookkeeping runs in Python: per checkpointed call the CPU and CUDA RNG
states, a _CheckpointFrame, _NoopSaveInputs.apply, saved_tensors_hooks; per tensor the layer's forward saves a
pack_hook (a _Holder, a weakref, the shape/dtype/device metadata under no_grad); in the backward the recompute under
fork_rng and autocast, a _recomputation_hook pack per saved tensor (detach, a _Handle, a WeakKeyDictionary entry),
check_recomputed_tensors_match over every tensor and an unpack_hook per saved tensor. validation/checkpoint_host_counts.py
measures it with that code on the CPU in view calls (Tensor.narrow from Python, what view_seconds prices: 3.52 us on
the DGX figures, x2.44 on the lent host): per saved tensor 2.28 forward and 3.63 backward, per checkpointed call 41.9
and 73.8 (three runs, spread under 5%), plus 4 and 9 calls for the CUDA RNG state the CPU run does not touch (counted
from the source); and counts the saved tensors per Llama layer: 38 full, 37 LoRA q,v, 57 LoRA all linears, 30 and 50
over bitsandbytes' Linear4bit (MatMul4Bit keeps its weight in ctx.tensors, past the hooks): 22 element-wise, 2 for
trained norms, 2 per trained linear, 1 per frozen nn.Linear, 4 per adapter. For Llama-2-7B LoRA q,v that is 347 view
calls, 2.98 ms per layer and step on the lent host, 95 ms over 32 layers: the b2 s512 checkpointed rows, host-bound,
-49.2% / -39.9% / -35.1% -> -18.1% / -3.0% / +4.7% (0.162 -> 0.262 s against 0.320, 0.270 and 0.250 s). The full
fine-tuning rows with checkpointing were partly host-bound in the forward: Llama-2-7B -8.7% -> -1.3%, Llama-3-8B
-10.3% -> -3.4%, Mistral-7B (AMP) -12.3% -> -5.9%, Llama-3.2-1B b4 -9.6% -> -9.0%; the 16K-token rows do not move.
The Qwen rows the lent host's factor comes from run no checkpointing: benchmarks/lent_host_factor.py still gives 2.44.
In the general model it applies where transformers' layers are counted (frameworks with host_layers hf-eager) with
full checkpointing; the published set does not move (no such row is host-bound); with PEFT's Python below, 133 of the
2,612 fingerprint scenarios' step times rise (median +3.8%; most, small models at short sequences with checkpointing,
up to +63% for Gemma-3-1B in fp32 at b1 s128, tensor parallel on RTX 4090s, 52 -> 84 ms, where the GPU's work per
layer is shorter than the bookkeeping).

PEFT's own Python in each LoRA Linear.forward (peft 0.21.0 layer.py lines 1074-1119: _check_forward_args, the
disable_adapters and merged checks, the active_adapters loop and its key lookups, _cast_input_dtype's checks,
use_dora) beyond the ops and module calls lora_adapters.py counts: 3.6 view calls a call (four runs, 3.6-3.8; the
same script), about 31 us on the lent host. Llama-3-8B all-linear -23.6% -> -20.9% (and its twins), Phi-3-mini
-34.8% -> -32.9%; 7 ms a step, where those rows miss 60 and 72 ms: what they miss is not the host's Python (their
backward, run by autograd's C++, is GPU-bound, and their forward's host work, counted, is within a few ms of its GPU
work). AccumulateGrad of the fp32 adapters steals each gradient (zero_grad(set_to_none=True)): no kernel, C++ only,
not counted.

The QLoRA twins: with the checkpoint's bookkeeping counted the LoRA rows are right, and the QLoRA rows rise with them
(b2 s512: -1.8% / -24.4% -> +29.6% / -0.2%; Llama-3-8B: -9.4% / -36.7% -> +22.9% / -14.1%): each prediction now lies
between two measurements of the same step (0.281 and 0.365 s; 0.403 and 0.577 s). That the first QLoRA row was
within 2% before meant the missing checkpoint bookkeeping (84 ms on that row, 7 fewer saved tensors than LoRA's)
was made up by the 4-bit layers' host counts: on the one same-batch pair (h200_batch2, QLoRA-direct against
LoRA-direct, 0.365 against 0.320 s: 45 ms) the model now predicts 102 ms (bnb_4bit.py's host counts, 47 ms a step at the
DGX figures, 115 ms at the lent host's, less the bookkeeping of 7 fewer saved tensors). bitsandbytes' per-call host
counts look about two times too large on this host, or its Python path cheaper relative to a view call than the DGX
figures say; not changed here (bnb_4bit.py is its own mechanism), left for a measurement of Linear4bit's host time
with the same method (the CPU backend's dequantisation differs from CUDA's, so it needs the GPU)."""
