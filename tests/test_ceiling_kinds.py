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
from engine.timing.ceiling import (
    CEILINGS_FILE,
    DENSE,
    FALLBACK,
    FROZEN,
    FULL,
    MOE,
    POOLED_SOURCES,
    frozen_weights,
    leave_out,
    mfu_ceiling,
)
from engine.timing.hardware import hardware_for
from engine.timing.mfu import mfu_format


def _entries() -> list[dict]:
    return json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["best_by_source"]


def _margin() -> float:
    return float(json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["margin"])


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
    """A frozen-weights plan takes the best of its model's frozen-weights and full-training runs (what full training
    reached is within an adapter step's reach: the same forward and activation-gradient GEMMs, less work for the
    frozen weights), a full-training plan its own kind's runs; then the kinds that bound it from above (dense over
    MoE: larger GEMMs, no all-to-all; frozen-weights runs over full training), then the rest."""
    assert FALLBACK[(DENSE, FULL)] == (((DENSE, FULL),), ((DENSE, FROZEN),), ((MOE, FULL),), ((MOE, FROZEN),))
    assert FALLBACK[(MOE, FULL)] == (((MOE, FULL),), ((MOE, FROZEN),), ((DENSE, FULL),), ((DENSE, FROZEN),))
    assert FALLBACK[(DENSE, FROZEN)] == (((DENSE, FROZEN), (DENSE, FULL)), ((MOE, FROZEN), (MOE, FULL)))
    assert FALLBACK[(MOE, FROZEN)] == (((MOE, FROZEN), (MOE, FULL)), ((DENSE, FROZEN), (DENSE, FULL)))


def test_full_training_is_held_to_full_training_runs_and_adapters_to_the_best_of_both():
    """H100 bf16: a LoRA run (dgxc's Llama 3 8B, 0.545) does not hold full training; dgxc 25.04.02's full
    pre-training of Llama 3.1 8B (0.6255) does, and, being the better of the two, a LoRA plan too. (dgxc 25.02.02's
    packed SQuAD rows had measured 0.657 LoRA and 0.646 SFT counted over whole 4,096-token rows; counted over their
    171-token samples, packed_sequence_tokens, they are 0.545 and 0.569.) With dgxc left out (its rows
    cross-validated), both are held to Megatron-LM's full-training 0.4945, above Automodel's LoRA 0.474. On A100 80GB
    in bf16 the one LoRA run (torchtune's 3B, 0.449) is below torchtune's full 3B (0.691), which holds a LoRA plan
    there."""
    full = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
    lora = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", frozen=True)
    assert full is not None and full.row == _best("h100-sxm-80gb", "bf16", DENSE, FULL)["row"]
    assert full.row == "dgxc-25.04.02-llama-3-1-8b-bf16-h100-sxm-80gb-8-gbs128"
    assert lora == full and _best("h100-sxm-80gb", "bf16", DENSE, FROZEN)["mfu"] < full.measured
    with leave_out("NVIDIA/dgxc-benchmarking"):
        full = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
        lora = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", frozen=True)
    assert full is not None and full.source == "NVIDIA/Megatron-LM" and full.mfu == pytest.approx(0.4945 * (1 + _margin()))
    assert lora == full and _best("h100-sxm-80gb", "bf16", DENSE, FROZEN, "NVIDIA/dgxc-benchmarking")["mfu"] < 0.4945
    a100 = mfu_ceiling("a100-80gb", "default", "bf16", frozen=True)
    assert a100 is not None and a100.row == "torchtune-3b-chunked-ce"
    assert _best("a100-80gb", "bf16", DENSE, FROZEN)["mfu"] < a100.measured


def test_where_no_frozen_weights_run_is_at_hand_a_lora_plan_is_held_like_a_full_one():
    """Blackwell fp8 dense has full-training runs of several sources and LoRA runs of Megatron-Bridge alone: on GB300
    with Megatron-Bridge left out a LoRA plan is held like a full one (to the other sources' full training). B200 bf16
    has no dense run of its own: a dense plan of either training kind is held to Blackwell's dense runs (its
    architecture's), before the MoE runs on B200 itself."""
    with leave_out("NVIDIA-NeMo/Megatron-Bridge"):
        lora = mfu_ceiling("gb300", "blackwell", "fp8", frozen=True)
        full = mfu_ceiling("gb300", "blackwell", "fp8")
    assert lora is not None and lora == full
    entries = {e["row"]: e for e in _entries()}
    assert entries[lora.row]["kind"] == DENSE and entries[lora.row]["training"] == FULL
    b200 = mfu_ceiling("b200", "blackwell", "bf16", frozen=True)
    assert b200 == mfu_ceiling("b200", "blackwell", "bf16") and b200 is not None
    assert entries[b200.row]["kind"] == DENSE and entries[b200.row]["gpu"] != "b200"


