"""FSDP1's weight gathers in a scoring pass (issue 23: verl's old_log_prob and ref phases).

A scoring pass is a no-grad forward of an FSDP1 (FULL_SHARD) model micro-batch by micro-batch (scoring_time.py). Every
decoder layer is a unit of its own (verl's get_fsdp_wrap_policy, transformer_auto_wrap_policy), resharded after its
forward (FULL_SHARD), so each micro-batch gathers each layer's weights again; the training model charges these
gathers in the update's step (engine/timing/data_parallel.py), nothing charged them in the scoring passes. Read in
pytorch/pytorch torch/distributed/fsdp/_runtime_utils.py (2.1-2.7) and volcengine/verl 9466d371e:

* a unit gathers in its own pre-forward (_pre_forward_unshard; forward_prefetch off: verl 9466d371e fsdp_workers.py
  line 327 passes fsdp_config.forward_prefetch, False in verl/trainer/config/ppo_trainer.yaml lines 279, 312), on the
  unshard stream, and the compute stream waits for it; so layer i + 1's gather runs beside the GPU work the host
  issued before it, layer i's;
* on verl's padding-free path (use_remove_padding, flash_attention_2) the host waits for the GPU 4 times a layer
  inside the attention, before the flash kernel (transformers 4.52.4 modeling_flash_attention_utils.py,
  hf_host.padding_free_syncs), so only layer i's work after those syncs is queued when layer i + 1's gather is issued:
  the attention kernel, o_proj and the MLP, the layer's forward less its q/k/v projections (taken by their share of
  the layer's linear weights, FLOPs per token); without the syncs the whole of layer i;
* each micro-batch starts with flash-attn's unpad_input `.item()` (dp_actor.py line 104), so the first layer's gather
  finds an idle GPU: exposed whole, as data_parallel.fsdp1_end_seconds takes it in training;
* the root (embeddings, final norm, head) is not resharded after its forward (_post_forward: 'Do not free the root's
  parameters in the post-forward for FULL_SHARD'); verl reshards it at the end of each compute_log_prob call
  (fsdp_workers.py lines 710-713: `self.actor.actor_module._handle.reshard(True)`; lines 750-753 for a separate
  reference, built with CPUOffload(offload_params=True), line 313, whose copies are timing.py
  streamed_frozen_bytes), so it gathers once a pass, before the embedding lookup, exposed;
* before each gather FSDP1 casts the fp32 shard to its bf16 copy (_use_low_precision_shard, as
  data_parallel._fsdp1_copy_bytes counts for training: 4 + 2 bytes per shard element), at the memory bandwidth: the
  root's once a pass, with its one gather.

The hidden part of each gather takes the SMs NCCL holds from the compute it hides behind (contention.py), as in
training, with the framework's zero3_overlap share.
"""

from __future__ import annotations

from ..memory.states import dtypes_for
from ..scenario import Scenario, as_laid_out, resolve_model
from ..scenario.behaviour import fsdp1_wrap
from ..timing.collectives import gathers_seconds
from ..timing.contention import contended, hidden_share
from ..timing.data import framework_profile
from ..timing.expert_data_parallel import data_parallel_link
from ..timing.hardware import hardware_for
from ..timing.hf_host import padding_free_syncs
from ..timing.links import nvlink_domain
from ..timing.model import distinct_stages, rates_for, stage_time_per_micro_batch
from ..timing.shard_groups import shard_group

QKV_NAMES = frozenset({"q_proj", "k_proj", "v_proj", "qkv_proj"})  # issued before the attention's syncs


def after_sync_share(train: Scenario) -> float:
    """Share of a dense decoder layer's linear work (weights, so FLOPs per token) after the attention's host syncs:
    all but the q/k/v projections."""
    linears = resolve_model(train).layer_linears(False)
    total = sum(lin.params for lin in linears)
    before = sum(lin.params for lin in linears if lin.name in QKV_NAMES)
    return 1.0 - before / total if total else 1.0


def scoring_gather_seconds(train: Scenario, forward_seconds: float = 0.0) -> float:
    """Seconds one scoring pass over the step's micro-batches spends on FSDP1's weight gathers beyond its forward
    (module docstring): per micro-batch the first layer's gather whole and the others' beyond what the previous
    layer's queued work hides (plus what the hidden part takes from it), and the layers' shards' casts; the root's
    gather and cast once a pass; 0 without FSDP1 FULL_SHARD over more than one rank. `forward_seconds`: a
    micro-batch's forward as timed (scoring_time.py: the later of its GPU work and its host's issuing), a layer's
    share of which is the time the previous layer gives a gather; the GPU's forward where it is longer or not given."""
    s = as_laid_out(train)
    prof = framework_profile(s.framework)
    if not (fsdp1_wrap(s) and s.effective_zero == 3 and s.dp * s.cp > 1) or prof.get("zero3_per_module"):
        return 0.0
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, prof)
    i, r = max(distinct_stages(s, spec), key=lambda ir: len(ir[1]))
    st = stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r)
    layers = max(st.layers, 1)
    domain = nvlink_domain(s, hw)
    group = shard_group(s, hw, st, domain, data_parallel_link(s, hw, st, domain))
    outside = (spec.embedding_params + spec.head_params) / s.tp  # the root's unit

    def gather(params: float) -> float:
        return gathers_seconds(hw, prof, group.ranks, group.span, domain, s.tp, group.ring_share * params
                               * rates.elem_bytes / group.link_bytes_per_s, 1, group.gather_latency_s)

    layer_gather = gather(max(st.params - outside, 0.0) / layers)
    layer_fwd = max(st.fwd, forward_seconds) / layers
    window = layer_fwd * (after_sync_share(s) if padding_free_syncs(s) else 1.0)
    share = hidden_share(hw, group.link_bytes_per_s, rates.memory, st.memory / (st.fwd + st.bwd) if st.fwd else 0.0,
                         one_node=group.span <= s.gpus_per_node, layer=(s, spec, False))
    per_micro_batch = layer_gather + (layers - 1) * contended(layer_gather, window, prof["zero3_overlap"], share)
    dt = dtypes_for(s)
    master = dt.master or dt.weight
    # the fp32 shard's cast precedes each gather: the layers' every micro-batch, the root's once a pass (it stays
    # gathered between micro-batches, so its later pre-forwards neither gather nor cast)
    cast_per_param = (master + rates.elem_bytes) / group.ranks / rates.memory if master != rates.elem_bytes else 0.0
    layers_cast, root_cast = max(st.params - outside, 0.0) * cast_per_param, outside * cast_per_param
    return s.grad_accum * (per_micro_batch + layers_cast) + gather(outside) + root_cast


__all__ = ["after_sync_share", "scoring_gather_seconds"]
