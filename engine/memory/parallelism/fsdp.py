"""PyTorch FSDP2 (`fully_shard` per decoder layer, then the root): what is unsharded when, per tensor.

Traced (validation/distributed.py, tests/data/ground_truth/distributed):

* The root unit (embeddings, final norm, lm_head; a tied head counts once) is gathered at the root's
  pre-forward, in the parameter dtype (bf16 under a bf16 MixedPrecisionPolicy), resharded in its
  post-forward and gathered again at its pre-backward; with a transformers model given labels the loss
  runs inside the root's forward, so the root is gathered at the forward's peak and again (twice, briefly)
  before the loss backward.
* A decoder layer is gathered in its pre-forward and freed in its post-forward (reshard_after_forward=True):
  one layer's all-gather output is alive in forward.
* Backward prefetches the next layer to run: at the start of the loss backward the last layer is already
  gathered; inside a layer's backward that layer and the one below are gathered.
* A layer's post-backward reshards it, then copies its unsharded gradients (compute dtype) into a
  layer-sized reduce-scatter input in the reduce dtype (fp32 with reduce_dtype=float32).
* reshard_after_forward=False keeps every layer gathered from its forward until its backward has run.
* A framework that wraps the token embedding as its own unit and never unshards it in backward (OLMo-core,
  frameworks/defaults.py fsdp_embedding_unit) gathers it only for its own forward, before the first layer: the
  root that stays gathered around the loss is the final norm and the lm_head; the embedding's post-backward
  (unsharded gradient + reduce-scatter input) is its own, after the head's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...models.architecture import ModelSpec
from ..states import Dtypes, LayerGroup


@dataclass(frozen=True, slots=True)
class Fsdp2Units:
    """What FSDP2 holds on one GPU of a stage whatever the batch, as sums the step's moments start from (bytes);
    fsdp2_moments() adds what the loss and the activations hold at each moment."""

    at_loss: float  # end of forward, at the loss: the root (when the loss runs inside it) + kept + held layers
    at_last_gather: float  # end of forward, at the last layer's all-gather (before what the loss side holds)
    backward_start: float  # the root's pre-backward with the prefetched layer
    regather: float  # the root gathered again before the loss backward (before what the loss keeps)
    backward_end: float  # a layer's post-backward: gathered layers + one layer's gradients and reduce input
    root_post_backward: float | None  # the root's own post-backward (before the layers' scratch is freed)
    at_embedding_grad: float | None  # PyTorch TP's replicated embedding gradient (before the scratch is freed)
    loss_in_root: bool
    root_params: float
    layer_params: float
    gather_bytes: int
    reduce_bytes: int
    # the end of the root's forward when the loss runs outside it: the logits are made, the root and the last
    # all-gather output are not freed yet (the root's post-forward frees them)
    at_root_end: float = 0.0


def _layer_params(spec: ModelSpec, g: LayerGroup, tp: int, ep: int, whole_mla_down: bool = False) -> float:
    """Parameters per tp rank of one FSDP unit: one decoder layer, or one block of a hybrid stack (a Mamba-2 block's
    in_proj, out_proj and conv, a gated DeltaNet layer's projections: each layer kind's own tensors, LayerGroup.kind);
    whole_mla_down: MLA's down projections whole on every tp rank (behaviour.whole_mla_down)."""
    expert = spec.expert_params_per_layer() / (ep * tp) if g.moe else 0.0
    return spec.tp_linear_params(*g.kind, tp, whole_mla_down) + expert + spec.small_params(*g.kind)


def _expert_params(spec: ModelSpec, groups: tuple[LayerGroup, ...], tp: int, ep: int) -> float:
    return spec.expert_params_per_layer() / (ep * tp) if any(g.moe for g in groups) else 0.0


