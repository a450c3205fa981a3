"""The collectives of a scoring forward (issue 23: NeMo-RL's Megatron MoE log-prob pass 3.4x short of its phase time).

A scoring pass under Megatron runs the training forward's layers whole, their collectives included: NeMo-RL's
get_logprobs calls Megatron-Core's forward_backward_func with forward_only=True over the same model, micro-batch by
micro-batch (NVIDIA-NeMo/RL nemo_rl/models/policy/megatron_policy_worker.py at v0.3.0 lines 961 and 1117;
nemo_rl/models/policy/workers/megatron_policy_worker.py at v0.6.0 lines 449 and 504), where the update passes
forward_only=eval_mode (v0.3.0 line 861). Each MoE layer's forward runs Megatron-Core's token dispatcher as in
training: the dispatch all-to-all before the experts and the combine after them (NVIDIA/Megatron-LM at 2edffadb
megatron/core/transformer/moe/moe_layer.py: route -> preprocess -> dispatch -> routed_experts_compute -> combine ->
postprocess; benchmarks/moe_layer_kernels.py lists the layer's kernels), and each tensor-parallel linear its forward
all-reduce, or under sequence parallelism its all-gather before a column-parallel and reduce-scatter after a
row-parallel linear. A forward-only pass has no backward to hide an all-to-all behind (combined 1F1B pairs a forward
with another micro-batch's backward) and nothing on the expert-parallel stream overlaps by default
(presets/efficiency.json ep_overlap 0 for Megatron).

The training time model prices those collectives per micro-batch for the forward and the backward together
(engine/timing/model.py: the stage's tp, cp and ep seconds; an MoE layer with a backward runs four all-to-alls, two
forward, two backward) and takes half of them as the forward's (model.py LayerWork, 'per layer, half of it forward').
The scoring forward takes that same half: before, it took the stage's forward kernels alone (matmuls, attention,
element-wise), so a Megatron scoring pass with EP, TP or CP had no collective at all.
"""

from __future__ import annotations


def forward_collective_seconds(tp_seconds: float, cp_seconds: float, ep_seconds: float) -> float:
    """Seconds per micro-batch of a forward's tensor-, context- and expert-parallel collectives, from a training
    stage's per-micro-batch seconds of each (forward and backward together): the forward's half of them, as the
    training model splits a layer's collectives (engine/timing/model.py LayerWork)."""
    return (tp_seconds + cp_seconds + ep_seconds) / 2


__all__ = ["forward_collective_seconds"]
