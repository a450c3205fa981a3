"""Formula text of each StepTime term (model.py BREAKDOWN_KEYS), shown with the term's seconds; the bubble's per
pipeline schedule (BUBBLE_FORMULAS). Each is marked for translation: the Time tab shows it on hover.
"""

from ..messages import QT_TRANSLATE_NOOP

FORMULAS = {
    "compute": QT_TRANSLATE_NOOP("engine", "grad_accum x (GEMMs at min(achievable FLOP/s, memory roofline) + "
                                           "attention in whole key tiles at its kernel's rate for the head dim), "
                                           "forward + backward (weights' gradients only where they train); a "
                                           "vision-language model with images adds its image encoder on the first "
                                           "stage: per image the tower's patches through each block's GEMMs and "
                                           "attention (per image, Qwen2.5-VL's windows), patch embedding and "
                                           "mergers, backward where the tower trains (input and weight "
                                           "gradients) or is frozen but back-propagated (frozen-backward: input "
                                           "gradients only)"),
    "memory_bound": QT_TRANSLATE_NOOP("engine", "grad_accum x bytes of element-wise ops, loss, adapters, "
                                                "dequantisation (and the image encoder's norms, residual adds, "
                                                "activations and rotary) / achieved memory bandwidth"),
    "recompute": QT_TRANSLATE_NOOP("engine", "grad_accum x the forward again (full; the LM head's matmul too where "
                                             "the framework's checkpointing wraps it), the attention core again "
                                             "(selective) or every second nn.Linear matmul in forward order, the "
                                             "router and the element-wise work (op-selective); full: a trained "
                                             "image encoder's blocks' forward again; a frozen-backward one's "
                                             "always (its blocks checkpointed)"),
    "communication_tp": QT_TRANSLATE_NOOP("engine", "4 collectives of b x s x h per layer per micro-batch over the TP "
                                                    "link, minus overlap; under sequence parallelism Megatron adds "
                                                    "one all-reduce a step of the MLA down projections' and MoE "
                                                    "routers' gradients"),
    "communication_cp": QT_TRANSLATE_NOOP("engine", "ring exchange of K/V blocks: each of the cp - 1 blocks hides "
                                                    "behind one step's attention (attention / cp), the rest is "
                                                    "exposed"),
    "communication_ep": QT_TRANSLATE_NOOP("engine", "dispatch + combine per MoE layer, forward and backward: each "
                                                    "routed copy of a token to its expert's rank (all-to-all), every "
                                                    "rank's tokens (all-gather), or a token once per other node "
                                                    "holding one of its experts (flex: DeepEP / HybridEP); with "
                                                    "moe_a2a_overlap, what the other micro-batch's layer does not "
                                                    "hide"),
    "communication_pp": QT_TRANSLATE_NOOP("engine", "activations sent to the next stage and gradients back, per "
                                                    "micro-batch; where a node holds several stages and the schedule "
                                                    "blocks on its exchanges, a stage next to a node boundary's "
                                                    "exchange over the GPU's own NIC instead of NVLink, beyond that "
                                                    "stage's slack to the busiest one"),
    "communication_dp": QT_TRANSLATE_NOOP("engine", "gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers "
                                                    "per micro-batch, once per step when FSDP runs under pipelining) "
                                                    "not hidden behind forward and backward, + the compute the hidden "
                                                    "part displaces: NCCL's SMs / the GPU's SMs of the compute-bound "
                                                    "work (on Hopper 1/2 of a GEMM of more CTAs than the SMs NCCL "
                                                    "leaves, whose CTAs beyond run as a second wave; nothing of one "
                                                    "of no more), 3 x link / HBM bandwidth of the memory-bound work; "
                                                    "DeepSpeed of April 2021: each parameter gathered and "
                                                    "reduce-scattered on its own, synchronously, with one copy launch "
                                                    "per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp "
                                                    "x 2 amax all-reduces over the tp x cp x dp ranks "
                                                    "(tp_only_amax_red: tp x cp) at NCCL's small-message latency"),
    "bubble": QT_TRANSLATE_NOOP("engine", "the pipeline schedule's idle time (BUBBLE_FORMULAS: 1F1B and GPipe one "
                                          "micro-batch's F + B + W through every stage but the busiest, interleaved "
                                          "1F1B that / vpp, the zero-bubble schedules that less the W passes they "
                                          "defer) + 2 (pp - 1) sends to the next stage"),
    "offload": QT_TRANSLATE_NOOP("engine", "CPU optimizer + copies over PCIe: DeepSpeed's CPU Adam on the whole shard "
                                           "at the node's host memory bandwidth + gradients and weights over PCIe "
                                           "(weights streamed per micro-batch when they are offloaded too, hidden "
                                           "behind what the data-parallel traffic left of the compute); Megatron's "
                                           "HybridDeviceOptimizer: optimizer_offload_fraction of the shard in torch's "
                                           "fused CPU AdamW at one thread's rate per rank + its fp32 gradients to the "
                                           "host and weights back"),
    "optimizer": QT_TRANSLATE_NOOP("engine", "bytes the optimizer reads and writes per owned parameter / achieved "
                                             "memory bandwidth, + the GPU waiting for the host: bitsandbytes' sync "
                                             "after each tensor; Megatron's fp8 weights (fp8_param_gather, "
                                             "tensorwise) updated after the grad-norm round trip, 3 Python calls per "
                                             "fp8 weight + the amax all-reduce over dp x cp; + the passes around "
                                             "the step of the code the framework runs (Megatron-Core's: its "
                                             "gradient buffer's zeroing and NaN check; Apex's "
                                             "DistributedFusedAdam's under optimizer_step), else the gradients "
                                             "read twice more for clipping"),
    "host": QT_TRANSLATE_NOOP("engine", "grad_accum x the time the GPU waits for the host: kernel launches per layer "
                                        "(CUDA graphs: one per captured region) x host seconds per launch; per MoE "
                                        "layer forward the dispatcher's host sync (round trip + first launch + max(0, "
                                        "host - GPU) of the layer), elsewhere max(0, host - GPU) over the "
                                        "micro-batch, less the data-parallel and offload waits the host runs ahead of"),
}

