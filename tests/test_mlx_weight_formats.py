"""A Mac user serving with MLX (user audit 11) found no format for mlx-community's files: "int4" was refused and
the choices were vLLM's and GGUF's. mlx_lm.convert -q quantizes with mlx-lm's quantize_model (ml-explore/mlx-lm@d78bf58e
mlx_lm/utils.py lines 818-893): affine mode, group 64, 4 bits by default, every module with to_quantized whose last
dimension divides by 64; ml-explore/mlx@0154acf1 python/mlx/nn/layers/quantized.py quantize(): Linear AND Embedding
layers; mlx.core.quantize's table: one scale and one bias per group in the input's dtype (bf16). So a weight costs
4 + 2 x 16 / 64 = 4.5 bits (8.5 at 8 bits), the token embeddings and lm_head included; norms stay bf16."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.errors import ConsistencyError
from engine.scenario import resolve_model
from engine.serving.weights import embedding_bits, stage_shards

MAC = {"model": "llama-3.1-8b", "gpu": "apple-m4-max-64gb", "workload": "inference", "serving_engine": "mlx",
       "max_model_len": 8192}


@pytest.mark.parametrize(("fmt", "bits"), [("mlx-4bit", 4.5), ("mlx-8bit", 8.5)])
def test_every_matrix_and_the_embeddings_take_the_formats_bits(fmt: str, bits: float) -> None:
    spec = resolve_model(scenario_from_dict({**MAC, "weight_format": fmt}))
    assert embedding_bits(spec, fmt) == (bits, bits)
    # Llama 3.1 8B (its config.json): 8,030,261,248 weights, of which 32 x 2 + 1 RMSNorm vectors of 4,096 stay bf16;
    # every other dimension divides by 64 (the vocabulary 128,256 too, so no padding)
    assert spec.total_params == 8_030_261_248
    norms = (32 * 2 + 1) * 4096
    expected = (spec.total_params - norms) * bits / 8 + norms * 2
    assert stage_shards(spec, fmt)[0].total == pytest.approx(expected, rel=1e-9)


def test_the_format_is_mlx_lms_alone() -> None:
    with pytest.raises(ConsistencyError, match="mlx-4bit is loaded by mlx, not vllm"):
        scenario_from_dict({**MAC, "gpu": "h100-sxm-80gb", "serving_engine": "vllm", "weight_format": "mlx-4bit"})


def test_the_serving_form_offers_it_under_mlx_only(qtbot, planner_home) -> None:
    from gui.serving_panel import ServingPanel
    from gui.state import AppState

    state = AppState(scenario_from_dict({**MAC, "weight_format": "mlx-4bit"}))
    panel = ServingPanel(state)
    qtbot.addWidget(panel)
    offered = [panel.weight_format.itemData(i) for i in range(panel.weight_format.count())]
    assert {"mlx-4bit", "mlx-8bit"} <= set(offered)
    panel._engine_chosen("vllm")  # the file is mlx-lm's: the checkpoint's own format follows the engine
    assert state.scenario.weight_format == "checkpoint"
    offered = [panel.weight_format.itemData(i) for i in range(panel.weight_format.count())]
    assert "mlx-4bit" not in offered
