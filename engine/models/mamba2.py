"""Mamba-2 mixer layers and the hybrid Mamba / attention / MLP / MoE stacks built of them (Nemotron-H, Nemotron 3).

A hybrid model's config.json (model_type nemotron_h) names one block a character in hybrid_override_pattern:
'M' a Mamba-2 mixer, '*' self-attention, '-' a plain MLP, 'E' a mixture of experts. Each block is one norm and one
mixer with its residual (Megatron-Core megatron/core/ssm/mamba_layer.py at NVIDIA/Megatron-LM d98e8a64: MambaLayer
= norm then mixer then the residual add), so a block is not a transformer layer (attention + MLP): the model spec
states such a stack one layer a block (ModelSpec.block_kinds, engine/models/hybrid_blocks.py). This module reads the
config and counts the Mamba-2 mixer per tensor.

The Mamba-2 mixer's tensors, as Megatron-Core builds them (megatron/core/ssm/mamba_mixer.py at d98e8a64, lines
281-420): in_proj packs [z, x, B, C, dt] into one column-parallel linear of width 2 d_inner + 2 G N + H (line 284);
a depthwise conv1d over [x, B, C] (conv_dim = d_inner + 2 G N) with kernel d_conv and a bias (conv_bias is asserted,
line 277); dt_bias, A_log and D one value per head (D per head unless D_has_hdim); a gated RMSNorm over d_inner;
out_proj a row-parallel linear d_inner -> hidden, no biases (bias is asserted False, line 276). d_inner is
mamba_num_heads x mamba_head_dim when the heads are stated (lines 246-248), else expand x hidden. transformers'
NemotronH mixer holds the same tensors (in_proj, conv1d, dt_bias, A_log, D, norm, out_proj), with the biases behind
use_bias / use_conv_bias.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ModelConfigError
from ..input_bounds import config_whole_number
from ..messages import QT_TRANSLATE_NOOP

BLOCK_KINDS = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}


@dataclass(frozen=True)
class Mamba2Mixer:
    """The shapes of one Mamba-2 mixer (arXiv:2405.21060 section 7: heads H of width P, state N, G groups of B/C)."""

    hidden: int
    heads: int  # H: mamba_num_heads
    head_dim: int  # P: mamba_head_dim
    state: int  # N: ssm_state_size
    groups: int  # G: n_groups (B and C are shared by the H / G heads of a group)
    conv_kernel: int = 4
    chunk: int = 128  # Q: the SSD kernel's chunk length (chunk_size)
    conv_bias: bool = True
    proj_bias: bool = False

    @property
    def d_inner(self) -> int:
        return self.heads * self.head_dim

    @property
    def conv_dim(self) -> int:
        """Channels the causal conv1d runs over: x, B and C."""
        return self.d_inner + 2 * self.groups * self.state

    @property
    def in_proj_width(self) -> int:
        """in_proj's output per token: z (d_inner), x (d_inner), B and C (G N each), dt (H)."""
        return 2 * self.d_inner + 2 * self.groups * self.state + self.heads

    def tensors(self) -> dict[str, int]:
        """Parameters of each tensor of the mixer, named as transformers names them."""
        out = {
            "in_proj.weight": self.hidden * self.in_proj_width,
            "conv1d.weight": self.conv_dim * self.conv_kernel,
            "dt_bias": self.heads,
            "A_log": self.heads,
            "D": self.heads,
            "norm.weight": self.d_inner,
            "out_proj.weight": self.d_inner * self.hidden,
        }
        if self.conv_bias:
            out["conv1d.bias"] = self.conv_dim
        if self.proj_bias:
            out["in_proj.bias"] = self.in_proj_width
            out["out_proj.bias"] = self.hidden
        return out

    @property
    def params(self) -> int:
        return sum(self.tensors().values())

    def check_tp(self, tp: int) -> None:
        """Megatron-Core splits heads and groups over tensor parallelism (mamba_mixer.py lines 262-271)."""
        if self.heads % tp or self.groups % tp:
            raise ModelConfigError(QT_TRANSLATE_NOOP(
                "engine", "Tensor parallelism {tp} must divide the Mamba heads ({heads}) and groups ({groups})."),
                tp=tp, heads=self.heads, groups=self.groups)


