"""Formula text of each StepTime term (model.py BREAKDOWN_KEYS), shown with the term's seconds."""

FORMULAS = {
    "compute": "grad_accum x (GEMMs at min(achievable FLOP/s, memory roofline) + attention in whole key tiles at "
               "its kernel's rate for the head dim), forward + backward (weights' gradients only where they train)",
    "memory_bound": "grad_accum x bytes of element-wise ops, loss, adapters, dequantisation / achieved memory bandwidth",
    "recompute": "grad_accum x the forward again (full), the attention core again (selective) or every second "
                 "nn.Linear matmul in forward order, the router and the element-wise work (op-selective)",
    "communication_tp": "4 collectives of b x s x h per layer per micro-batch over the TP link, minus overlap",
    "communication_cp": "ring exchange of K/V blocks: each of the cp - 1 blocks hides behind one step's attention "
                        "(attention / cp), the rest is exposed",
    "communication_ep": "dispatch + combine per MoE layer, forward and backward: each routed copy of a token to its "
                        "expert's rank (all-to-all), every rank's tokens (all-gather), or a token once per other "
                        "node holding one of its experts (flex: DeepEP / HybridEP); with moe_a2a_overlap, what the "
                        "other micro-batch's layer does not hide",
    "communication_pp": "activations sent to the next stage and gradients back, per micro-batch",
    "communication_dp": "gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per "
                        "step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute "
                        "the hidden part displaces: NCCL's SMs / the GPU's SMs of the compute-bound work, 3 x link / "
                        "HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered "
                        "and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 "
                        "delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp "
                        "ranks (tp_only_amax_red: tp x cp) at NCCL's small-message latency",
    "bubble": "one micro-batch through every stage but the busiest / vpp + (pp - 1) x one send to the next stage",
    "offload": "CPU optimizer + copies over PCIe: DeepSpeed's CPU Adam on the whole shard at the node's host memory "
               "bandwidth + gradients and weights over PCIe (weights streamed per micro-batch when they are "
               "offloaded too, hidden behind what the data-parallel traffic left of the compute); Megatron's "
               "HybridDeviceOptimizer: optimizer_offload_fraction of the shard in torch's "
               "fused CPU AdamW at one thread's rate per rank + its fp32 gradients to the host and weights back",
    "optimizer": "bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU "
                 "waiting for the host: bitsandbytes' sync after each tensor; Megatron's fp8 weights (fp8_param_gather,"
                 " tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax "
                 "all-reduce over dp x cp",
    "host": "grad_accum x the time the GPU waits for the host: kernel launches per layer (CUDA graphs: one per "
            "captured region) x host seconds per launch; per MoE layer forward the dispatcher's host sync (round "
            "trip + first launch + max(0, host - GPU) of the layer), elsewhere max(0, host - GPU) over the "
            "micro-batch, less the data-parallel and offload waits the host runs ahead of",
}
