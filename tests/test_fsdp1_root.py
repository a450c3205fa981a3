"""FSDP1 (FullyShardedDataParallel) keeps its root unit gathered from the forward to the root's post-backward, read
from PyTorch's source (torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard, PyTorch 2.6 to 2.13):

    free_unsharded_flat_param = (not state._is_root and handle._sharding_strategy in
                                 RESHARD_AFTER_FORWARD_HANDLE_STRATEGIES)

verl relies on it: after a no-grad pass it frees the root by hand (verl/workers/fsdp_workers.py compute_log_prob:
`self.actor.actor_module._handle.reshard(True)` under FSDP1, b4aa2dce8). A unit's parameters are views into its
all-gather output (_flat_param.py FlatParamHandle._use_unsharded_views), freed whole in the post-forward, so no
copied-out parameters and no all-gather output outlive a layer's forward; backward_prefetch defaults to BACKWARD_PRE
(fully_sharded_data_parallel.py), so one layer is prefetched at the root's pre-backward. FSDP2 (fully_shard) instead
reshards the root after forward and gathers it again before the loss backward (traced: fsdp.py)."""

import pytest

from engine import estimate, scenario_from_dict
from engine.memory.parallelism.fsdp import fsdp2_units
from engine.memory.states import Dtypes, LayerGroup
from engine.models.presets import model_spec_for

BF16 = Dtypes(weight=2, grad=2, state=4, compute=2, master=4, amp=False, fp8=False)


def _units(fsdp1: bool, loss_in_root: bool):
    spec = model_spec_for("llama-3-8b")
    groups = (LayerGroup(moe=False, frozen=False, input_grad=True, count=spec.layers),)
    return spec, fsdp2_units(spec, BF16, groups, True, True, 1, 1, True, 8, loss_in_root, fsdp1=fsdp1)


@pytest.mark.parametrize("loss_in_root", [True, False])
def test_fsdp1_root_stays_gathered_and_is_not_gathered_again(loss_in_root):
    spec, one = _units(True, loss_in_root)
    root = spec.embedding_params + spec.head_params + spec.hidden  # Llama 3 8B: untied head, one final RMSNorm
    layer = (spec.text_params - root) / spec.layers
    assert one.root_params == pytest.approx(root) and one.layer_params == pytest.approx(layer)
    assert one.at_loss == pytest.approx(2 * root)  # the root, nothing else gathered at the loss
    assert one.at_last_gather == pytest.approx(2 * root + 2 * layer)  # the root + the last layer's gather output
    assert one.backward_start == pytest.approx(2 * root + 2 * layer)  # + the last layer prefetched (BACKWARD_PRE)
    assert one.regather == pytest.approx(2 * root)  # still gathered: no second gather before the loss backward
    _, two = _units(False, loss_in_root)
    assert two.regather == pytest.approx(4 * root)  # FSDP2 gathers it anew: flat output + copied-out parameters


def test_fsdp1_scenarios_use_it_and_fsdp2_scenarios_keep_the_traced_model():
    base = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "precision": "bf16", "micro_batch": 1, "seq_len": 2048,
            "gpus_per_node": 8, "fsdp": True, "cross_entropy": "fused-linear"}
    one, two = (estimate(scenario_from_dict({**base, "fsdp_version": v})) for v in (1, 2))
    gather = [next(c for c in e.components if c.key == "zero3_gather") for e in (one, two)]
    spec = model_spec_for("llama-3-8b")
    root = spec.embedding_params + spec.head_params + spec.hidden
    # at the loss backward FSDP2 holds the root twice (flat output + copied-out parameters), FSDP1 once
    assert gather[1].moments.backward_start - gather[0].moments.backward_start == pytest.approx(2 * root, rel=0.35)
    assert one.peak_allocated_bytes < two.peak_allocated_bytes