# the bubble as each pipeline schedule costs it (engine/timing/pipeline.py, zero_bubble.py): p pipeline stages, m
# micro-batches a step, F, B and W one micro-batch's forward, input-gradient and weight-gradient passes as the mean of
# the p - 1 stages outside the busiest (the first and last hold the embedding and the head), T_comm one send to the
# next stage (pipeline.py: 2 (pp - 1) of them exposed)
# (each formula spelt whole, with its 2 (p - 1) sends, so that it translates as one sentence)
BUBBLE_FORMULAS = {
    "1f1b": QT_TRANSLATE_NOOP("engine", "1F1B (arXiv:2401.10241 Table 2): (p - 1)(F + B + W), one micro-batch through "
                                        "every stage but the busiest + 2 (p - 1) T_comm, the warm-up's activation and "
                                        "gradient sends (+ one more each way over the NIC per node boundary where a "
                                        "node holds several stages and the exchanges block)"),
    "gpipe": QT_TRANSLATE_NOOP("engine", "GPipe, as 1F1B: (p - 1)(F + B + W), one micro-batch through every stage but "
                                         "the busiest + 2 (p - 1) T_comm, the warm-up's activation and gradient sends (+ "
                                         "one more each way over the NIC per node boundary where a node holds several "
                                         "stages and the exchanges block)"),
    "interleaved-1f1b": QT_TRANSLATE_NOOP("engine", "interleaved 1F1B: (p - 1)(F + B + W) / vpp, each of a rank's vpp "
                                                    "chunks 1 / vpp of its layers + 2 (p - 1) T_comm, the warm-up's "
                                                    "activation and gradient sends"),
    "zb-h1": QT_TRANSLATE_NOOP("engine", "ZB-1p (arXiv:2401.10241 Table 2, ZB-H1): (p - 1)(F + B) - (min(m, p) - 1) W "
                                         "= (p - 1)(F + B - W) once m >= p: p - 1 W passes deferred into the F-B "
                                         "chain + 2 (p - 1) T_comm, the warm-up's activation and gradient sends"),
    "zb-2p": QT_TRANSLATE_NOOP("engine", "ZB-2p (arXiv:2401.10241 Appendix H): max(0, (p - 1)(F + B) - (m - 1) W): "
                                         "every W but the last micro-batch's deferred + 2 (p - 1) T_comm, the "
                                         "warm-up's activation and gradient sends"),
    "zbv": QT_TRANSLATE_NOOP("engine", "ZB-V (arXiv:2401.10241 section 6, ZB-H2's Table 2 form): max(0, (p - 1)(F + "
                                       "B) - min(m - 1, 2 (p - 1)) W) = (p - 1)(F + B - 2 W) once m > 2 (p - 1); F, B "
                                       "and W of both chunks of a rank + 2 (p - 1) T_comm, the warm-up's activation "
                                       "and gradient sends"),
}

# Megatron-Core's interleaved schedule under overlap_p2p_comm (pipeline.py overlaps_chunk_exchanges): the warm-up and
# cool-down cross every chunk boundary, not the p - 1 stage boundaries (overlapped_p2p.py)
OVERLAPPED_INTERLEAVED_BUBBLE = QT_TRANSLATE_NOOP(
    "engine", "interleaved 1F1B, Megatron-Core's overlapped exchanges: (p - 1)(F + B + W) / vpp, each of a rank's vpp "
              "chunks 1 / vpp of its layers + 2 (p x vpp - 1) T_comm, the first micro-batch's forward and the last "
              "one's backward crossing every chunk boundary")

# the pipeline sends under the same schedule (pipeline.py pipeline_seconds, overlapped_p2p.py): only the steady
# state's sends are left in this term, each hidden behind one chunk of the other direction and exposed by what it
# outlasts that chunk's forward by (taken as a third of the chunk's forward + backward); the warm-up's and
# cool-down's are in the bubble (OVERLAPPED_INTERLEAVED_BUBBLE)
OVERLAPPED_INTERLEAVED_SENDS = QT_TRANSLATE_NOOP(
    "engine", "interleaved 1F1B, Megatron-Core's overlapped exchanges: max(0, m x vpp - (p x vpp - 1)) steady-state "
              "slots x max(0, T_comm - a chunk's forward), each send hidden behind one chunk of the other direction "
              "and exposed only by what it outlasts that chunk's forward by (a third of the chunk's forward + "
              "backward), + the tied embedding's gradient sum once a step; the warm-up's and cool-down's sends are in "
              "the bubble")


def bubble_formula(pp_schedule: str) -> str:
    """The bubble's formula text as the scenario's pipeline schedule costs it (FORMULAS' bubble where unknown)."""
    return BUBBLE_FORMULAS.get(pp_schedule, FORMULAS["bubble"])