def root_params(spec: ModelSpec, first: bool, last: bool, tp: int) -> float:
    """Parameters outside every decoder layer on this stage (the root FSDP unit), per tp rank."""
    params = 0.0
    if first:
        params += spec.embedding_params / tp
    if last:
        params += spec.norm_params + (spec.head_params if not spec.tied_embeddings else
                                 (0 if first else spec.embedding_params)) / tp
    return params


def _unit_sizes(spec: ModelSpec, dt: Dtypes, groups: tuple[LayerGroup, ...], first: bool, last: bool, tp: int,
                ep: int, whole_mla_down: bool = False) -> tuple[int, int, int, float, float, float]:
    """What FSDP1 and FSDP2 gather and reduce: (gathered bytes per parameter, reduce bytes, unsharded gradient
    bytes, the largest layer's, all layers' and the root's parameters per tp rank). Under mixed precision both
    gather bf16 (FSDP2's MixedPrecisionPolicy(param_dtype=bf16), FSDP1's MixedPrecision), make bf16 gradients and
    reduce-scatter them in fp32 (reduce_dtype=float32)."""
    gather = 2 if dt.amp else dt.weight
    reduce = 4 if dt.amp else dt.grad
    grad_unsharded = 2 if dt.amp else dt.grad
    layer = max((_layer_params(spec, g, tp, ep, whole_mla_down) for g in groups), default=0.0)
    all_layers = sum(g.count * _layer_params(spec, g, tp, ep, whole_mla_down) for g in groups)
    return gather, reduce, grad_unsharded, layer, all_layers, root_params(spec, first, last, tp)


def _post_backwards(dt: Dtypes, sizes: tuple[int, int, int, float, float, float], root: float, root_grads: float,
                    kept: float, shards: int, adapter_grads: float | None) -> tuple[float, float | None]:
    """(a layer's post-backward, the root's own post-backward or None when only adapters train). A layer's
    post-backward reshards it before reducing: the layer below (prefetched) stays gathered while this layer's
    unsharded gradients are copied into the reduce-scatter input. The root's own post-backward ends the backward:
    the root is resharded, its unsharded gradients and their reduce-scatter input are alive, and the layers'
    scratch is gone and the root's sharded gradients do not exist yet (both counted by other components at this
    moment)."""
    gather, reduce, grad_unsharded, layer = sizes[:4]
    grad_layer = layer if adapter_grads is None else adapter_grads
    backward_end = root * gather + max(kept, layer * gather) + grad_layer * (grad_unsharded + reduce)
    root_post = None
    if adapter_grads is None:
        root_post = root_grads * (grad_unsharded + reduce) - root_grads / shards * dt.grad
    return backward_end, root_post


