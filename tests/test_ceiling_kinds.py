"""MFU ceilings by kind of step (engine/timing/ceiling.py): the model (dense or MoE) and the training method (every
weight trained, or some frozen: LoRA, QLoRA, frozen layers).

Expected values come from presets/mfu_ceilings.json, generated from tests/data/published/throughput.json: on H100 SXM
in bf16 NVIDIA/dgxc-benchmarking's best full-training run is its full SFT of Llama 3 8B (MFU 0.646) and its best
frozen-weights run the LoRA fine-tuning of the same model (0.657); NVIDIA-NeMo/Automodel's best frozen-weights run is
its Qwen2.5 7B LoRA (0.474); NVIDIA/Megatron-LM's README weak-scaling run (0.4945) is the best full-training run of any
other source. No MoE run in the set has frozen weights, and no B200 run in bf16 is dense."""

import json

import pytest

from engine.accuracy.published_throughput import load_rows, source_of
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.ceiling import CEILINGS_FILE, DENSE, FALLBACK, FROZEN, FULL, MOE, frozen_weights, leave_out, mfu_ceiling
from engine.timing.hardware import hardware_for
from engine.timing.mfu import mfu_format


def _entries() -> list[dict]:
    return json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["best_by_source"]


def _best(gpu: str, fmt: str, kind: str, training: str, left_out: str | None = None) -> dict:
    return max((e for e in _entries() if e["gpu"] == gpu and e["format"] == fmt and e["kind"] == kind
                and e["training"] == training and e["source"] != left_out), key=lambda e: e["mfu"])


def _scenario(**keys: object):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", **keys})


@pytest.mark.parametrize(("keys", "frozen"), [
    ({}, False),
    ({"method": "lora"}, True),
    ({"method": "qlora"}, True),  # the same frozen base as LoRA, dequantized on the fly
    ({"method": "freeze", "frozen_layers": 30}, True),
    ({"method": "freeze", "frozen_layers": 1, "freeze_from": "top"}, True),  # one frozen layer is enough
    ({"method": "freeze", "frozen_layers": 0}, False),  # every decoder layer trained: a full step
])
def test_a_step_with_frozen_weights_is_of_the_frozen_kind(keys, frozen):
    """The training kind follows the share of weights that get a gradient (engine/timing/mfu.py gradient_shares,
    the MFU numerator's own rule): any frozen weight takes the step out of full training, since its frozen layers run
    no weight-gradient GEMMs, optimizer or gradient reduction, as a LoRA step's base does."""
    s = _scenario(**keys)
    assert frozen_weights(s, resolve_model(s)) is frozen


def test_the_fallback_order_holds_a_plan_first_to_kinds_that_bound_it_from_above():
    """Each kind: its own runs; then the kinds at least as fast on both axes (dense over MoE: larger GEMMs, no
    all-to-all; frozen over full: no weight-gradient GEMMs, optimizer or reduction for the frozen weights); then the
    rest; one axis changed before two, the training method before the model."""
    assert FALLBACK[(DENSE, FULL)] == ((DENSE, FULL), (DENSE, FROZEN), (MOE, FULL), (MOE, FROZEN))
    assert FALLBACK[(MOE, FULL)] == ((MOE, FULL), (MOE, FROZEN), (DENSE, FULL), (DENSE, FROZEN))
    assert FALLBACK[(DENSE, FROZEN)] == ((DENSE, FROZEN), (DENSE, FULL), (MOE, FROZEN), (MOE, FULL))
    assert FALLBACK[(MOE, FROZEN)] == ((MOE, FROZEN), (DENSE, FROZEN), (MOE, FULL), (DENSE, FULL))


def test_full_training_is_held_to_full_training_runs_and_adapters_to_adapter_runs():
    """H100 bf16: a LoRA run (dgxc's Llama 3 8B, 0.657) no longer holds full training; dgxc's own full SFT (0.646)
    does. With dgxc left out (its rows cross-validated), full training is held to Megatron-LM's 0.4945 and LoRA to
    Automodel's 0.474, not to each other's."""
    full = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
    lora = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", frozen=True)
    assert full is not None and full.row == _best("h100-sxm-80gb", "bf16", DENSE, FULL)["row"]
    assert lora is not None and lora.row == _best("h100-sxm-80gb", "bf16", DENSE, FROZEN)["row"]
    assert "-sft-" in full.row and "-lora-" in lora.row and full.measured < lora.measured
    with leave_out("NVIDIA/dgxc-benchmarking"):
        full = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
        lora = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", frozen=True)
    assert full is not None and full.source == "NVIDIA/Megatron-LM" and full.mfu == pytest.approx(0.4945 * 1.1)
    assert lora is not None and lora.source == "NVIDIA-NeMo/Automodel" and lora.mfu == pytest.approx(0.4739 * 1.1)


def test_without_a_run_of_its_training_kind_a_plan_takes_the_other_kind_of_its_model():
    """B200 bf16 has no dense run at all and no frozen-weights run: a dense LoRA plan there is held, like a dense full
    one, to the nearest runs there are; on Blackwell fp8 a LoRA plan with Megatron-Bridge (the only Blackwell LoRA
    source) left out is held to dense full training (the same model kind) before any frozen MoE run."""
    assert mfu_ceiling("b200", "blackwell", "bf16", frozen=True) == mfu_ceiling("b200", "blackwell", "bf16")
    with leave_out("NVIDIA-NeMo/Megatron-Bridge"):
        lora = mfu_ceiling("gb300", "blackwell", "fp8", frozen=True)
        full = mfu_ceiling("gb300", "blackwell", "fp8")
    assert lora is not None and lora == full
    entries = {e["row"]: e for e in _entries()}
    assert entries[lora.row]["kind"] == DENSE and entries[lora.row]["training"] == FULL


def test_every_published_row_is_held_to_its_training_kind_where_one_is_at_hand():
    """Checked on every published row with its own source left out, as the accuracy report does: a row of one
    training kind is held to a run of the other only where no run of its own kind (and model kind) is on its GPU or
    architecture; the LoRA and QLoRA rows set and meet the frozen kind's ceilings."""
    entries = {e["row"]: e for e in _entries()}
    held_to_frozen = 0
    for row in load_rows():
        s = scenario_from_dict(row["scenario"])
        hw, spec, fmt = hardware_for(s), resolve_model(s), mfu_format(s)
        training = FROZEN if frozen_weights(s, spec) else FULL
        with leave_out(source_of(row)):
            ceiling = mfu_ceiling(hw.gpu_id, hw.arch, fmt, spec.is_moe, training == FROZEN)
        if ceiling is None:
            continue
        if entries[ceiling.row]["training"] != training:
            own = [e for e in entries.values() if e["format"] == fmt and e["source"] != source_of(row)
                   and e["training"] == training and e["kind"] == (MOE if spec.is_moe else DENSE)
                   and (e["gpu"] == hw.gpu_id or e["arch"] == hw.arch != "default")]
            assert not own, (row["id"], ceiling.row)
        held_to_frozen += training == FROZEN == entries[ceiling.row]["training"]
    assert held_to_frozen > 0
