"""docs/gpu-accuracy.md's known gaps, mechanism by mechanism, with what was checked and not taken: the QLoRA, PEFT
and other mechanisms' findings (KNOWN_GAPS), the step-time errors' (TIME_GAPS) and the GPU-bound rows' (GPU_BOUND_GAPS),
read by benchmarks/gpu_accuracy_report.py."""

# What each mechanism's helper found, with numbers (issue 23 item 9). One bullet list per mechanism.
KNOWN_GAPS = """\
QLoRA through bitsandbytes (the four `qlora-nf4dq` rows):
- Counted now (engine/timing/bnb_4bit.py, presets/bnb_4bit.json, read from the bitsandbytes 0.50.2 and peft 0.21.0
  wheels): above 1,536 tokens a call (on H100/H200 above 32 for these weights) each `Linear4bit` call dequantises its
  whole weight into a new bf16 tensor and runs `F.linear` on it, in the forward, again in the recompute and again in
  the backward's input gradient (`MatMul4Bit.backward`); with double quantisation two small kernels first rebuild
  the fp32 block scales: 0.5 + 2 + 17/64 = 2.77 bytes per value and call (2.5 before). PEFT's 4-bit LoRA layer
  clones each adapted base output (`result.clone()`). GPU: +1.8 ms a step (Llama-2-7B, b2 s512) and +6.9 ms
  (Llama-3-8B, s2048). Host: 3 launches, 7 dispatcher calls, 4 calls through `Params4bit.__torch_function__` and
  `MatMul4Bit.apply` a forward call (about 72 us at the preset's DGX figures), 61 us a backward call: 47.1 and
  50.0 ms a step, hidden under the GPU time (with the layer stacks' 38.4 ms: 85.5 of 103 ms and 88.4 of 236 ms)
  until the Hugging Face layers' and PEFT's own host work is counted, when all of it shows.
- Checked against the rows, not fitted: the one same-batch pair, Llama-2-7B r8 q,v ckpt b2 s512 QLoRA-direct
  against LoRA-direct (h200_batch2), differs by 45.5 ms (0.365 against 0.320 s); counted: 47.1 ms of host and
  1.8 ms of GPU work. The first batch's QLoRA row (steps 0.318 and 0.244 s) against torchtune-ce8 (0.270 s, another
  loss) differs by 11 ms, so one pair is not a measurement of the mechanism. The two Llama-3-8B QLoRA rows run the
  same step (only the loading differs) and differ by 43% (0.403 against 0.577 s): no mechanism in the step found.
- Not counted: the dequantisation kernels' own rate (costed at the element-wise 0.85 of peak; no Hopper rate of
  kDequantizeBlockwise was found; bitsandbytes pull request #2051 on B300 times the three-kernel chain with an
  M = 32 GEMM 35.9 us longer for 11008 x 4096 than for 4096 x 4096: 4.77 bytes a value at 3.76 TB/s, 47% of
  B300's 8 TB/s; at 47% these rows would take about 11 ms more); the fused 4-bit GEMM bitsandbytes picks for few
  tokens a call, which writes no bf16 copy; the first layer's q/k/v, whose input needs no gradient (no autograd
  function, no backward call); LitGPT's 4-bit lm_head, dequantised for every 128-token chunk, and the cast of its
  fp16-quantised weights in the backward.
- Memory against time: engine/memory counts no dequantised weight (models/base_storage.py), while each call holds
  one (`torch.empty(shapeB)`, 117 MB for Llama-3-8B's gate or up projection) during its GEMM; and it keeps
  `MatMul4Bit`'s input for the backward (frameworks/defaults.py, memory/activations.py quantized_saves_inputs),
  where 0.50.2 keeps only the packed weight (`ctx.tensors = (None, B)`). Left to the memory model.
- Left to the other mechanisms on these rows: the same LoRA step without 4-bit layers (Llama-2-7B r8 q,v ckpt b2
  s512 direct) is already -72.0%: the Hugging Face layers' host time and the measuring host (h-hfhost) and PEFT's
  adapters (fp32 adapters: the input cast to fp32 and the output back, the Python path of 64 adapted linears a
  step, 224 on the Llama-3-8B all-linear rows; h-peft) come before the 4-bit work can show.
"""


