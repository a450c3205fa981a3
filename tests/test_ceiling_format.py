"""fp16 and bf16 share an MFU ceiling where a GPU's dense peaks of the two are one figure (engine/timing/ceiling.py
ceiling_format): the peaks are presets/gpus.json's, each with its source there."""

from engine.models.presets import get_gpu
from engine.timing.ceiling import ceiling_format, mfu_ceiling


def test_fp16_is_filed_with_bf16_where_the_tensor_cores_run_both_at_one_rate() -> None:
    for gpu in ("a100-80gb", "h100-sxm-80gb", "b200", "mi300x"):
        peaks = dict(get_gpu(gpu).dense_peak_tflops)
        assert peaks["fp16"] == peaks["bf16"]  # the premise, from the preset
        assert ceiling_format(gpu, "fp16") == "bf16"
    assert ceiling_format("a100-80gb", "fp8") == "fp8" and ceiling_format("a100-80gb", "bf16") == "bf16"


def test_fp16_stays_apart_where_its_rate_differs_or_bf16_is_missing() -> None:
    assert ceiling_format("gaudi3", "fp16") == "fp16"  # 459 against 1,677 TFLOP/s
    assert ceiling_format("v100-32gb", "fp16") == "fp16"  # no bf16


def test_an_fp16_plan_on_an_a100_is_held_by_the_bf16_runs() -> None:
    fp16, bf16 = mfu_ceiling("a100-80gb", "default", "fp16"), mfu_ceiling("a100-80gb", "default", "bf16")
    assert fp16 is not None and bf16 is not None
    assert fp16 == bf16