def fsdp2_units(spec: ModelSpec, dt: Dtypes, groups: tuple[LayerGroup, ...], first: bool, last: bool,
                tp: int, ep: int, reshard_after_forward: bool, shards: int = 1, loss_in_root: bool = True,
                replicated_embedding_grad: float = 0.0, adapter_grads: float | None = None,
                split_layer_groups: bool = False, last_layer_kept: bool = False,
                embedding_unit: bool = False, fsdp1: bool = False, whole_mla_down: bool = False) -> Fsdp2Units:
    """Gathered parameters and gradient buffers of one GPU, before the loss and the activations are counted.

    shards: data-parallel ranks; loss_in_root: the loss is computed inside the model's forward (false when a
    loss-parallel loss runs on the logits outside it); replicated_embedding_grad: extra gradient elements of a
    tensor-parallel embedding (see tensor_parallel); adapter_grads: with frozen base weights (LoRA), the trainable
    parameters of one layer (only their gradients are reduced). split_layer_groups: a layer's FSDP unit has two
    parameter groups on different meshes (experts and the rest, expert parallelism): no all-gather buffer outlives
    its layer and the root prefetches no layer before the loss backward (traced, see expert_parallel.py).
    last_layer_kept: the last decoder layer is not resharded after forward (torchtitan's default policy).
    embedding_unit: the token embedding is a unit of its own, gathered only for its forward (OLMo-core).
    fsdp1: FullyShardedDataParallel (FSDP1) instead, whose root is never resharded after forward (see fsdp1_units).
    whole_mla_down: MLA's down projections whole on every tp rank (torchtitan's Replicate: behaviour.whole_mla_down).
    """
    if fsdp1:
        return fsdp1_units(spec, dt, groups, first, last, tp, ep, reshard_after_forward, shards, loss_in_root,
                           adapter_grads, whole_mla_down)
    sizes = _unit_sizes(spec, dt, groups, first, last, tp, ep, whole_mla_down)
    gather, reduce, grad_unsharded, layer, all_layers, root = sizes
    # the embedding's own unit: gathered before the first layer only, never at the moments counted here
    embedding = spec.embedding_params / tp if embedding_unit and first and not spec.tied_embeddings else 0.0
    root_grads = max(root - embedding, embedding)  # the larger of the two units' post-backwards
    root -= embedding
    kept = 0.0 if reshard_after_forward else all_layers * gather
    # Forward: the last all-gather's flat output (one layer) is held by FSDP2's communication state until the
    # next all-gather. While a layer is gathered, its flat output and its copied-out parameters coexist with the
    # previous flat output (and the gathered root): the last layer's gather competes with the loss for the peak.
    # The root is resharded in its post-forward like every unit, so it is still gathered at the loss only when
    # the loss runs inside the root's forward (a transformers model given labels).
    extra_at_gather = (2 if reshard_after_forward else 1) * layer * gather
    held = layer * gather  # the last layer's all-gather output, still held by FSDP2's communication state
    if split_layer_groups:
        # Only the experts' all-gather output stays held, and only when the experts are really sharded (over the
        # dp/ep ranks holding the same experts): on a one-rank expert mesh nothing is gathered (traced).
        held = _expert_params(spec, groups, tp, ep) * gather if shards > ep else 0.0
    # The root's post-forward frees that held all-gather output (torch/distributed/fsdp/_fully_shard/_fsdp_state.py
    # _post_forward: comm_ctx.all_gather_state = None): a loss outside the root's forward never sees it.
    # torchtitan keeps the last block gathered from its forward to its backward (its copied-out parameters)
    last = layer * gather if reshard_after_forward and last_layer_kept else 0.0
    at_loss = ((root * gather + held) if loss_in_root else 0.0) + kept + last
    at_last_gather = root * gather + kept + layer * gather + extra_at_gather
    # The root's pre-backward hook sits on the root's output. With the loss inside, that is the loss: before
    # the loss backward runs, the root is all-gathered again (flat output + copied-out parameters) while the
    # loss still holds its saved fp32 log-softmax; the loss backward's spike then coincides with the
    # prefetched last layer. With the loss outside, the hook fires when the logits' gradient arrives.
    prefetch = kept if kept else held
    if loss_in_root:
        regather = 2 * root * gather
        backward_start = root * gather + prefetch
    else:
        regather = 2 * root * gather + kept + last
        backward_start = kept + last  # the held all-gather output went with the root's post-forward
    backward_end, root_post = _post_backwards(dt, sizes, root, root_grads, kept, shards, adapter_grads)
    at_embedding = None
    if replicated_embedding_grad:
        # With PyTorch TP the embedding's gradient arrives full-size (replicated) while the root is still
        # gathered, and is redistributed to its row shard before the root's post-backward (traced, 2-D).
        embed_shard = spec.embedding_params / tp
        at_embedding = (root * gather + (root + replicated_embedding_grad + embed_shard) * grad_unsharded
                        - root / shards * dt.grad)
    at_root_end = 0.0 if loss_in_root else root * gather + held + kept + last
    return Fsdp2Units(at_loss, at_last_gather, backward_start, regather, backward_end, root_post, at_embedding,
                      loss_in_root, root, layer, gather, reduce, at_root_end)


