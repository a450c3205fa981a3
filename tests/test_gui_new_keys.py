"""The keys added with the time model's mechanisms, in the window: CUDA graphs (cuda_graphs), FSDP2's float8
all-gather (fp8_all_gather), the attention kernel variant (attention_kernel, with cudnn8 and flash4), verl's entropy
bonus (entropy_coeff), the chosen NLL weight (rpo_alpha), the cross-entropy choice megatron-fused and the framework
internevo. Each is driven through its
widget: the scenario changes, the estimate or step time is the engine's for the same scenario, undo restores both,
and each row shows only where its key counts. Expected numbers come from the engine itself (engine/workloads
estimate / step_time on the edited scenario); which frameworks a row shows for follows the framework table
(engine/frameworks/defaults.py) and presets/efficiency.json's framework profiles (fsdp2_copies, fp8_recipe)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.frameworks import TABLE
from engine.scenario import KEY_SPECS
from engine.workloads import estimate, step_time
from tests.test_verl_offload_and_engine_pool import VERL_7B_LORA
from tests.window_helpers import window_from

# A Megatron MoE run (examples/qwen3-30b-a3b-8x-h100.json's model on two nodes with expert parallelism)
MOE = {"name": "megatron moe", "model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
       "method": "full", "precision": "bf16", "framework": "megatron", "micro_batch": 1, "seq_len": 4096,
       "ep": 8, "tp": 1, "checkpointing": "full", "attention": "flash"}
# torchtitan's fp8 (torchao Float8Linear, tensorwise) under FSDP2 on one node of eight
TITAN_FP8 = {"name": "titan fp8", "model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
             "method": "full", "precision": "fp8", "framework": "torchtitan", "fsdp": True, "micro_batch": 1,
             "seq_len": 8192, "attention": "flash"}
# verl GRPO with LoRA, colocated vLLM (the step-1 run of eric-haibin-lin/verl-data's 7B GSM8K log)
VERL_GRPO = VERL_7B_LORA


def _values(combo) -> list:  # noqa: ANN001 - a ValueCombo
    return [combo.itemData(i) for i in range(combo.count())]


def _worded(combo) -> bool:  # noqa: ANN001 - a ValueCombo
    """Every item is shown in words, none as its bare file value."""
    return all(combo.itemText(i) != str(combo.itemData(i)) for i in range(combo.count()))


def _choose(combo, value) -> None:  # noqa: ANN001 - what picking it in the popup does
    combo.setCurrentIndex(combo.findData(value))


def _seconds(data: dict) -> float:
    return step_time(scenario_from_dict(data)).step_seconds


def test_cuda_graphs_row_edits_undoably_where_megatron_arguments_apply(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MOE)
    rows, state = win.setup_panel.framework_options.megatron, win.state
    combo = rows.cuda_graphs
    assert _values(combo) == list(KEY_SPECS["cuda_graphs"].check.choices()) and _worded(combo)
    assert combo.isVisibleTo(win) and combo.currentData() == "auto"
    before = state.step_time.step_seconds
    _choose(combo, "layers")
    assert state.scenario.cuda_graphs == "layers"
    assert state.undo_stack.text(state.undo_stack.index() - 1) == "CUDA graphs (captured parts): every transformer layer"
    # captured layers launch once per layer and skip the dispatcher's synchronisation (engine/timing/host.py)
    assert state.step_time.step_seconds == _seconds({**MOE, "cuda_graphs": "layers"}) != before
    state.undo_stack.undo()
    assert state.scenario.cuda_graphs == "auto" and combo.currentData() == "auto"
    assert state.step_time.step_seconds == before
    state.edit({"framework": "huggingface", "ep": 1, "nodes": 1})
    assert not combo.isVisibleTo(win)  # no Megatron arguments, the default: nothing to show
    state.edit({"cuda_graphs": "attention"})
    assert combo.isVisibleTo(win) and combo.currentData() == "attention"  # a value set stays in sight


def test_fp8_all_gather_shows_for_fp8_under_fsdp2_and_edits_undoably(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, TITAN_FP8)
    rows, state = win.setup_panel.framework_options.megatron, win.state
    combo = rows.fp8_all_gather
    assert _values(combo) == ["auto", True, False] and _worded(combo)
    assert combo.isVisibleTo(win)
    before = state.step_time.step_seconds
    _choose(combo, True)
    assert state.scenario.fp8_all_gather is True
    # the weights gathered in 1 byte instead of 2 (engine/timing/data_parallel.py fp8_gathered_weights)
    assert state.step_time.step_seconds == _seconds({**TITAN_FP8, "fp8_all_gather": True}) != before
    state.undo_stack.undo()
    assert state.scenario.fp8_all_gather == "auto" and combo.currentData() == "auto"
    assert state.step_time.step_seconds == before
    state.edit({"precision": "bf16"})
    assert not combo.isVisibleTo(win)  # the key applies to fp8 only
    state.edit({"precision": "fp8", "framework": "megatron", "fsdp": False})
    assert not combo.isVisibleTo(win)  # Transformer Engine's fp8, no FSDP2: the setting changes nothing
    state.edit({"framework": "olmo-core", "fsdp": True})
    assert combo.isVisibleTo(win)  # OLMo-core: torchao tensorwise under FSDP2, gathered in float8 by default


def test_attention_kernel_offers_every_variant_in_words(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**MOE, "gpu": "b200"})
    opts, state = win.setup_panel.framework_options, win.state
    combo = opts.attention_kernel
    assert set(_values(combo)) == set(KEY_SPECS["attention_kernel"].check.choices()) and _worded(combo)
    assert combo.isVisibleTo(win)
    before = state.step_time.step_seconds
    for kernel in ("cudnn8", "flash4"):
        _choose(combo, kernel)
        assert state.scenario.attention_kernel == kernel
        assert state.step_time.step_seconds == _seconds({**MOE, "gpu": "b200", "attention_kernel": kernel})
    state.undo_stack.undo()
    assert state.scenario.attention_kernel == "cudnn8" and combo.currentData() == "cudnn8"
    state.undo_stack.undo()
    assert state.scenario.attention_kernel == "auto" and state.step_time.step_seconds == before
    state.edit({"attention": "eager"})
    assert not combo.isVisibleTo(win)  # eager attention runs no fused kernel


def test_cross_entropy_and_framework_pickers_name_the_new_choices(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MOE)
    opts, state = win.setup_panel.framework_options, win.state
    assert set(_values(opts.cross_entropy)) == set(KEY_SPECS["cross_entropy"].check.choices())
    assert _worded(opts.cross_entropy)
    assert set(_values(opts.framework)) == set(KEY_SPECS["framework"].check.choices())
    # a framework is shown by its own name (torchtune's is its id), InternEvo's as the framework table spells it
    assert opts.framework.itemText(opts.framework.findData("internevo")) == TABLE["internevo"].label
    before = state.estimate.peak_allocated_bytes
    _choose(opts.cross_entropy, "megatron-fused")
    assert state.scenario.cross_entropy == "megatron-fused"
    assert state.estimate.peak_allocated_bytes == estimate(scenario_from_dict(
        {**MOE, "cross_entropy": "megatron-fused"})).peak_allocated_bytes
    _choose(opts.framework, "internevo")
    assert state.scenario.framework == "internevo"
    state.undo_stack.undo()
    state.undo_stack.undo()
    assert (state.scenario.framework, state.scenario.cross_entropy) == ("megatron", "auto")
    assert state.estimate.peak_allocated_bytes == before


def _update_logits(est) -> float:  # noqa: ANN001 - an Estimate
    """The logits' bytes at the end of the update's forward (the rollout phase sets this run's peak)."""
    training = next(p for p in est.rl.phases if p.key == "training")
    return next(c for c in training.components if c.key == "logits").moments.forward


def test_entropy_bonus_row_for_verl_policy_gradient(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, VERL_GRPO)
    rl, state = win.setup_panel.rl, win.state
    spin = rl.entropy_coeff
    assert spin.isVisibleTo(win) and spin.value() == 0.0
    assert "bytes" in spin.toolTip()  # the tooltip says what it costs in memory
    before = _update_logits(state.estimate)
    spin.setValue(0.001)  # the coefficient of verl's published MATH runs (their logs)
    assert state.scenario.entropy_coeff == 0.001
    # the compiled entropy's fp32 buffer and gradient in the update's logits (engine/posttraining/entropy.py)
    assert _update_logits(state.estimate) == _update_logits(estimate(scenario_from_dict(
        {**VERL_GRPO, "entropy_coeff": 0.001}))) > before
    state.undo_stack.undo()
    assert state.scenario.entropy_coeff == 0.0 and spin.value() == 0.0
    assert _update_logits(state.estimate) == before
    state.edit({"training_objective": "online-dpo"})
    assert not spin.isVisibleTo(win)  # no policy-gradient loss, no bonus
    state.edit({"training_objective": "grpo", "framework": "trl"})
    assert not spin.isVisibleTo(win)  # TRL's update computes no entropy bonus
    state.edit({"entropy_coeff": 0.01})
    assert spin.isVisibleTo(win) and spin.value() == 0.01  # a value set stays in sight


# TRL DPO with LoRA: the framework takes the chosen NLL from the logits (engine/frameworks/posttraining.py
# chosen_nll_from_logits; tests/test_chosen_nll.py for the tensors and their sources)
TRL_DPO = {"gpu": "a100-80gb", "framework": "trl", "training_objective": "dpo", "precision": "bf16",
           "model": "qwen2.5-7b", "method": "lora", "micro_batch": 1, "prompt_len": 1024, "completion_len": 1024,
           "checkpointing": "full"}


def test_rpo_alpha_row_for_preference_objectives_that_compute_the_nll(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, TRL_DPO)
    rl, state = win.setup_panel.rl, win.state
    spin = rl.rpo_alpha
    assert spin.isVisibleTo(win) and spin.value() == 0.0
    assert "logits" in spin.toolTip()  # the tooltip says what it costs in memory
    before = _update_logits(state.estimate)
    spin.setValue(1.0)
    assert state.scenario.rpo_alpha == 1.0
    assert _update_logits(state.estimate) == _update_logits(estimate(scenario_from_dict(
        {**TRL_DPO, "rpo_alpha": 1.0}))) > before
    state.undo_stack.undo()
    assert state.scenario.rpo_alpha == 0.0 and spin.value() == 0.0
    state.edit({"framework": "ms-swift"})
    assert not spin.isVisibleTo(win)  # ms-swift's DPO takes the NLL from the per-token log-probs
    state.edit({"rpo_alpha": 0.5})
    assert spin.isVisibleTo(win) and spin.value() == 0.5  # a value set stays in sight


def test_moe_grouped_gemm_box_edits_undoably_for_megatron_moe(qtbot, tmp_path):
    """moe_grouped_gemm (Megatron --moe-grouped-gemm; engine/scenario/time_keys.py): on by default as NVIDIA's
    recipes run it; unticked, the experts run one after another (SequentialMLP) and the step is the engine's own for
    that scenario; undo brings both back."""
    win, box = _untick_and_undo(qtbot, tmp_path, MOE, "grouped_gemm", "moe_grouped_gemm")
    win.state.edit({"model": "llama-3-8b", "ep": 1})  # a dense model: no experts, so no row
    assert not box.isVisibleTo(win)


def _untick_and_undo(qtbot, tmp_path, data: dict, row: str, key: str):  # noqa: ANN001, ANN202 - qtbot, (window, box)
    """A Megatron row's box, on by default: shown and ticked, unticked it sets the key false and the step is the
    engine's own for that scenario (slower), undo brings both back."""
    win = window_from(qtbot, tmp_path, data)
    box, state = getattr(win.setup_panel.framework_options.megatron, row), win.state
    assert box.isVisibleTo(win) and box.isChecked()
    before = state.step_time.step_seconds
    box.setChecked(False)
    assert getattr(state.scenario, key) is False
    assert state.step_time.step_seconds == _seconds({**data, key: False}) > before
    state.undo_stack.undo()
    assert getattr(state.scenario, key) is True and box.isChecked() and state.step_time.step_seconds == before
    return win, box


def test_apply_rope_fusion_box_edits_undoably_where_megatron_cores_rope_runs(qtbot, tmp_path):
    """apply_rope_fusion (Megatron --no-rope-fusion; engine/scenario/time_keys.py, engine/timing/rope_fusion.py):
    a time key with no row in the window until review 20. Shown where Megatron-Core's own RoPE runs (a rotary model
    under framework megatron; not torchtitan, not GPT-OSS, whose path always counts the eager RoPE); unticked, the
    step is the engine's own for that scenario; undo brings both back."""
    dense = {**MOE, "model": "llama-3-8b", "ep": 1, "nodes": 1}
    win, box = _untick_and_undo(qtbot, tmp_path, dense, "rope_fusion", "apply_rope_fusion")
    win.state.edit({"model": "gpt-oss-20b"})
    assert not box.isVisibleTo(win)
    win.state.edit({"model": "llama-3-8b", "framework": "torchtitan"})
    assert not box.isVisibleTo(win)
