"""The set-up's parallelism controls offer what the scenario's framework can run (gui/parallel_limits.py reading
engine/frameworks/parallelism.py): a degree the framework has no parallelism for is greyed out at 1 with the reason,
a loaded value it cannot run stays shown and enabled in the warning colour, and a framework switch changes no other
setting. Every widget is driven through its own methods (setValue, setCurrentIndex), as a person would.

The facts tested are the framework rows' (engine/frameworks/parallelism.py): HUGGINGFACE has no pipeline dimension
(accelerate ParallelismConfig at 16cb6eb80) and tp/cp; DEEPSPEED runs only TrainSchedule (1F1B) and asserts ZeRO < 2
with a pipeline (deepspeed/runtime/pipe/engine.py at edaa7221); MEGATRON runs 1F1B and interleaved 1F1B, tp, cp, ep;
MEGATRON_2021 has no sharding (no --use-distributed-optimizer at de7dc40f88)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.scenario.framework_support import unsupported_settings
from gui.i18n import tr_message
from gui.theme import text_colour
from tests.window_helpers import window_from

HF = {"schema_version": 1, "model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 1,
      "framework": "huggingface", "precision": "amp-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096}
HF_LABEL = "Hugging Face (Trainer / TRL / accelerate)"  # engine/frameworks/defaults.py, the row's label


def _items(combo) -> list:
    return [combo.itemData(i) for i in range(combo.count())]


def test_hugging_face_greys_out_pipeline_parallelism_at_1_with_the_reason(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, HF)
    panel = win.setup_panel
    assert panel.pp.value() == 1 and not panel.pp.isEnabled()
    assert panel.pp.toolTip().startswith(HF_LABEL) and "no pipeline parallelism" in panel.pp.toolTip()
    label = panel.advanced.content.layout().labelForField(panel.pp)
    assert not label.isEnabled() and label.toolTip() == panel.pp.toolTip()
    # accelerate's ParallelismConfig has tp_size and cp_size: both stay enabled with their own tooltips
    assert panel.tp.isEnabled() and "Split every layer's matrices" in panel.tp.toolTip()
    assert panel.cp.isEnabled() and "Split each sequence" in panel.cp.toolTip()
    assert not panel.ep.isEnabled() and "mixture-of-experts" in panel.ep.toolTip()  # a dense model, as before


def test_deepspeed_greys_out_context_parallelism_at_1(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "framework": "deepspeed", "precision": "mixed-bf16"})
    cp = win.setup_panel.cp  # DeepSpeed's sequence parallelism is Ulysses, not the ring the scenario's cp is
    assert cp.value() == 1 and not cp.isEnabled() and cp.toolTip().startswith("DeepSpeed has no ring context")


def test_deepspeed_offers_only_1f1b_and_no_zero2_with_a_pipeline(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "framework": "deepspeed", "precision": "mixed-bf16"})
    panel = win.setup_panel
    assert _items(panel.zero) == [0, 1, 2, 3, "fsdp"]  # without a pipeline DeepSpeed shards up to ZeRO-3
    assert not panel.pp_schedule.isVisibleTo(win)  # the schedule counts only with a pipeline
    panel.pp.setValue(2)
    assert win.state.scenario.pp == 2 and panel.pp_schedule.isVisibleTo(win)
    assert _items(panel.pp_schedule) == ["1f1b"]  # no interleaved-1f1b, no gpipe
    assert _items(panel.zero) == [0, 1]  # 'ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism'


def test_a_loaded_pipeline_under_hugging_face_stays_shown_enabled_and_marked(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "pp": 2})
    panel, s = win.setup_panel, win.state.scenario
    sentence = tr_message(unsupported_settings(s)[0])
    assert s.pp == 2 and panel.pp.value() == 2 and panel.pp.isEnabled()
    assert panel.pp.toolTip() == sentence and "pp 2 cannot run" in sentence
    assert text_colour("tight") in panel.pp.styleSheet()  # the estimate's warning colour (gui/main_window.py)
    assert sentence in win.warnings.text() and win.warnings.isVisibleTo(win)
    panel.pp.setValue(1)  # set back: now greyed out as the framework has it
    assert win.state.scenario.pp == 1 and not panel.pp.isEnabled() and panel.pp.styleSheet() == ""


def test_switching_to_megatron_enables_them_and_changes_no_other_setting(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "pp": 2})
    panel, state = win.setup_panel, win.state
    before, count = state.scenario.to_dict(), state.undo_stack.count()
    combo = panel.framework_options.framework
    combo.setCurrentIndex(combo.findData("megatron"))
    after = state.scenario.to_dict()
    assert after["framework"] == "megatron" and {k: v for k, v in after.items() if k != "framework"} == {
        k: v for k, v in before.items() if k != "framework"}
    assert state.undo_stack.count() == count + 1  # one framework change, one undo step
    assert panel.pp.isEnabled() and panel.cp.isEnabled() and panel.pp.styleSheet() == ""
    assert "consecutive stages" in panel.pp.toolTip()  # its own tooltip back
    # Megatron has no GPipe; the zero-bubble schedules are the fork's (framework megatron-zb), not upstream's
    assert _items(panel.pp_schedule) == ["1f1b", "interleaved-1f1b"]
    assert not unsupported_settings(state.scenario) and not win.warnings.isVisibleTo(win)
    win.undo_action.trigger()
    assert state.scenario.to_dict() == before and panel.pp.isEnabled() and panel.pp.value() == 2


def test_a_sharding_the_framework_lacks_is_kept_and_marked(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "framework": "megatron-2021", "precision": "mixed-bf16",
                                        "zero_stage": 1})
    panel = win.setup_panel
    assert win.state.scenario.zero_stage == 1 and _items(panel.zero) == [0, 1]  # off, and the loaded ZeRO-1
    assert panel.zero.currentData() == 1 and panel.zero.currentText().startswith("⚠")
    assert "cannot run" in panel.zero.currentText()
    assert panel.zero.toolTip() == tr_message(unsupported_settings(scenario_from_dict(
        {**HF, "framework": "megatron-2021", "precision": "mixed-bf16", "zero_stage": 1}))[0])
    panel.zero.setCurrentIndex(0)
    assert win.state.scenario.zero_stage == 0 and _items(panel.zero) == [0] and panel.zero.styleSheet() == ""


def test_hugging_face_qlora_greys_out_tensor_parallelism_with_the_method_as_reason(qtbot, tmp_path):
    """HUGGINGFACE's QLoRA row (engine/frameworks/parallelism.py: bitsandbytes 95f9af309d4d _ops.py line 235 packs a
    4-bit weight into one column, which tensor parallelism cannot split): tp greyed at 1, saying it is the method;
    LoRA keeps it (accelerate's tp_size over an unquantized base)."""
    win = window_from(qtbot, tmp_path, {**HF, "method": "qlora", "precision": "bf16"})
    tp = win.setup_panel.tp
    assert tp.value() == 1 and not tp.isEnabled()
    assert tp.toolTip() == f"{HF_LABEL} runs no tensor parallelism with QLoRA: this stays at 1."
    assert tp.specialValueText() == "1 — not with QLoRA"
    win.setup_panel.method.setCurrentIndex(win.setup_panel.method.findData("lora"))
    assert win.state.scenario.method == "lora" and tp.isEnabled()


def test_zb_v_is_offered_where_the_framework_runs_it_and_sets_its_two_chunks(qtbot, tmp_path):
    """ZB-V runs two chunks a rank in a V (the fork's --zero-bubble-v-schedule, megatron/arguments.py lines 192-203
    at f68d3879; torch's ScheduleZBVZeroBubble in torchtitan): the fork and torchtitan list it with its label and
    tooltip; choosing it sets vpp 2 in the same undo step and hides the chunk count; upstream Megatron does not list
    it; going back to 1F1B sets one chunk again."""
    win = window_from(qtbot, tmp_path, {**HF, "framework": "megatron-zb", "precision": "mixed-bf16", "pp": 4,
                                        "nodes": 1, "grad_accum": 16})
    panel, state = win.setup_panel, win.state
    combo = panel.pp_schedule
    labels = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert labels["zbv"].startswith("zero bubble ZB-V") and "ZB-V gives each GPU two chunks in a V" in combo.toolTip()
    count = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData("zbv"))
    assert (state.scenario.pp_schedule, state.scenario.vpp) == ("zbv", 2) and state.undo_stack.count() == count + 1
    assert not panel.vpp.isVisibleTo(win) and not unsupported_settings(state.scenario)
    combo.setCurrentIndex(combo.findData("1f1b"))
    assert (state.scenario.pp_schedule, state.scenario.vpp) == ("1f1b", 1)
    titan = window_from(qtbot, tmp_path, {**HF, "framework": "torchtitan", "precision": "mixed-bf16", "pp": 2})
    assert "zbv" in _items(titan.setup_panel.pp_schedule)
    megatron = window_from(qtbot, tmp_path, {**HF, "framework": "megatron", "precision": "mixed-bf16", "pp": 2})
    assert "zbv" not in _items(megatron.setup_panel.pp_schedule)


