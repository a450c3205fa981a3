"""Widget tests of the framework-specific rows of the set-up editor: DeepSpeed buckets, Megatron's fp32 gradient
buffer and the allocator's expandable segments (issue 11). Expected values come from the engine for the same
scenario and from DeepSpeed's defaults (deepspeed/runtime/zero/config.py: reduce_bucket_size 5e8,
stage3_prefetch_bucket_size 5e7)."""


from engine import estimate, scenario_from_dict
from tests.window_helpers import window_from

BASE = {"name": "framework rows", "model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "full",
        "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 2048, "gpus_per_node": 8}


def test_rows_show_only_for_their_framework(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, BASE)
    opts, state = win.setup_panel.framework_options, win.state
    buckets = opts.buckets
    assert not opts.main_grads_fp32.isVisibleTo(win)
    assert not any(box.isVisibleTo(win) for box in buckets.values())
    assert opts.expandable_segments.isVisibleTo(win)  # every PyTorch framework runs on the caching allocator
    state.edit({"framework": "deepspeed", "zero_stage": 2})
    assert buckets["reduce_bucket_size"].isVisibleTo(win) and buckets["allgather_bucket_size"].isVisibleTo(win)
    assert not buckets["stage3_max_live_parameters"].isVisibleTo(win)
    assert buckets["reduce_bucket_size"].value() == 500.0  # DeepSpeed's default, 5e8 values
    state.edit({"zero_stage": 3})
    assert buckets["stage3_prefetch_bucket_size"].isVisibleTo(win)
    assert buckets["stage3_prefetch_bucket_size"].value() == 50.0
    assert not buckets["reduce_bucket_size"].isVisibleTo(win)
    state.edit({"framework": "megatron", "zero_stage": 0})
    assert opts.main_grads_fp32.isVisibleTo(win)
    assert not any(box.isVisibleTo(win) for box in buckets.values())


def test_controls_change_the_estimate_and_undo(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "framework": "deepspeed", "zero_stage": 2})
    opts, state = win.setup_panel.framework_options, win.state
    start = state.estimate.peak_allocated_bytes
    opts.buckets["reduce_bucket_size"].setValue(50.0)
    assert state.scenario.reduce_bucket_size == 50_000_000
    smaller = state.estimate.peak_allocated_bytes
    assert smaller < start  # the fp32 reduce bucket is a tenth of the default
    assert smaller == estimate(scenario_from_dict({**BASE, "framework": "deepspeed", "zero_stage": 2,
                                                   "reduce_bucket_size": 50_000_000})).peak_allocated_bytes
    combo = opts.expandable_segments
    combo.setCurrentIndex(combo.findData(True))
    assert state.scenario.expandable_segments is True
    assert state.estimate.peak_reserved_bytes < estimate(scenario_from_dict(
        {**BASE, "framework": "deepspeed", "zero_stage": 2, "reduce_bucket_size": 50_000_000})).peak_reserved_bytes
    win.undo_action.trigger()
    assert state.scenario.expandable_segments == "auto" and combo.currentData() == "auto"
    win.undo_action.trigger()
    assert state.scenario.reduce_bucket_size == 500_000_000
    assert opts.buckets["reduce_bucket_size"].value() == 500.0
    assert state.estimate.peak_allocated_bytes == start


def test_megatron_fp32_gradient_buffer_can_be_turned_off(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "framework": "megatron", "precision": "bf16", "gpus_per_node": 1})
    opts, state = win.setup_panel.framework_options, win.state
    fp32 = state.estimate.peak_allocated_bytes
    grads_fp32 = [c for c in state.estimate.components if c.key == "gradients"][0].moments[2]
    combo = opts.main_grads_fp32
    combo.setCurrentIndex(combo.findData(False))
    assert state.scenario.main_grads_fp32 is False
    # Megatron's main_grad buffer holds 4 bytes per parameter; without it the gradients take the 2 of bf16
    grads = [c for c in state.estimate.components if c.key == "gradients"][0].moments[2]
    assert grads_fp32 == 2 * grads
    assert state.estimate.peak_allocated_bytes < fp32
    win.undo_action.trigger()
    assert state.scenario.main_grads_fp32 == "auto" and state.estimate.peak_allocated_bytes == fp32


def test_framework_switches_line_up(qtbot, tmp_path):
    """The framework's check boxes start at one x: they span their rows, instead of a short one sitting in the
    field column while a long one wraps to the left edge (seen at 1366x768 in English)."""
    win = window_from(qtbot, tmp_path, BASE)
    win.resize(1366, 768)
    win.show()
    opts = win.setup_panel.framework_options
    boxes = [b for b in (opts.compile, opts.activation_offload, opts.optimizer_in_backward, opts.distributed_optimizer,
                         opts.save_embed, opts.save_head) if b.isVisibleTo(win)]
    assert len(boxes) >= 2
    assert len({b.geometry().x() for b in boxes}) == 1


