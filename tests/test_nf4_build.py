"""torchao NF4 weights built at init (torchtune QLoRA): the load peak and its reserved twin (issue 24, item 6)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_memory import estimated_metric
from engine.frameworks.allocator import GAP_STATIC
from engine.memory.nf4_build import nf4_build_bytes, nf4_clone_bytes
from engine.memory.states import quantized_bytes_per_param

# Bytes besides the source weight printed by validation/nf4_build_measure.py (torchao 0.5.0's own code on the CPU,
# every storage tracked with CUDA's 512-byte rounding; the figures are in that script's docstring).
MEASURED_TO_NF4 = {(14336, 4096): 246030336, (4096, 4096): 118230016, (1024, 4096): 79889920,
                   (11008, 4096): 204495360, (8192, 28672): 950563840}
MEASURED_CLONE = {(14336, 4096): 823918592, (4096, 4096): 235405312, (1024, 4096): 88278528}
# Llama 3.1 8B (meta-llama/Llama-3.1-8B config.json): hidden 4096, intermediate 14336, 8 KV heads of 128,
# vocabulary 128256
MLP = 14336 * 4096
EMBED = 128256 * 4096
LAYER_PARAMS = 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * MLP
# LoRA rank 8 on q, k, v, o and the three MLP projections: rank x (in + out) each
LAYER_LORA = 8 * ((4096 + 4096) * 2 + (4096 + 1024) * 2 + (4096 + 14336) * 3)


@pytest.mark.parametrize("shape", sorted(MEASURED_TO_NF4))
def test_nf4_build_matches_torchao(shape):
    n = shape[0] * shape[1]
    assert nf4_build_bytes(n, 2) - 2 * n == pytest.approx(MEASURED_TO_NF4[shape], rel=1e-3)


@pytest.mark.parametrize("shape", sorted(MEASURED_CLONE))
def test_nf4_clone_matches_torchtune(shape):
    n = shape[0] * shape[1]
    assert nf4_clone_bytes(n, 2) == pytest.approx(MEASURED_CLONE[shape], rel=1e-3)


def _qlora(framework, **kw):
    return estimate(scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "precision": "bf16",
                                        "method": "qlora", "lora_rank": 8, "lora_adapter_dtype": "compute",
                                        "lora_targets": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj",
                                                         "up_proj", "down_proj"],
                                        "seq_len": 2048, "framework": framework, **kw}))


def test_torchtune_builds_the_largest_linear_not_the_embedding():
    # same weights; bitsandbytes' path (huggingface) keeps its one 16-bit copy of the largest weight (here the
    # embedding), torchao's the NF4 build of the largest linear (the MLP's)
    tune, hf = _qlora("torchtune"), _qlora("huggingface")
    assert tune.load_gpu_bytes - hf.load_gpu_bytes == pytest.approx(nf4_build_bytes(MLP, 2) - 2 * EMBED)
    assert "NF4 build" in tune.load_formula and "reserved" in tune.load_formula


def test_cloned_layers_keep_the_template_and_the_clone_transient():
    cloned, current = _qlora("torchtune", cloned_layers=True), _qlora("torchtune")
    layer = LAYER_PARAMS * quantized_bytes_per_param(4, True) + LAYER_LORA * 2
    assert cloned.load_gpu_bytes - current.load_gpu_bytes == pytest.approx(
        layer + nf4_clone_bytes(MLP, 2) - nf4_build_bytes(MLP, 2))


def test_reserved_is_at_least_the_init_peak():
    # torchtune's recipe never empties the cache after building the model: the reserved figure it reports is the
    # larger of the step's and the init's (Estimate.peak_reserved_bytes)
    est = _qlora("torchtune", cloned_layers=True)
    init_reserved = estimated_metric(est, "reserved-at-init")
    assert init_reserved == est.load_gpu_bytes * (1 + GAP_STATIC)
    assert est.peak_reserved_bytes == max(est.step_reserved_bytes, init_reserved)


def test_other_frameworks_keep_their_load():
    hf = _qlora("huggingface")
    assert "one 16-bit weight being quantised" in hf.load_formula
    assert _qlora("huggingface", cloned_layers=True).load_gpu_bytes == hf.load_gpu_bytes
