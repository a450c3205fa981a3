"""Grace's host against a DGX H100's, as Megatron-LM's own CI measures it (presets/host_overhead.json host_speed,
engine/timing/host.py _module_seconds; tests/data/megatron_ci_iteration_time.json, benchmarks/megatron_ci_host_ratio.py).

NVIDIA/Megatron-LM runs the same functional tests on DGX H100 and DGX GB200 and keeps each platform's iteration time
(golden values at 2edffadb, the commit NeMo 26.04.01's Megatron-Bridge v0.4.2 pins). The 76 cases with a model at
most 1,024 wide are host-bound; their GB200 / H100 ratio has a median of 1.54 (quartiles 1.43-1.67). A Megatron
step's host work is mostly Transformer Engine and Megatron module calls, so the factor applies to them as well as to
the launches and Python calls: the time model's own GB200 / H100 step ratio for such a test case then falls inside
the CI's quartiles, where with the factor on launches and calls only (module calls unscaled) it came to 1.2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.scenario import scenario_from_dict
from engine.timing.host import LayerWork, exposed_host_seconds, host_figures
from engine.timing.model import step_time
from engine.timing.te_module_host import te_module_calls

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from megatron_ci_host_ratio import stored, summary  # noqa: E402

CI = summary(stored()["tests"])
# Megatron-LM tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp1_pp1_resume_torch_dist_dist_optimizer/
# model_config.yaml at 2edffadb: 12 layers, hidden 512, 8 heads, micro-batch 4, global batch 32, 1,024 tokens,
# TP 1, PP 1, bf16, Transformer Engine, 8 GPUs (one DGX H100; two GB200 trays of four). GPT's MLP is 4 x hidden;
# the GPT-2 BPE vocabulary (50,257) padded to 50,304.
GPT_TINY = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 12, "num_attention_heads": 8,
            "num_key_value_heads": 8, "intermediate_size": 2048, "vocab_size": 50304,
            "max_position_embeddings": 1024, "tie_word_embeddings": False}


def _ci_case(gpu: str, gpus_per_node: int, nodes: int):
    return scenario_from_dict({"model": {"name": "megatron-ci-gpt", "hf_config": GPT_TINY}, "gpu": gpu,
                               "gpus_per_node": gpus_per_node, "nodes": nodes, "framework": "megatron",
                               "precision": "mixed-bf16", "micro_batch": 4, "grad_accum": 1, "seq_len": 1024,
                               "tp": 1, "pp": 1, "zero_stage": 1, "cuda_graphs": "none"})


def test_the_ci_median_is_the_grace_factor():
    assert CI["tests"] == 76
    assert CI["median"] == pytest.approx(1.54, abs=0.005)
    assert CI["q1"] < CI["median"] < CI["q3"]
    factor = host_figures()["host_speed"]["factor"]
    assert factor["gb200"] == factor["gb300"] == pytest.approx(CI["median"], abs=0.005)


def test_module_calls_take_the_host_factor():
    """A dense Megatron layer's host work (its launches and its Transformer Engine / Megatron module calls, te_modules)
    is the DGX's times the Grace factor on GB200, all of it: with no GPU work to hide behind, the host seconds per
    micro-batch scale by exactly the factor (a dense layer has no synchronisation, the one unscaled part)."""
    table = host_figures()["te_modules"]
    h100, gb200 = _ci_case("h100-sxm-80gb", 8, 1), _ci_case("gb200", 4, 2)
    assert te_module_calls(h100, True, False, frozenset(), table) == te_module_calls(gb200, True, False, frozenset(),
                                                                                     table)
    idle = (LayerWork(12, False, 0.0, 1e-12, False),)  # 12 layers, no GPU time (a backward that runs)
    on_xeon, on_grace = exposed_host_seconds(h100, True, idle, 0.0), exposed_host_seconds(gb200, True, idle, 0.0)
    assert on_xeon > 0.0
    assert on_grace / on_xeon == pytest.approx(host_figures()["host_speed"]["factor"]["gb200"], rel=1e-9)


def test_the_models_step_ratio_on_a_ci_case_is_inside_the_ci_quartiles():
    """The time model's GB200 / DGX H100 step ratio for the CI's 12-layer hidden-512 GPT (host-bound in the model
    too) lands between the CI's quartiles of the measured ratio (this case itself measured 1.60)."""
    h100, gb200 = step_time(_ci_case("h100-sxm-80gb", 8, 1)), step_time(_ci_case("gb200", 4, 2))
    assert h100.breakdown_seconds["host"] > 0.5 * h100.step_seconds  # host-bound
    ratio = gb200.step_seconds / h100.step_seconds
    assert CI["q1"] <= ratio <= CI["q3"]
    case = next(t for t in stored()["tests"] if t["test"] == "gpt/gpt3_mcore_te_tp1_pp1_resume_torch_dist_dist_optimizer")
    assert case["gb200_seconds"] / case["h100_seconds"] == pytest.approx(1.60, abs=0.01)
