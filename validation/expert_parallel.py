"""Expert parallelism for a transformers MoE model, with torchtitan's token dispatch (traced as one rank of N).

transformers' own expert parallelism replicates the tokens over the expert-parallel ranks (a TP-style plan);
torchtitan carves the expert-parallel group out of the data-parallel ranks and moves tokens with two
all-to-alls. This module mirrors torchtitan's ``AllToAllTokenDispatcher``
(torchtitan/models/common/token_dispatcher.py) around the model's own grouped-GEMM experts:

1. ``_local_reorder``: argsort of the (tokens x top-k) expert ids, the sorted scores and the gathered token
   copies ``x[token_indices]`` (N = T·k rows of h);
2. the token-count all-to-all, then the dispatch ``all_to_all_single`` (autograd) of the N rows;
3. ``_permute``: rank-major to expert-major order by an index (``routed[permuted_indices]``);
4. the local experts (E/ep of them, the model's gate_up / down weights sliced on the expert dim, as
   torchtitan's ``Shard(0)`` on the expert mesh leaves them) as grouped GEMMs;
5. ``_unpermute`` (``new_empty`` + index assignment), the combine all-to-all, the scores applied in fp32
   (``(out.float() * scores).to(bf16)``) and ``scatter_add`` into a zero (T, h) output.

Routing is data-dependent, which fake tensors cannot follow (and no planner can know): the trace routes
token copy j of every rank to expert ``j mod E`` (perfectly balanced, every expert gets T·k/E rows, every
rank exchanges T·k/ep rows with each rank), through the model's router, whose top-k weights still carry
the gradient. That is the balanced case a memory plan assumes; the all-to-all split sizes follow from it.

FSDP2 shards the non-expert weights over all data-parallel ranks; the experts, already split over ep,
are sharded over the dp/ep ranks that hold the same experts (torchtitan's ``efsdp`` mesh), which torchtitan
keeps, at size 1, when dp == ep: FSDP still gathers the experts with their layer and reduces their gradients.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


def _experts_dims(experts: nn.Module) -> tuple[int, int, int]:
    """(experts, ffn, hidden) of a transformers grouped experts module (gate_up_proj is E x 2F x h)."""
    e, two_f, h = experts.gate_up_proj.shape
    return e, two_f // 2, h


class DispatchedExperts(nn.Module):
    """The local experts of one expert-parallel rank behind torchtitan's all-to-all dispatch and combine."""

    def __init__(self, experts: nn.Module, ep_rank: int, ep: int, group: Any) -> None:
        super().__init__()
        n_experts, _, _ = _experts_dims(experts)
        local = n_experts // ep
        lo = ep_rank * local
        self.num_experts, self.local, self.ep, self.group = n_experts, local, ep, group
        # Shard(0) on the expert dim: this rank's experts only (a fresh parameter, the full table is dropped)
        self.gate_up_proj = nn.Parameter(experts.gate_up_proj.detach()[lo:lo + local].clone())
        self.down_proj = nn.Parameter(experts.down_proj.detach()[lo:lo + local].clone())
        self.act_fn = experts.act_fn

    def forward(self, hidden_states: torch.Tensor, top_k_index: torch.Tensor,
                top_k_weights: torch.Tensor) -> torch.Tensor:
        from torch.distributed._functional_collectives import (
            all_to_all_single,
            all_to_all_single_autograd,
            wait_tensor,
        )
        from transformers.integrations.moe import _grouped_linear

        tokens, k = top_k_index.shape
        hidden = hidden_states.shape[-1]
        n = tokens * k
        e, ep = self.num_experts, self.ep
        if n % e:
            raise ValueError(f"balanced routing needs tokens x top-k ({n}) divisible by the experts ({e})")
        # balanced routing (see the module docstring): copy j of the flattened (token, k) pairs -> expert j mod E
        expert_ids = (torch.arange(n, device=hidden_states.device) % e).view(tokens, k)
        # _local_reorder
        order = torch.argsort(expert_ids.view(-1), stable=True)
        scores_sorted = top_k_weights.reshape(-1)[order]
        token_indices = order // k
        routed_input = hidden_states[token_indices]
        # token counts per expert and their exchange (torchtitan reads the splits from it; balanced here)
        counts = torch.histc(expert_ids.view(-1).float(), bins=e, min=0, max=e - 1)
        wait_tensor(all_to_all_single(counts.view(ep, -1), None, None, group=self.group))
        split = [n // ep] * ep
        received = all_to_all_single_autograd(routed_input, split, split, self.group)
        # _permute: (rank, local expert) segments from rank-major to expert-major order
        per_segment = n // e
        permuted_indices = torch.arange(n, device=hidden_states.device).view(ep, self.local, per_segment)
        permuted_indices = permuted_indices.transpose(0, 1).reshape(-1)
        expert_input = received[permuted_indices, :]
        offsets = torch.arange(1, self.local + 1, dtype=torch.int32, device=hidden_states.device) * (ep * per_segment)
        gate_up = _grouped_linear(expert_input, self.gate_up_proj, offsets)
        gate, up = gate_up.chunk(2, dim=-1)
        out = _grouped_linear(self.act_fn(gate) * up, self.down_proj, offsets)
        # _unpermute, combine all-to-all, fp32 scores, scatter_add
        unpermuted = out.new_empty(out.shape)
        unpermuted[permuted_indices, :] = out
        returned = all_to_all_single_autograd(unpermuted, split, split, self.group)
        weighted = (returned.to(torch.float32) * scores_sorted.reshape(-1, 1)).to(returned.dtype)
        index = token_indices.reshape(-1, 1).expand(-1, hidden)
        return torch.zeros_like(hidden_states).scatter_add(0, index, weighted)


def moe_blocks(model: nn.Module) -> list[nn.Module]:
    """The sparse MoE blocks (an ``experts`` child with 3-D gate_up_proj weights)."""
    return [m for m in model.modules()
            if hasattr(m, "experts") and hasattr(m.experts, "gate_up_proj")]


def apply_ep(model: nn.Module, ep_rank: int, ep: int, group: Any) -> list[nn.Module]:
    """Replace every MoE block's experts by this rank's dispatched local experts; returns the new modules."""
    out = []
    for block in moe_blocks(model):
        block.experts = DispatchedExperts(block.experts, ep_rank, ep, group)
        out.append(block.experts)
    return out
