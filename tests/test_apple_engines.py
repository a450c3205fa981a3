"""vLLM / SGLang on an Apple silicon GPU (user audit 5: vLLM on an M4 Max was estimated FITS with CUDA graphs).
vLLM's macOS build is CPU-only (vllm-project/vllm docs/getting_started/installation/cpu.apple.inc.md: "On macOS the
VLLM_TARGET_DEVICE is automatically set to cpu, which is currently the only supported device"); SGLang's Apple path
runs on MLX (docs.sglang.io hardware-platforms/apple_metal): the CUDA engine the planner models does not start."""

import pytest

from engine import scenario_from_dict
from engine.serving import REFUSED
from engine.serving.scenario_estimate import serving_memory

MAC = {"model": "llama-3.1-8b", "gpu": "apple-m4-max-128gb", "workload": "inference", "max_model_len": 8192}


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_a_cuda_engine_on_an_apple_gpu_is_refused_in_one_sentence(engine: str) -> None:
    m = serving_memory(scenario_from_dict({**MAC, "serving_engine": engine}))
    assert m.verdict == REFUSED
    text = str(m.reason)
    assert "does not run on an Apple silicon GPU" in text and "choose MLX or llama.cpp" in text
    assert m.kv_tokens == 0 and all(c.key != "kv_cache" for c in m.components)  # no pool is ever allocated


@pytest.mark.parametrize("engine", ["mlx", "llama.cpp"])
def test_the_engines_that_run_on_a_mac_are_still_estimated(engine: str) -> None:
    m = serving_memory(scenario_from_dict({**MAC, "serving_engine": engine}))
    assert m.verdict != REFUSED and "Apple silicon" not in str(m.reason)


def test_vllm_on_an_nvidia_card_is_untouched() -> None:
    m = serving_memory(scenario_from_dict({**MAC, "gpu": "h100-sxm-80gb", "serving_engine": "vllm"}))
    assert m.verdict != REFUSED and m.kv_tokens > 0
