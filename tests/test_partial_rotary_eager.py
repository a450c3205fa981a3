"""transformers' eager rotary embedding of a partial-rotary model (h-review21 found, not fixed, item a): PhiAttention /
GPTNeoXAttention slice each query and key head into the rotated share f and the rest, run apply_rotary_pos_emb on the
share alone and torch.cat the two (huggingface/transformers at 5dd4a635 models/phi/modeling_phi.py, at 006bd23d
models/gpt_neox/modeling_gpt_neox.py). The eager row's qk (20 bytes per unit of the q and k widths: q * cos 2 + 2,
the negated half 1 + 1, rotate_half's cat 2 + 2, * sin 2 + 2, the sum 2 + 2 + 2) runs over f of them, and the cat
reads 2 f + 2 (1 - f) and writes 2: 20 f + 4 (presets/efficiency.json eager qk_pass)."""

import dataclasses

import pytest

from engine.models.presets import get_model_preset
from engine.timing.costs import elementwise_bytes_per_token
from engine.timing.data import efficiency
from engine.timing.eager_ops import rotated_share


def _row(name: str) -> dict:
    return {k: v for k, v in efficiency()["elementwise_bytes_per_token"][name].items() if not k.startswith("_")}


@pytest.mark.parametrize("model", ["qwen3.5-9b", "pythia-12b", "phi-2"])
def test_the_eager_rows_rotary_bytes_run_over_the_rotated_share_plus_the_cat(model):
    spec = get_model_preset(model).spec
    f = spec.rotary_fraction
    assert f < 1  # Qwen3.5 and Pythia 0.25, Phi-2 0.4 (their config.json partial_rotary_factor / rotary_pct)
    whole = dataclasses.replace(spec, rotary_fraction=1.0)
    eager = _row("eager")
    assert rotated_share(spec, eager) == f and rotated_share(whole, eager) == 1.0
    units = spec.q_dim + spec.kv_dim  # TP 1: the q and k widths
    moved = elementwise_bytes_per_token(spec, False, 1, False, eager) - elementwise_bytes_per_token(
        whole, False, 1, False, eager)
    assert moved == pytest.approx(units * ((20 * f + 4) - 20))


def test_rows_whose_rotary_code_rotates_or_copies_whole_heads_are_unchanged():
    # torchtune's and Transformer Engine's rotary code state no qk_pass: their count stays at the whole head width
    spec = get_model_preset("qwen3.5-9b").spec
    whole = dataclasses.replace(spec, rotary_fraction=1.0)
    for name in ("torchtune", "te-modules", "aleph-alpha-scaling"):
        row = _row(name)
        assert rotated_share(spec, row) == 1.0
        assert elementwise_bytes_per_token(spec, False, 1, False, row) == elementwise_bytes_per_token(
            whole, False, 1, False, row)