def test_a_zero_bubble_schedule_is_chosen_from_the_list_and_offered_where_the_framework_runs_one(qtbot, tmp_path):
    """The Zero Bubble fork's row runs ZB-1p and ZB-2p (--enable-zero-bubble at f68d3879,
    engine/frameworks/megatron_zb.py); upstream Megatron-LM's row and DeepSpeed's TrainSchedule do not. The choice
    hides the chunk count (no virtual stages) and is one undo step."""
    win = window_from(qtbot, tmp_path, {**HF, "framework": "megatron-zb", "precision": "mixed-bf16", "pp": 4,
                                        "nodes": 1, "grad_accum": 16})
    panel, state = win.setup_panel, win.state
    combo = panel.pp_schedule
    labels = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert labels["zb-h1"].startswith("zero bubble ZB-1p") and labels["zb-2p"].startswith("zero bubble ZB-2p")
    assert "weight gradients later" in combo.toolTip()
    count = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData("zb-2p"))
    assert state.scenario.pp_schedule == "zb-2p" and state.undo_stack.count() == count + 1
    assert not panel.vpp.isVisibleTo(win) and not unsupported_settings(state.scenario)
    combo.setCurrentIndex(combo.findData("1f1b"))
    assert state.scenario.pp_schedule == "1f1b"
    deepspeed = window_from(qtbot, tmp_path, {**HF, "framework": "deepspeed", "precision": "mixed-bf16", "pp": 2})
    assert "zb-h1" not in _items(deepspeed.setup_panel.pp_schedule)
    megatron = window_from(qtbot, tmp_path, {**HF, "framework": "megatron", "precision": "mixed-bf16", "pp": 2})
    assert _items(megatron.setup_panel.pp_schedule) == ["1f1b", "interleaved-1f1b"]