def test_megatron_rows_show_where_they_count_and_edit_undoably(qtbot, tmp_path):
    from engine.frameworks.megatron_layer import RECOMPUTE_MODULES
    from engine.scenario.time_keys import FP8_RECIPES, MOE_TOKEN_DISPATCHERS

    win = window_from(qtbot, tmp_path, {**BASE, "model": "mixtral-8x7b", "nodes": 2, "ep": 8})
    rows, state = win.setup_panel.framework_options.megatron, win.state
    # every value the engine accepts has a choice in the window
    assert list(rows.recompute) == list(RECOMPUTE_MODULES)
    assert [rows.dispatcher.itemData(i) for i in range(rows.dispatcher.count())] == list(MOE_TOKEN_DISPATCHERS)
    assert [rows.fp8_recipe.itemData(i) for i in range(rows.fp8_recipe.count())] == list(FP8_RECIPES)
    widgets = (rows.recompute_box, rows.offload_layers, rows.split_box, rows.dispatcher, rows.a2a_overlap,
               rows.fp8_recipe, rows.fp8_params)
    assert not any(w.isVisibleTo(win) for w in widgets)  # Hugging Face, bf16: none of them counts
    state.edit({"framework": "megatron", "checkpointing": "selective", "pp": 2, "precision": "fp8"})
    assert all(w.isVisibleTo(win) for w in widgets)
    assert rows.recompute["core_attn"].isChecked()  # Megatron's default: the attention core
    def activations() -> float:
        return sum(c.peak_bytes for c in state.estimate.components if c.key == "activations")
    before = activations()
    rows.recompute["moe"].click()
    assert state.scenario.recompute_modules == ("core_attn", "moe")
    assert activations() < before / 2  # the MoE layers' saved tensors are rebuilt, not kept
    rows.split["loss"].click()
    assert state.scenario.pipeline_split_accounts_for == ("loss",)
    rows.offload_layers.setValue(4)
    rows.dispatcher.setCurrentIndex(2)
    rows.fp8_recipe.setCurrentIndex(3)
    s = state.scenario
    assert (s.activation_offload_layers, s.moe_token_dispatcher_type, s.fp8_recipe) == (4, "flex", "mxfp8")
    rows.a2a_overlap.setChecked(True)
    assert state.scenario.moe_a2a_overlap
    state.undo_stack.undo()
    assert not state.scenario.moe_a2a_overlap and not rows.a2a_overlap.isChecked()
    for _ in range(5):
        state.undo_stack.undo()
    assert state.scenario.recompute_modules == ("core_attn",) and not rows.recompute["moe"].isChecked()
    assert state.scenario.activation_offload_layers == 0 and rows.offload_layers.value() == 0
    weights = sum(c.peak_bytes for c in state.estimate.components if c.key == "weights")
    rows.fp8_params.click()  # the layers' linear weights in fp8 (Megatron --fp8-param-gather)
    assert state.scenario.fp8_param_gather and rows.fp8_params.isChecked()
    state.undo_stack.undo()
    assert not state.scenario.fp8_param_gather and not rows.fp8_params.isChecked()
    assert sum(c.peak_bytes for c in state.estimate.components if c.key == "weights") == weights



def test_fused_expert_mlp_row_shows_for_megatron_moe_and_edits_undoably(qtbot, tmp_path):
    """Transformer Engine's fused grouped-MLP ops run gpt-oss's expert clamp and biases inside the fused ops
    (engine/timing/costs.py gpt_oss_unfused_bytes, from Megatron-Bridge's gpt_oss recipes): the row's check box
    reaches the step time's memory-bound term, as the engine figures it for the same scenario."""
    from engine.workloads import step_time

    moe = {**BASE, "model": "gpt-oss-20b", "framework": "megatron", "precision": "bf16", "ep": 8,
           "distributed_optimizer": True}
    win = window_from(qtbot, tmp_path, moe)
    rows, state = win.setup_panel.framework_options.megatron, win.state
    box = rows.fused_expert_mlp
    assert box.isVisibleTo(win) and not box.isChecked()

    def memory_bound(t) -> float:
        return next(term.seconds for term in t.terms if term.key == "memory_bound")
    unfused = memory_bound(state.step_time)
    depth = state.undo_stack.count()
    box.click()
    s = state.scenario
    assert s.fused_expert_mlp and state.undo_stack.count() == depth + 1
    assert memory_bound(state.step_time) == memory_bound(step_time(s)) < unfused  # the experts' element-wise passes go
    state.undo_stack.undo()
    assert not state.scenario.fused_expert_mlp and not box.isChecked()
    assert memory_bound(state.step_time) == unfused
    state.edit({"model": "llama-3-8b", "ep": 1})  # a dense model: no experts
    assert not box.isVisibleTo(win)
    state.edit({"model": "mixtral-8x7b", "framework": "huggingface"})  # MoE, but not Megatron's arguments
    assert not box.isVisibleTo(win)
    state.edit({"framework": "megatron"})
    assert box.isVisibleTo(win)


def test_a_file_s_eager_softmax_rule_survives_edits_in_the_window(qtbot, tmp_path):
    """eager_softmax has no row (it describes the code of 2021-22 Megatron-DeepSpeed runs, which no framework choice
    of the window names): a scenario file that sets it keeps it through the window's edits, and undo."""
    data = {**BASE, "framework": "deepspeed", "attention": "eager", "tp": 8, "zero_stage": 1,
            "eager_softmax": "megatron-deepspeed-2022"}
    win = window_from(qtbot, tmp_path, data)
    win.setup_panel.grad_accum.setValue(4)
    assert (win.state.scenario.grad_accum, win.state.scenario.eager_softmax) == (4, "megatron-deepspeed-2022")
    win.state.undo_stack.undo()
    assert win.state.scenario.eager_softmax == "megatron-deepspeed-2022"
