"""Megatron-Core's combined 1F1B stream by stream (engine/timing/a2a_overlap.py): TransformerLayerSchedulePlan.run
(NVIDIA/Megatron-LM megatron/core/models/common/model_chunk_schedule_plan.py, the same order at core_v0.14.0rc7,
core_v0.15.0, b0cc2706 and 2edffadb) puts B's combine backward beside A's attention forward, A's dispatch and then B's
dispatch backward beside B's experts' backward, and A's combine beside B's attention backward. Expected values are
worked out by hand from that order on round numbers (milliseconds)."""

from __future__ import annotations

import pytest

from engine.timing.a2a_overlap import (
    LayerParts,
    PairedLayers,
    _exposed_by_pairs,
    gemm_parts,
    layer_parts,
    paired_exposed_seconds,
)
from engine.timing.costs import LayerCost


def test_all_to_all_shorter_than_every_window_hides_entirely():
    # each all-to-all (1 ms) is shorter than the window it runs beside: nothing shows, from the first pair on
    parts = LayerParts(attn_fwd=3.0, mlp_fwd=2.0, mlp_dgrad=2.0, mlp_wgrad=2.0, attn_bwd=4.0, attn_wgrad=2.0)
    assert _exposed_by_pairs(1.0, parts, 3) == pytest.approx([0.0, 0.0, 0.0])


def test_each_all_to_all_hides_only_behind_its_own_window():
    # a2a 3 ms; A's attention 2, B's experts' input gradient 1, weight gradient 1, A's experts 1, B's attention
    # backward 4 and its weight gradients 1 (10 ms of compute). By the streams' order and the nodes' inputs:
    # combine_bwd(B) 0-3, attn_fwd(A) 0-2; mlp_bwd(B) 3-4 (waits for the combined gradient); dispatch_fwd(A) 3-6;
    # mlp_bwd_dw(B) 4-5; dispatch_bwd(B) 6-9 (the comm stream is busy until 6); mlp_fwd(A) 6-7 (waits for its
    # tokens); combine_fwd(A) 9-12; attn_bwd(B) 9-13 (waits for its gradient), its dw 13-14. End 14: 4 ms exposed,
    # where hiding each pair behind a whole pass (2 x 3 ms behind 3 ms of forward and 7 of backward) left 3.
    parts = LayerParts(attn_fwd=2.0, mlp_fwd=1.0, mlp_dgrad=1.0, mlp_wgrad=1.0, attn_bwd=4.0, attn_wgrad=1.0)
    first = _exposed_by_pairs(3.0, parts, 1)[0]
    assert first == pytest.approx(4.0)


def test_a_stage_pays_the_cold_start_once_per_model_chunk():
    # 8 layers exposing 2, 3 and 3.5 ms after one, two and three pairs of a chunk (from the third on, 0.5 ms a pair):
    # one chunk 3 + 6 x 0.5 = 6 ms; in 4 chunks of 2 layers 4 x 3 = 12 ms; in 8 chunks of one layer 8 x 2 = 16 ms
    run = (PairedLayers(8, 2.0, 3.0, 3.5),)
    assert paired_exposed_seconds(run, 1) == pytest.approx(6.0)
    assert paired_exposed_seconds(run, 4) == pytest.approx(12.0)
    assert paired_exposed_seconds(run, 8) == pytest.approx(16.0)


def _cost() -> LayerCost:
    # round milliseconds; the element-wise backward factor comes from presets/efficiency.json (layer_parts)
    return LayerCost(gemm_fwd=6.0, attn_fwd=2.0, attn_bwd=5.0, elem_fwd=1.0, lora_fwd=0.0, dequant=0.0,
                     gemm_flops_fwd=0.0, attn_flops_fwd=0.0, gemm_every_second_fwd=0.0, elem_bwd=2.0, gemm_dgrad=6.0,
                     gemm_wgrad=6.0, act_fwd=0.5, experts_fwd=4.0, experts_dgrad=4.0, experts_wgrad=4.0)


@pytest.mark.parametrize("weight_grads", [True, False])
def test_the_schedule_runs_the_layers_compute_and_no_more(weight_grads):
    """The nodes' seconds add up to the layer's forward and backward as model.py costs them: the backward holds the
    weight-gradient GEMMs only where the weights get gradients (a frozen layer, LoRA's base, runs none), and the
    schedule's mlp_bwd_dw and attn_bwd_dw then have nothing to hide an all-to-all behind."""
    c = _cost()
    forward = c.gemm_fwd + c.attn_fwd + c.elem_fwd
    backward = c.gemm_dgrad + (c.gemm_wgrad if weight_grads else 0.0) + c.attn_bwd + c.elem_bwd
    parts = layer_parts(c, forward, backward, weight_grads)
    assert sum(parts) == pytest.approx(forward + backward)
    assert (parts.mlp_wgrad, parts.attn_wgrad) == ((4.0, 2.0) if weight_grads else (0.0, 0.0))


def test_gemms_with_a_static_tile_schedule_wait_for_the_all_to_all_beside_them():
    # the first test's windows (each longer than the 1 ms all-to-all), every node all GEMM on a GPU whose GEMMs are
    # persistent with a static schedule (Hopper: presets/efficiency.json gemm_tile_scheduler): by the same order,
    # combine_bwd(B) 0-1, attn_fwd(A) 0-3 waits 1 -> 4; dispatch_fwd(A) 4-5, mlp_bwd(B) 4-6 waits 1 -> 7;
    # dispatch_bwd(B) 7-8, mlp_bwd_dw(B) 7-9 waits 1 -> 10; mlp_fwd(A) 10-12; combine_fwd(A) 12-13, attn_bwd(B) 12-16
    # waits 1 -> 17, its dw 17-19. 15 ms of compute end at 19: each of the four all-to-alls shows whole
    parts = LayerParts(attn_fwd=3.0, mlp_fwd=2.0, mlp_dgrad=2.0, mlp_wgrad=2.0, attn_bwd=4.0, attn_wgrad=2.0)
    assert _exposed_by_pairs(1.0, parts, 1, serial=parts) == pytest.approx([4.0])


def test_the_other_kernels_of_a_node_still_hide_the_all_to_all():
    # the same windows, each with 1 ms of kernels other than GEMMs (attention, norms, activations): they run beside
    # each 1 ms all-to-all, so nothing shows, as without the static schedule
    parts = LayerParts(attn_fwd=3.0, mlp_fwd=2.0, mlp_dgrad=2.0, mlp_wgrad=2.0, attn_bwd=4.0, attn_wgrad=2.0)
    gemms = LayerParts(*(seconds - 1.0 for seconds in parts))
    assert _exposed_by_pairs(1.0, parts, 3, serial=gemms) == pytest.approx([0.0, 0.0, 0.0])


def test_the_gemms_of_each_node_are_the_layers_linears_and_experts():
    # _cost(): dense linears 6 - 4 = 2 ms forward and 6 - 4 = 2 ms input gradient, the routed experts 4 ms each way
    c = _cost()
    forward = c.gemm_fwd + c.attn_fwd + c.elem_fwd
    backward = c.gemm_dgrad + c.gemm_wgrad + c.attn_bwd + c.elem_bwd
    parts = layer_parts(c, forward, backward)
    assert gemm_parts(c, parts) == pytest.approx(LayerParts(2.0, 4.0, 4.0, 4.0, 2.0, 2.0))