# What was found about the step-time errors above, mechanism by mechanism, with what was checked and not taken
TIME_GAPS = (
    'Hugging Face MoE (olmoe-1b-7b, qwen3-30b-a3b, mixtral-8x7b): transformers 5.17.0 builds these models with '
    "experts_implementation 'grouped_mm', not the per-expert loop: the experts' forward sorts the token-expert pairs "
    '(a CUB radix sort of 64-bit keys), gathers the rows, runs one torch._grouped_mm per projection with offsets kept'
    ' on the GPU, masks, weights, un-sorts and sums (src/transformers/integrations/moe.py '
    'grouped_mm_experts_forward). engine/timing/hf_moe.py counts its launches per layer (router with the pre-MLP norm'
    ' 14 forward / 20 backward, experts 35 / 31, where the generic eager MoE stack had 13 / 8 and 11 / 14), 20 '
    "kernel-less Python calls, and no host synchronisation on sm_90 / sm_100 (torch._grouped_mm's CUTLASS kernel; the"
    ' generic stack had one per layer), and efficiency.json moe_token_permutation.transformers the bytes of its '
    'masked fills, gathers and index backwards (11 routed copies of the hidden row forward and 17 backward, where the'
    ' generic passes were 4 and 8). Errors: olmoe -46.4% -> -44.2%, qwen3-30b-a3b -66.2% -> -62.6%, mixtral -13.9% ->'
    " -13.6%. The rest is host time: at presets/host_overhead.json's 9.02 us a launch the host still hides behind the"
    " GPU; this machine's own cost per launch (gVisor or Firecracker) belongs to the dense layers' host time and is "
    'not taken here. As a check of the counts only (not adopted): with every host figure x3.5, the factor at which '
    'qwen2.5-0.5b (dense, host-bound) comes to -3.4%, olmoe comes to -26.7% and qwen3-30b-a3b to -31.2% with these '
    'counts, against -40.4% and -53.4% with the generic stack. Checked and not taken: the per-expert loop (the '
    "experts' eager forward, one torch.where sync and about 25 kernels per expert, forward and backward): at 64 "
    'experts x 16 layers it alone would issue about 25,600 launches and 1,024 synchronisations a step, over 0.23 s at'
    " 9.02 us a launch against olmoe's measured 0.212 s step, and it is not what runs; the router's load-balancing "
    "loss (output_router_logits is false in all three configs, so transformers computes none); OLMoE's optimizer term"
    " (0.068 s): torch 2.11's foreach AdamW moves 20 passes over the bf16 tensors (decoupled decay 2, lerp 3, mul 2, "
    'addcmul 3, sqrt 2, div 2, add 2, addcdiv 4), 40 bytes a parameter, where the model counts 18 passes and 2 '
    "clipping passes that the measuring script does not run: the same 40 bytes, so it stands. Not counted: Mixtral's "
    'router keeps the top-k weights in fp32, so its weighted rows and the gather back run in fp32 (about 4 routed '
    "copies more forward), torch.histc's cudaMemGetInfo driver call each forward, CUB's memsets between its passes, "
    "and the backward's synchronisations of aten's per-expert fallback (GPUs without the CUTLASS grouped GEMM).",
    "Hugging Face MoE layers on the counted host path (engine/timing/hf_host.py counted_moe): the lent host's "
    "per-phase model (each phase on its own, the loop synchronising after it) had fallen back to the eager launch "
    "stacks whenever a layer was MoE. validation/hf_moe_host_counts.py now counts an OLMoE, Qwen3-MoE and Mixtral "
    "layer as validation/hf_host_counts.py counts a dense one (transformers 5.17.0's modeling code and its grouped_mm "
    "experts on the CPU with torch 2.11.0, whose CPU kernel of torch._grouped_mm runs the grouped path the H200 runs; "
    "2 and 4 layers at tiny widths): per layer in bf16 with SDPA, Python calls / kernels / views / modules forward "
    "and kernels / views backward 109 / 80 / 34 / 14 and 125 / 61 (OLMoE), 111 / 83 / 34 / 14 and 132 / 62 "
    "(Qwen3-MoE), 95 / 67 / 34 / 12 and 101 / 58 (Mixtral), against Llama's 54 / 45 / 28 / 13 and 73 / 56; the "
    "CUDA kernels some of the block's operators launch beyond their first, from C++ (torch.sort's radix sort 11, "
    "histc 2, topk 2, _grouped_mm 2, an index backward's accumulating index_put 3: 14 forward and 10 backward a "
    "layer), each at a launch less a Python call; and LoRA's frozen backward as it runs (OLMoE 110 kernels and 36 "
    "views a layer, where the dense rule would subtract the 7 linears' kernels only). These counts replace the eager "
    "stacks and hf_moe.py's counts for these layers on the counted path (no double counting; hf_moe.py's stay for the "
    "general eager launch model, torch.compile and GPUs without the CUTLASS grouped GEMM, where aten's fallback "
    "synchronises). OLMoE's optimizer is counted too (optimizer_host_seconds, once dense-only): transformers 5.x holds"
    " each layer's experts as two 3-D tensors (OlmoeExperts.gate_up_proj, down_proj), 11 tensors a layer, 179 in all."
    " Errors: olmoe -39.2% -> -28.3% (-29.0% without the optimizer), qwen3-30b-a3b attention LoRA -33.1% -> -19.6%, "
    "mixtral q,v LoRA -13.4% unchanged (its layers' GPU work, about 3 ms forward a layer, hides its 2.1 ms of host "
    "work). What is left of olmoe and qwen3-30b-a3b is not one host factor: with the phases host-bound, olmoe would "
    "need the lent host's factor at about 4.2 and qwen3-30b-a3b at about 3.0 (2.44 from the dense Qwen2.5 rows); "
    "from olmoe's 4.2 qwen3-30b-a3b comes to +37.9%, from qwen3-30b-a3b's 3.0 olmoe to -19.3%: not taken (olmoe's "
    "full fine-tuning adds the GPU's optimizer step, 0.068 s of its 0.212 s, and its experts' weight gradients, "
    "which the LoRA row does not run). Checked and not taken: transformers' pure-Python calls (sys.setprofile, per "
    "layer forward): 90 in a Llama "
    "layer, 117-129 in these MoE layers, 1.7 and 1.2 per counted torch call, so the counted calls, whose factor was "
    "fitted on dense layers, do not leave out more of the MoE layers' Python than of the dense layers'. Not counted: "
    "CUB's memsets and temporary-storage allocations inside the sorts (not read), torch.histc's cudaMemGetInfo "
    "driver call.",
)