def test_every_published_row_is_held_to_its_kinds_where_one_is_at_hand():
    """Checked on every published row with its own source left out, as the accuracy report does: a full-training row
    is held to a frozen-weights run only where full-training runs of its model kind on its GPU or architecture come
    from fewer than two sources (ceiling.POOLED_SOURCES: such a group is pooled with the next kinds' runs); a
    frozen-weights row is held to a run of its own model kind wherever two sources' are at hand, of either training
    kind."""
    entries = {e["row"]: e for e in _entries()}
    frozen_rows = 0
    for row in load_rows():
        s = scenario_from_dict(row["scenario"])
        hw, spec, fmt = hardware_for(s), resolve_model(s), mfu_format(s)
        training, model = FROZEN if frozen_weights(s, spec) else FULL, MOE if spec.is_moe else DENSE
        with leave_out(source_of(row)):
            ceiling = mfu_ceiling(hw.gpu_id, hw.arch, fmt, spec.is_moe, training == FROZEN)
        if ceiling is None:
            continue
        held = entries[ceiling.row]
        own = [e for e in entries.values() if e["format"] == fmt and e["source"] != source_of(row)
               and e["kind"] == model and e["training"] in (training, FULL)
               and (e["gpu"] == hw.gpu_id or e["arch"] == hw.arch != "default")]
        if (held["kind"], held["training"]) not in ((model, training), (model, FULL)):
            assert len({e["source"] for e in own}) < POOLED_SOURCES, (row["id"], ceiling.row)
        frozen_rows += training == FROZEN
    assert frozen_rows == 28  # 27 LoRA rows and torchtune's QLoRA row (tests/data/published)


def test_a_sibling_gpus_run_is_carried_over_at_the_two_gpus_rate_shares():
    """A ceiling borrowed from another GPU of the architecture is that run's MFU times the ratio of the two GPUs' rate
    shares (engine/timing/hardware.py rate_share: short-run matmul fraction x sustained clock share, both from
    presets/efficiency.json). With NVIDIA-NeMo/Megatron-Bridge left out no GB300 dense fp8 run remains (MLPerf's set
    no ceiling), so GB300 takes the best Blackwell run carried over: NVIDIA/NeMo's Llama 3 70B fp8 on 64 GB200 (MFU
    0.3885; 0.723 x 0.804) carried to GB300 (0.745 x 1.0), 0.498, beats NeMo's GPT-3 175B on 512 B200 (0.3828; B200
    fp8 0.763 x 0.768), 0.487. Before GB200's share came from Azure's random-data FP8 GEMMs (0.804; it was gpu-fryer's
    BF16 figure, 0.851; h-blackwell) the B200 run had been the one carried (0.487 against 0.470), and before B200's
    share came from sustained GEMMs (Tilebench, 0.768; it was flashinfer's attention figure, 0.853) the GB200 run
    (0.470 against 0.438)."""
    from engine.timing.data import efficiency
    from engine.timing.hardware import rate_share

    eff = efficiency()
    b200 = eff["fp8_matmul_fraction_of_peak"]["b200"] * eff["sustained_compute_fraction"]["b200"]
    gb200 = eff["fp8_matmul_fraction_of_peak"]["gb200"] * eff["sustained_compute_fraction"]["gb200"]
    gb300 = eff["fp8_matmul_fraction_of_peak"]["gb300"] * eff["sustained_compute_fraction"].get("gb300", 1.0)
    assert rate_share("b200", "fp8") == pytest.approx(b200)
    assert rate_share("gb200", "fp8") == pytest.approx(gb200)
    assert rate_share("gb300", "fp8") == pytest.approx(gb300)
    left_out = "NVIDIA-NeMo/Megatron-Bridge"
    nemo_gb200 = _best("gb200", "fp8", DENSE, FULL, left_out=left_out)
    nemo_b200 = _best("b200", "fp8", DENSE, FULL, left_out=left_out)
    assert nemo_gb200["row"] == "nemo-25.04-llama3-70b-dgx-gb200-fp8-64"
    assert nemo_b200["row"] == "nemo-25.02-gpt3-175b-dgx-b200-fp8-512"
    assert nemo_gb200["mfu"] * gb300 / gb200 > nemo_b200["mfu"] * gb300 / b200
    with leave_out(left_out):
        carried = mfu_ceiling("gb300", "blackwell", "fp8")
    assert carried is not None and carried.row == nemo_gb200["row"]
    assert carried.measured == pytest.approx(nemo_gb200["mfu"] * gb300 / gb200)
    assert carried.mfu == pytest.approx(carried.measured * (1 + _margin()))


def test_a_gpus_own_runs_are_not_rescaled():
    """On the run's own GPU the ratio is 1: the ceiling is the best run's MFU itself, bit for bit (H100 SXM bf16 dense
    full training: NVIDIA/dgxc-benchmarking's full SFT of Llama 3 8B, above)."""
    ceiling = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
    best = max((e for e in _entries() if e["gpu"] == "h100-sxm-80gb" and e["format"] == "bf16" and e["kind"] == DENSE
                and e["training"] == FULL), key=lambda e: e["mfu"])
    assert ceiling is not None and ceiling.measured == best["mfu"]
