"""NeMo's GPT-3 (5B, 20B, 175B) and Nemotron (Nemotron-3 8B and 22B, Nemotron-4 340B) presets against NeMo's own
sources: the GPT-3 totals are NeMo's size formula at the vocabulary NeMo pads, and the seven NeMo 24.07 runs built on
them give back the model TFLOP/s per GPU the table prints beside their tokens/s (NeMo's FLOPs count: the shapes hold).
"""

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.models.presets import model_spec_for
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.mfu import model_flops_per_token

GPT2_BPE_VOCAB = 50257  # the GPT-2 BPE vocabulary NeMo's GPT-3 configs tokenize with (GPT2BPETokenizer)
# preset -> (layers, hidden, TP of NeMo 24.07's published runs of it): NeMo-Framework-Launcher at tag 24.07,
# launcher_scripts/conf/training/gpt3/{5b,20b,175b}.yaml
GPT3 = {"nemo-gpt3-5b": (24, 4096, 1), "nemo-gpt3-20b": (44, 6144, 2), "nemo-gpt3-175b": (96, 12288, 4)}
NEMO_2407_RUNS = ("nemo-24.07-gpt3-5b-pretrain-h100-fp8-64", "nemo-24.07-gpt3-20b-pretrain-h100-fp8-64",
                  "nemo-24.07-gpt3-175b-pretrain-h100-fp8-128", "nemo-24.07-gpt3-175b-pretrain-h100-fp8-512",
                  "nemo-24.07-nemotron-8b-pretrain-h100-fp8-64", "nemo-24.07-nemotron-22b-pretrain-h100-fp8-64",
                  "nemo-24.07-nemotron-340b-pretrain-h100-fp8-128")


def _padded(vocab: int, divisible_by: int, tp: int) -> int:
    """NeMo's get_vocab_size (NVIDIA/NeMo at 77c8e91d nemo/lightning/base.py lines 34-48): up to a multiple of
    make_vocab_size_divisible_by x tensor-parallel size."""
    multiple = divisible_by * tp
    return -(-vocab // multiple) * multiple


@pytest.mark.parametrize("preset", sorted(GPT3))
def test_gpt3_totals_are_nemos_size_formula(preset):
    """NeMo-Framework-Launcher 24.07 auto_configurator/autoconfig/utils.py _calculate_model_size (gpt3):
    12 L h^2 (1 + 13 / (12 h) + (V + S) / (12 L h)) counts the layers' weights and biases (13 h a layer: 4 + 1 + 4
    + 1 biases and two LayerNorms), the tied embedding and the learned positions; the final LayerNorm (2 h) is not in
    it. S = 2,048 and V padded as NeMo pads it for the runs' TP."""
    layers, hidden, tp = GPT3[preset]
    spec = model_spec_for(preset)
    vocab = _padded(GPT2_BPE_VOCAB, 128, tp)
    assert spec.vocab == vocab
    formula = 12 * layers * hidden**2 + 13 * layers * hidden + (vocab + 2048) * hidden
    assert spec.total_params == formula + 2 * hidden


def test_nemotron_layout_is_nemos():
    """nemotron_{8b,22b,340b}.yaml at launcher tag 24.07: bias false, squared-relu MLP (no gate), layernorm1p (a
    LayerNorm with a bias), untied embeddings, 256,000 pieces; Nemotron-4 340B with 8 query groups."""
    for preset in ("nemotron-3-8b", "nemotron-3-22b", "nemotron-4-340b"):
        spec = model_spec_for(preset)
        assert not (spec.qkv_bias or spec.o_bias or spec.mlp_bias or spec.mlp_gated or spec.tied_embeddings)
        assert spec.norm_style == "layernorm" and spec.norm_bias and spec.vocab == 256_000
    assert model_spec_for("nemotron-4-340b").kv_heads == 8 and model_spec_for("nemotron-3-8b").kv_heads == 32


def test_nemo_2407_runs_give_back_the_tables_tflops():
    """NeMo 24.07's performance_summary.md (77c8e91d) prints model TFLOP/s per GPU beside each run's tokens/s: with
    the presets' shapes, tokens/s x FLOPs per token (Megatron's count, attention not discounted for causality, as
    tests/test_long_context.py shows for this table) comes back to the printed figure within 0.1%."""
    rows = {r["id"]: r for r in load_rows()}
    for rid in NEMO_2407_RUNS:
        row = rows[rid]
        s = scenario_from_dict(row["scenario"])
        tflops = row["measured"] * model_flops_per_token(resolve_model(s), s.seq_len, causal=False) / 1e12
        assert tflops == pytest.approx(row["reported"]["model_tflops_per_gpu"], rel=0.001), rid
