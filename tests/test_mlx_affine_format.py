"""MLX's affine weight formats (h-presets20): mlx-lm quantizes every nn.Linear and nn.Embedding in groups of 64 with
one scale and one bias each, both in the weights' 16-bit dtype (presets/weight_formats.json mlx_affine: mlx-lm@d78bf58e
mlx_lm/utils.py quantize_model, mlx.core.quantize's table 'affine | 32, 64*, 128 | ... | same as input | yes'), and only
MLX reads them."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.errors import ConsistencyError
from engine.models.presets import model_spec_for
from engine.models.weight_formats import format_engines
from engine.serving.weights import VOCAB_PADDING, embedding_bits, shard

BASE = {"model": "llama-3.3-70b", "gpu": "apple-m3-max-128gb", "workload": "inference", "serving_engine": "mlx",
        "max_model_len": 4096}


@pytest.mark.parametrize(("format_name", "bits"), [("mlx-4bit", 4), ("mlx-6bit", 6), ("mlx-8bit", 8)])
def test_every_matrix_and_the_embeddings_take_the_bits_and_a_scale_and_bias_per_64(format_name, bits):
    spec = model_spec_for("llama-3.3-70b")
    per_weight = bits + 2 * 16 / 64  # a 16-bit scale and a 16-bit bias per group of 64
    assert embedding_bits(spec, format_name) == (per_weight, per_weight)
    weights = shard(spec, format_name)
    vocab = -(-spec.vocab // VOCAB_PADDING) * VOCAB_PADDING
    assert weights.embeddings == pytest.approx(vocab * spec.hidden * per_weight / 8)
    assert weights.lm_head == pytest.approx(vocab * spec.hidden * per_weight / 8)  # Llama 3.3 70B: untied head
    matrices = sum(lin.d_in * lin.d_out for lin in spec.layer_linears(False, False)) * spec.layers
    assert weights.layers == pytest.approx(matrices * per_weight / 8)


def test_only_mlx_reads_them():
    engines = format_engines()
    assert engines["mlx-4bit"] == engines["mlx-6bit"] == engines["mlx-8bit"] == ("mlx",)
    assert "awq-int4" not in engines and "checkpoint" not in engines  # any engine that reads its kind loads them
    for engine in ("llama.cpp", "vllm", "sglang", "transformers"):
        with pytest.raises(ConsistencyError, match="mlx"):
            scenario_from_dict({**BASE, "serving_engine": engine, "weight_format": "mlx-6bit"})
    assert scenario_from_dict({**BASE, "weight_format": "mlx-4bit"}).weight_format == "mlx-4bit"