def _positive(cfg: dict[str, Any], key: str, default: int | None = None) -> int:
    return config_whole_number(cfg.get(key, default), key)


def mixer_from_config(cfg: dict[str, Any]) -> Mamba2Mixer:
    """The Mamba-2 mixer of a nemotron_h config.json (transformers' NemotronHConfig keys)."""
    hidden = _positive(cfg, "hidden_size")
    head_dim = _positive(cfg, "mamba_head_dim", 64)
    heads = cfg.get("mamba_num_heads") or _positive(cfg, "expand", 2) * hidden // head_dim
    return Mamba2Mixer(
        hidden=hidden, heads=_positive({"mamba_num_heads": heads}, "mamba_num_heads"), head_dim=head_dim,
        state=_positive(cfg, "ssm_state_size", 128), groups=_positive(cfg, "n_groups", 8),
        conv_kernel=_positive(cfg, "conv_kernel", 4), chunk=_positive(cfg, "chunk_size", 128),
        conv_bias=bool(cfg.get("use_conv_bias", True)),
        proj_bias=bool(cfg.get("use_bias", cfg.get("mamba_proj_bias", False))))


def block_kinds(pattern: str) -> tuple[str, ...]:
    """The kind of every block of a hybrid_override_pattern ('M', '*', '-', 'E'); any other character refuses."""
    bad = sorted({c for c in pattern if c not in BLOCK_KINDS})
    if not pattern or bad:
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "hybrid_override_pattern must be made of M, *, - and E, not {bad!r}."), bad="".join(bad))
    return tuple(BLOCK_KINDS[c] for c in pattern)


@dataclass(frozen=True)
class HybridModel:
    """A Nemotron-H / Nemotron 3 stack as its config.json states it: the mixer, the pattern's blocks and the widths of
    the other kinds. Its parameters are counted per tensor by the ModelSpec it becomes (hybrid_blocks.py:
    block_linears, block_small_params); Megatron-Bridge's FLOP count reads it (engine/timing/hybrid_flops.py)."""

    mixer: Mamba2Mixer
    kinds: tuple[str, ...]
    vocab: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int  # a '-' block's MLP width (squared ReLU, not gated)
    experts: int = 0
    top_k: int = 0
    expert_ffn: int = 0
    shared_ffn: int = 0
    tied: bool = False
    attention_bias: bool = False
    mlp_bias: bool = False

    @property
    def hidden(self) -> int:
        return self.mixer.hidden

    def count(self, kind: str) -> int:
        return self.kinds.count(kind)


def hybrid_from_config(cfg: dict[str, Any]) -> HybridModel:
    """A nemotron_h config.json as a HybridModel. LatentMoE (moe_latent_size, Nemotron 3 Super / Ultra) and the
    multi-token-prediction blocks are not counted here, so such a config is refused rather than undercounted."""
    if cfg.get("moe_latent_size") or cfg.get("num_nextn_predict_layers") or cfg.get("mtp_hybrid_override_pattern"):
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "This hybrid config uses LatentMoE or multi-token prediction, which are not counted yet."))
    pattern = cfg.get("hybrid_override_pattern")
    kinds = block_kinds(pattern if isinstance(pattern, str) else "")
    experts = int(cfg.get("n_routed_experts") or 0) if "moe" in kinds else 0
    heads = _positive(cfg, "num_attention_heads")
    return HybridModel(
        mixer=mixer_from_config(cfg), kinds=kinds, vocab=_positive(cfg, "vocab_size"), heads=heads,
        kv_heads=_positive(cfg, "num_key_value_heads", heads),
        head_dim=_positive(cfg, "head_dim", _positive(cfg, "hidden_size") // heads),
        ffn=int(cfg.get("intermediate_size") or 0), experts=experts,
        top_k=_positive(cfg, "num_experts_per_tok") if experts else 0,
        expert_ffn=_positive(cfg, "moe_intermediate_size") if experts else 0,
        shared_ffn=int(cfg.get("moe_shared_expert_intermediate_size") or 0) * int(cfg.get("n_shared_experts") or 1)
        if experts else 0,
        tied=bool(cfg.get("tie_word_embeddings", False)), attention_bias=bool(cfg.get("attention_bias", False)),
        mlp_bias=bool(cfg.get("mlp_bias", False)))
