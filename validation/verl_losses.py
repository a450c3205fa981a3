"""verl's actor/critic loss path, copied from its source for the post-training traces (issue 22).

verl cannot be installed here (it pulls ray, tensordict, hydra, ...), so the functions its FSDP workers call on the
training GPU are copied verbatim (Apache-2.0) from github.com/volcengine/verl at commit
b178a3cd56f58b2d502255daba591e92833930a7 (2026-01-29), docstrings and metrics dropped:

* verl/utils/torch_functional.py: ``logprobs_from_logits`` (flash-attn's Triton cross-entropy when flash-attn is
  installed, else ``logprobs_from_logits_v2``), ``logprobs_from_logits_v2``, ``entropy_from_logits``,
  ``masked_sum``, ``masked_mean``, ``clip_by_value``;
* verl/trainer/ppo/core_algos.py: ``agg_loss`` (token-mean, the default ``loss_agg_mode``),
  ``compute_policy_loss_vanilla`` (clip_ratio 0.2, clip_ratio_c 3.0: verl/trainer/config/actor/actor.yaml),
  ``kl_penalty_forward`` (``low_var_kl``, the default ``kl_loss_type``), ``compute_value_loss``;
* verl/workers/actor/dp_actor.py ``_forward_micro_batch`` (the path without remove-padding: it needs flash-attn's
  varlen kernels, which a CPU cannot run) and verl/workers/critic/dp_critic.py ``_forward_micro_batch``.

flash-attn's cross-entropy (flash_attn/ops/triton/cross_entropy.py, ``CrossEntropyLoss.forward/backward``) is a
Triton kernel: forward allocates the per-row losses, z-losses and log-sum-exp (fp32, one per row), saves the logits
and, with ``inplace_backward=True`` (what verl passes), writes the logits' gradient into the saved logits.
``FlashCrossEntropy`` below allocates exactly those tensors (its values are not computed: only memory is traced).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

CLIP_RATIO = 0.2
CLIP_RATIO_C = 3.0
CLIP_RANGE_VALUE = 0.5  # verl/trainer/config/critic/critic.yaml cliprange_value


class FlashCrossEntropy(torch.autograd.Function):
    """Memory of flash_attn.ops.triton.cross_entropy.cross_entropy_loss(logits, labels, inplace_backward=True)."""

    @staticmethod
    def forward(ctx: Any, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        n_rows = logits.shape[0]
        losses = torch.empty(n_rows, dtype=torch.float, device=logits.device)
        lse = torch.empty(n_rows, dtype=torch.float, device=logits.device)
        z_losses = torch.empty(n_rows, dtype=torch.float, device=logits.device)
        del z_losses  # returned to verl, which keeps output[0] only
        ctx.save_for_backward(logits, lse, labels)
        return losses

    @staticmethod
    def backward(ctx: Any, grad_losses: torch.Tensor) -> tuple[torch.Tensor, None]:
        logits, _lse, _labels = ctx.saved_tensors
        return logits, None  # inplace_backward: the gradient is written into the logits' storage


def logprobs_from_logits(logits: torch.Tensor, labels: torch.Tensor, flash_attn: bool) -> torch.Tensor:
    if flash_attn:
        batch_dim = logits.shape[:-1]
        last_dim = logits.shape[-1]
        logits = logits.reshape(-1, last_dim)
        labels = labels.reshape(-1)
        return -FlashCrossEntropy.apply(logits, labels).view(*batch_dim)
    return logprobs_from_logits_v2(logits, labels)


def logprobs_from_logits_v2(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    if logits.dtype in [torch.float32, torch.float64]:
        logits_labels = torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
        logsumexp_values = torch.stack([torch.logsumexp(logit, dim=-1) for logit in logits])
        return logits_labels - logsumexp_values
    logprobs_labels = []
    for row_logits, row_labels in zip(logits, labels, strict=True):
        row_logprobs = F.log_softmax(row_logits, dim=-1)
        row_logprobs_labels = row_logprobs.gather(dim=-1, index=row_labels.unsqueeze(-1)).squeeze(-1)
        logprobs_labels.append(row_logprobs_labels)
    return torch.stack(logprobs_labels)


def entropy_from_logits(logits: torch.Tensor) -> torch.Tensor:
    pd = torch.nn.functional.softmax(logits, dim=-1)
    return torch.logsumexp(logits, dim=-1) - torch.sum(pd * logits, dim=-1)


def masked_sum(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    valid_values = torch.where(mask.bool(), values, 0.0)
    return (valid_values * mask).sum()


def masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return masked_sum(values, mask) / (mask.sum() + 1e-8)


def agg_loss(loss_mat: torch.Tensor, loss_mask: torch.Tensor) -> torch.Tensor:
    """token-mean (dp_size 1)."""
    return masked_sum(loss_mat, loss_mask) / loss_mask.sum()


def compute_policy_loss_vanilla(old_log_prob: torch.Tensor, log_prob: torch.Tensor, advantages: torch.Tensor,
                                response_mask: torch.Tensor) -> torch.Tensor:
    negative_approx_kl = log_prob - old_log_prob
    negative_approx_kl = torch.clamp(negative_approx_kl, min=-20.0, max=20.0)
    ratio = torch.exp(negative_approx_kl)
    ppo_kl = masked_mean(-negative_approx_kl, response_mask)
    pg_losses1 = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1 - CLIP_RATIO, 1 + CLIP_RATIO)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_clipfrac = masked_mean(torch.gt(pg_losses2, pg_losses1).float(), response_mask)
    pg_losses3 = -advantages * CLIP_RATIO_C
    clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
    pg_clipfrac_lower = masked_mean(torch.gt(clip_pg_losses1, pg_losses3) * (advantages < 0).float(), response_mask)
    pg_losses = torch.where(advantages < 0, clip_pg_losses2, clip_pg_losses1)
    del ppo_kl, pg_clipfrac, pg_clipfrac_lower  # verl turns them into metrics with .item()
    return agg_loss(pg_losses, response_mask)


def kl_penalty_low_var(logprob: torch.Tensor, ref_logprob: torch.Tensor) -> torch.Tensor:
    kl = ref_logprob - logprob
    kl = torch.clamp(kl, min=-20, max=20)
    ratio = torch.exp(kl)
    kld = (ratio - kl - 1).contiguous()
    return torch.clamp(kld, min=-10, max=10)


def compute_value_loss(vpreds: torch.Tensor, returns: torch.Tensor, values: torch.Tensor,
                       response_mask: torch.Tensor) -> torch.Tensor:
    vpredclipped = torch.max(torch.min(vpreds, values + CLIP_RANGE_VALUE), values - CLIP_RANGE_VALUE)
    vf_losses1 = (vpreds - returns) ** 2
    vf_losses2 = (vpredclipped - returns) ** 2
    clipped_vf_losses = torch.max(vf_losses1, vf_losses2)
    vf_loss = 0.5 * agg_loss(clipped_vf_losses, response_mask)
    vf_clipfrac = masked_mean(torch.gt(vf_losses2, vf_losses1).float(), response_mask)
    del vf_clipfrac
    return vf_loss


def actor_forward(module: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor, responses: torch.Tensor,
                  calculate_entropy: bool, flash_attn: bool, temperature: float = 1.0) -> dict[str, torch.Tensor]:
    """dp_actor.DataParallelPPOActor._forward_micro_batch, padded path (no remove-padding, no fused kernels)."""
    response_length = responses.size(-1)
    output = module(input_ids=input_ids, attention_mask=attention_mask, use_cache=False)
    logits = output.logits
    del output
    logits.div_(temperature)
    logits = logits[:, -response_length - 1: -1, :]
    out = {"log_probs": logprobs_from_logits(logits, responses, flash_attn)}
    if calculate_entropy:
        out["entropys"] = entropy_from_logits(logits)
    return out


def critic_forward(module: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                   response_length: int) -> torch.Tensor:
    """dp_critic.DataParallelPPOCritic._forward_micro_batch, padded path."""
    output = module(input_ids=input_ids, attention_mask=attention_mask, use_cache=False)
    values = output.logits
    del output
    return values[:, -response_length - 1: -1].squeeze(-1)