GPU_BOUND_GAPS = """### Known gaps of the step time: the GPU-bound rows

Hugging Face's GPU-bound rows (7B dense, pure bf16 and AMP, SDPA, one H200), mechanism by mechanism:

- **Attention kernel.** torch 2.11.0+cu130's `scaled_dot_product_attention` puts cuDNN first on sm90 when the cuDNN it
  loads is newer than 9.15.0 (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp `check_prefer_cudnn_attention`,
  CUDA 13 branch; the wheel requires nvidia-cudnn-cu13 9.19.0.56), and `can_use_cudnn_attention` takes these calls
  (bf16, head dim 64 and 128, `is_causal`, grouped-query heads with `enable_gqa`). The measured rows now state it
  (engine/accuracy/measured_gpu.py `SDPA_KERNEL_BY_TORCH` sets `attention_kernel: cudnn` for SDPA cases of that build);
  Hugging Face's framework default on Hopper stays FlashAttention-2, the kernel of the older builds the published rows
  ran. Llama-3.2-1B at 16,384 tokens (head dim 64): +28.7% / +29.8% (Liger loss) -> +2.6% / +3.1% with this alone
  (+4.4% / +4.6% with the loss below). The head-dim-64 rate (0.707 of head dim 128, from FlashAttention-4 on B200)
  agrees with cuDNN's own on an H100 in the FlashAttention-3 paper (arXiv:2407.08608, forward without mask at 16K: 413
  against 595 TFLOPS, 0.69). The host-bound rows get a little faster with it (LoRA at 512 tokens -66.9% -> -67.1%).
- **The loss.** transformers 5.17.0's ForCausalLMLoss upcasts the logits (`logits.float()`) and calls
  `nn.functional.cross_entropy` over the whole vocabulary: ATen's multi-pass softmax on rows wider than a block's
  shared memory, as torchtune's (frameworks huggingface eager_cross_entropy eager-aten: 48 bytes per vocabulary entry
  per token, was 28). Liger's fused linear cross-entropy adds each chunk's head weight gradient into a zeroed gradient
  (addmm, beta 1) in about vocab / hidden chunks whatever the tokens (32 for Llama 3's vocabulary), each reading and
  writing the whole gradient (costs.liger_head_grad_seconds; 8.2 ms at 16K tokens on Llama-3.2-1B). The two 16K rows
  differ by 13 ms measured (steps 0.553 / 0.561 s against 0.539 / 0.549 s) and by 12.3 ms predicted (10.3 ms before,
  with the 28-byte loss and no accumulation). Every Hugging Face row with the model's loss gets 20 bytes per entry
  more: +1.3 ms on the 128K-vocabulary rows at 2,048 tokens.
- **Autocast over fp32 weights** (precision amp-bf16 without FSDP or ZeRO; engine/timing/autocast.py): each
  micro-batch's forward casts every matmul weight (6 bytes per weight), the recompute of checkpointed layers casts
  them again, the backward casts the trained weights' gradients back to fp32 (6 bytes); Hugging Face's eager layer runs
  over an fp32 residual stream with each linear casting its input (elementwise_bytes_per_token eager-amp: 106 bytes
  per hidden unit and 36 per query/key unit against eager's 84 and 20 per q/k/v unit). Hugging Face adds each later
  micro-batch's gradients into `.grad` (grad_accumulation_passes 3, fp32 under AMP). Llama-2-7B AMP -18.6% -> -12.1%,
  Mistral-7B AMP checkpointed -21.1% -> -12.9%, Llama-2-7B AMP fused AdamW at 4 micro-batches -27.1% -> -11.9%.
- **Optimizer, not changed.** torch 2.11.0's `_multi_tensor_adam` (AdamW, foreach) makes 20 passes over the state
  dtype: weight decay `_foreach_mul_` 2, `_foreach_lerp_` 3, `_foreach_mul_` 2, `_foreach_addcmul_` 3 (the gradient
  read once per element), `_foreach_sqrt` 2, `_foreach_div_` 2, `_foreach_add_` 2, `_foreach_addcdiv_` 4; the
  measured loop does not clip, and the model's 18 passes plus 2 clipping passes make the same 20. The fused kernel's
  rate was not taken: pytorch/pytorch pull request #118361 times fused AdamW on open_llama_7b_v2 at 49.7 ms on an
  H100 (torch profiler, CUDA time per step), 1.9 TB/s if its 6.7B parameters were bf16 (7 passes of 2 bytes), 0.57 of
  an H100 SXM's 3.35 TB/s against the model's 0.85, but neither the H100 variant nor the dtype is stated; taken, the
  fused row would gain about 23 ms (-11.9% -> about -9.7%).
- **Memory bandwidth, not changed.** The model streams at 4.8 TB/s x 0.85 = 4.08 TB/s on the H200; the lender's
  device-to-device copy moved 4.3 TB/s counting read and write (0.896 of 4.8). A copy is the best case of a stream
  kernel (BabelStream's Triad, which 0.85 stands for, runs below Copy), and the eager kernels here include reductions
  (RMSNorm's mean) and broadcasts; taking 0.896 would make every memory-bound term 5% faster on rows already too fast.
- **GEMM rate, not changed.** 989 x 0.803 (MAMF) x 0.919 (sustained) = 730 TFLOPS at the best shape, with tile waves
  and Hopper's epilogue per shape; the lender measured 769-798 TFLOPS on 8192^3 random bf16 over ten products (a
  short run, SM clock 1,980 MHz just after), which the sustained share is meant to sit below.
- **What is left** on the GPU-bound rows is about -9% to -13%, common to pure bf16 and AMP (Llama-2-7B bf16 -13.2%,
  checkpointed -9.5%, 4 sequences -9.9% / -8.7%, Llama-3-8B checkpointed -11.1%). Host time is at most about 5 ms
  of it per step by this estimate (the GPU waits for the host only at each phase's start after the measuring loop's
  `torch.cuda.synchronize()`: the forward's first kernels, the autograd engine's start, AdamW's Python before its
  first kernel), under 2% of these steps. Llama-2-7B at 1 and 4 sequences splits the rest: per sequence 0.172 s
  measured against 0.158 s predicted (8% on the per-token work: GEMM shapes of 2,048 rows, eager kernels below the
  stream rate), and 0.100 s against 0.078 s for the part that does not grow with the batch (optimizer and per-step
  work, 22 ms: AdamW's foreach kernels at about 3.1 TB/s rather than 4.08 if it were all theirs). No sourced
  per-kernel figure was found for either, so neither is fitted to these rows. Llama-3.2-1B with torchtune's chunked
  loss and optimizer-in-backward (-9.6%) steps 146 per-parameter AdamWs in backward hooks, each a Python
  `step()` of a few small foreach kernels: host-bound (h-hfhost's per-call figures), not GPU-bound.
"""
