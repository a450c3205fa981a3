"""Mamba-2 mixer layers and hybrid (Nemotron-H / Nemotron 3) stacks: parameter counts against the model card,
the saved activations of a Mamba-2 block hand-counted from the code, the SSD scan's work, and Megatron-Bridge's
FLOP count against its own published table."""

from __future__ import annotations

import json

import pytest
from conftest import REPO

from engine.errors import ModelConfigError
from engine.memory.mamba2_activations import mamba_block_saved_terms
from engine.models.hf_config import model_from_hf_config
from engine.models.mamba2 import block_kinds, hybrid_from_config, mixer_from_config
from engine.timing.hybrid_flops import bridge_mamba_forward_flops, bridge_training_flops_per_token
from engine.timing.ssd_scan import ssd_backward_flops_per_token, ssd_forward_flops_per_token

NANO = json.loads((REPO / "tests/data/hybrid_models/nemotron-3-nano-30b-a3b.json").read_text(encoding="utf-8"))
H, HEADS, P, N, G, K = 2688, 64, 64, 128, 8, 4  # the config's hidden, mamba heads, head dim, state, groups, kernel
# in_proj (hidden -> z, x, B, C, dt) and out_proj (d_inner -> hidden) forward FLOPs a token, by hand; the step model
# times the same two linears (tests/test_mamba_block_time.py)
GEMM_FLOPS = 2 * H * (2 * HEADS * P + 2 * G * N + HEADS) + 2 * HEADS * P * H


def test_the_pattern_gives_the_cards_block_counts():
    """Megatron-Bridge's model page: 23 Mamba-2 and 23 MoE layers, 6 attention layers (52 in all)."""
    kinds = block_kinds(NANO["hybrid_override_pattern"])
    assert (kinds.count("mamba"), kinds.count("moe"), kinds.count("attention"), len(kinds)) == (23, 23, 6, 52)


def test_mixer_tensors_follow_megatron_cores_mixer():
    """Each tensor's size written out from megatron/core/ssm/mamba_mixer.py (d98e8a64): in_proj to
    [z, x, B, C, dt] (line 284), conv1d over [x, B, C] with a bias (lines 321-336), dt_bias / A_log / D per head,
    the gated norm over d_inner, out_proj d_inner -> hidden."""
    mixer = mixer_from_config(NANO)
    d_inner = HEADS * P
    assert mixer.tensors() == {
        "in_proj.weight": H * (2 * d_inner + 2 * G * N + HEADS),
        "conv1d.weight": (d_inner + 2 * G * N) * K,
        "conv1d.bias": d_inner + 2 * G * N,
        "dt_bias": HEADS, "A_log": HEADS, "D": HEADS,
        "norm.weight": d_inner,
        "out_proj.weight": d_inner * H,
    }


def test_nano_parameter_counts_match_the_card():
    """NVIDIA: 31.6B total, 3.2B active, 3.6B active with embeddings. Each figure is checked to one unit of its last
    digit. The 3.2B basis is the active count without the input embedding (the output head's GEMM runs per token)."""
    spec = model_from_hf_config(NANO)  # one layer a block, each counted per tensor (engine/models/hybrid_blocks.py)
    assert abs(spec.total_params - 31.6e9) < 0.05e9
    assert abs(spec.active_params - 3.6e9) < 0.05e9
    assert abs(spec.active_params - spec.embedding_params - 3.2e9) < 0.05e9


def test_saved_bytes_per_token_hand_count():
    """bf16 at TP 1, written from the code: in_proj's LayerNormLinear keeps its input and output (2 x 2h bytes) and
    an fp32 rstd; the combined kernel keeps zxbcdt (2 W) and out_x (2 d_inner); the gated norm its input and G
    fp32 rstd; out_proj its input (2 d_inner)."""
    mixer = mixer_from_config(NANO)
    width, d_inner = 2 * HEADS * P + 2 * G * N + HEADS, HEADS * P
    expected = 2 * H + 2 * H + 4 + 2 * width + 2 * d_inner + 2 * d_inner + 4 * G + 2 * d_inner
    assert sum(mamba_block_saved_terms(mixer).values()) == expected
    # TP 2 halves every head- and group-wide tensor; the hidden-wide ones stay whole without sequence parallelism
    terms = mamba_block_saved_terms(mixer, tp=2)
    assert terms["zxbcdt"] == width and terms["in_proj norm input"] == 2 * H
    assert mamba_block_saved_terms(mixer, tp=2, sequence_parallel=True)["in_proj norm input"] == H


def test_tp_must_divide_heads_and_groups():
    with pytest.raises(ModelConfigError):
        mamba_block_saved_terms(mixer_from_config(NANO), tp=16)  # 8 groups cannot split 16 ways


def test_ssd_work_per_token():
    """arXiv:2405.21060 section 6's four steps at Q = 128: 2 Q N G + 2 Q P H + 4 N P H forward; the backward twice
    that plus C B^T and the chunk states recomputed."""
    mixer = mixer_from_config(NANO)
    q = 128
    forward = 2 * q * N * G + 2 * q * P * HEADS + 4 * N * P * HEADS
    assert ssd_forward_flops_per_token(mixer) == forward
    assert ssd_backward_flops_per_token(mixer) == 2 * forward + 2 * q * N * G + 2 * N * P * HEADS
    # the scan is a few percent of the mixer's GEMMs
    assert ssd_forward_flops_per_token(mixer) < 0.05 * GEMM_FLOPS


def test_bridge_count_reproduces_its_own_table():
    """Megatron-Bridge's docs/performance-summary-archive.md (067f987d), 26.06 container, Nemotron_3_Nano at 8,192
    tokens: DGX-H100 (16 GPUs) 14,719 tokens/s and 328 model TFLOP/s a GPU, DGX-B300 37,316 and 831, DGX-GB200
    33,522 and 747. The count a token must turn one into the other within the table's rounding of the TFLOP/s (0.5).
    26.06.01 DGX-GB200 34,816 and 776. (26.06.01's DGX-GB300 row, 40,960 tokens/s and 905 TFLOP/s, is 0.8% off its
    own ratio, the only one of the six: not used.)"""
    model = hybrid_from_config(NANO)
    per_token = bridge_training_flops_per_token(model, 8192)
    for tokens_per_s, tflops in ((14719, 328), (37316, 831), (33522, 747), (34816, 776)):
        assert per_token * tokens_per_s / 1e12 == pytest.approx(tflops, abs=0.5)
    # its Mamba term assumes d_in = 2 x hidden: more than the mixer's own GEMMs and scan for Nano
    mixer = model.mixer
    assert bridge_mamba_forward_flops(mixer) > GEMM_FLOPS + ssd_forward_flops_per_token(mixer)


@pytest.mark.parametrize("change", [{"hybrid_override_pattern": "MEX"}, {"hybrid_override_pattern": ""},
                                    {"moe_latent_size": 1024}, {"mamba_head_dim": 0}])
def test_configs_that_cannot_be_counted_are_refused(change):
    with pytest.raises(ModelConfigError):
        hybrid_from_config({**NANO, **change})