def fsdp2_moments(units: Fsdp2Units, loss_saved: float = 0.0, loss_backward: float = 0.0,
                  logits_forward: float = 0.0, layer_scratch: float = 0.0,
                  logits_grad: float = 0.0, loss_extra: float = 0.0) -> tuple[float, float, float]:
    """Bytes of gathered parameters and gradient buffers at the end of forward, the start and the end of backward.

    loss_saved: bytes the loss keeps for its backward (last stage); loss_backward: the loss backward's spike,
    counted by the logits component at the same moment; logits_forward: what the end of forward holds that the
    last layer's all-gather does not see yet (the loss's spike, the head's and the last layer's saved tensors).
    layer_scratch: a layer's backward scratch and recomputation, counted by other components at the end of
    backward; logits_grad: the logits' gradient when the loss runs outside the model; loss_extra: what the loss's
    forward adds beyond the logits themselves (counted by the logits component at the end of forward).
    """
    forward = max(units.at_loss, units.at_last_gather - logits_forward, units.at_root_end - loss_extra)
    loss_side = loss_saved if units.loss_in_root else logits_grad
    backward_start = max(units.backward_start, units.regather + loss_side - loss_backward)
    backward_end = units.backward_end
    if units.root_post_backward is not None:
        backward_end = max(backward_end, units.root_post_backward - layer_scratch)
    if units.at_embedding_grad is not None:
        backward_end = max(backward_end, units.at_embedding_grad - layer_scratch)
    return forward, backward_start, backward_end


def fsdp1_units(spec: ModelSpec, dt: Dtypes, groups: tuple[LayerGroup, ...], first: bool, last: bool, tp: int,
                ep: int, reshard_after_forward: bool, shards: int, loss_in_root: bool,
                adapter_grads: float | None, whole_mla_down: bool = False) -> Fsdp2Units:
    """FSDP1 (FullyShardedDataParallel, FULL_SHARD) at the same moments, read from torch/distributed/fsdp
    (_runtime_utils.py, _flat_param.py; PyTorch 2.6 to 2.13):

    * _post_forward_reshard frees a unit's unsharded flat parameter only when `not state._is_root`: the root
      (embeddings, final norm, lm_head) stays gathered from its pre-forward through the loss until its own
      post-backward, so nothing is gathered again before the loss backward (FSDP2 reshards it and gathers it anew);
    * a unit's parameters are views into its padded all-gather output (FlatParamHandle._use_unsharded_views), freed
      whole by _free_unsharded_flat_param in the post-forward: no copied-out parameters, no all-gather output held
      past the unit's forward, so one decoder layer is gathered at a time in forward (forward_prefetch=False);
    * backward_prefetch=BACKWARD_PRE: the root's pre-backward gathers the last layer, each layer's pre-backward the
      one below; a layer's post-backward reshards it before reducing its gradients (as FSDP2).
    """
    sizes = _unit_sizes(spec, dt, groups, first, last, tp, ep, whole_mla_down)
    gather, reduce, _, layer, all_layers, root = sizes
    kept = 0.0 if reshard_after_forward else all_layers * gather  # SHARD_GRAD_OP keeps every unit gathered
    at_loss = root * gather + kept
    at_last_gather = root * gather + kept + (0.0 if kept else layer * gather)
    prefetch = kept if kept else layer * gather
    backward_start = root * gather + prefetch
    regather = root * gather + kept  # the root is still gathered when the loss (or the logits' gradient) arrives
    backward_end, root_post = _post_backwards(dt, sizes, root, root, kept, shards, adapter_grads)
    at_root_end = 0.0 if loss_in_root else root * gather + kept
    return Fsdp2Units(at_loss, at_last_gather, backward_start, regather, backward_end, root_post, None,
                      loss_in_root, root, layer, gather, reduce, at_root_end)
