"""The seeds' three estimators, reproducing their arithmetic as the seeds do it.

They have no phases: every component is counted for the whole step (the seeds add
them up). Known errors are kept on purpose (see docs/memory-model-errata.md);
the `detailed` estimator is the one checked against measurements.
"""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import Behaviour
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from ..scenario.pipeline_ends import holds_head
from .breakdown import Component, Moments
from .model_states import model_state_components
from .states import Dtypes, StageParams, stage_params

SEED_CONTEXT_BYTES = 1e9  # seed 000 section 10: "+ 1 GB CUDA context"


def _whole(key: str, name: str, category: str, value: float, formula: str, **inputs: object) -> Component:
    return Component(key, name, category, Moments.whole_step(value), formula, tuple(inputs.items()))


def seed_alpha(s: Scenario, spec: ModelSpec) -> float:
    """Seed 000 section 5: activation bytes per parameter, alpha = (bs/h)(5 + 5as/6h)."""
    b, sl, h, a = s.micro_batch, s.seq_len, spec.hidden, spec.heads
    flash = s.attention != "eager" or s.checkpointing == "selective"
    if s.checkpointing == "full":
        alpha = (b * sl / h) / 6  # only 2bsh per layer of ~12h^2 params remain
    elif flash:
        alpha = (b * sl / h) * 5
    else:
        alpha = (b * sl / h) * (5 + 5 * a * sl / (6 * h))
    return alpha * (1.15 if spec.is_moe else 1.0)


def _per_op_layer_bytes(s: Scenario, spec: ModelSpec, moe: bool) -> float:
    """Seed 000 section 3: per layer 60bsh + 10bas^2 bytes (the seed's doubled count)."""
    b, sl, h, a = s.micro_batch, s.seq_len, spec.hidden, spec.heads
    if s.checkpointing == "full":
        return 2 * b * sl * h
    flash = s.attention != "eager" or s.checkpointing == "selective"
    attention = 60 * b * sl * h + (0 if flash else 10 * b * a * sl * sl)
    if not moe:
        return attention
    # Seed 000 section 9: router logits, gate scores, top-k expert and shared-expert intermediates.
    return (
        attention
        + b * sl * spec.n_experts * 2
        + b * sl * spec.top_k * 4
        + b * sl * spec.top_k * spec.expert_ffn * 4
        + b * sl * spec.shared_ffn * 4
    )


def _seed_004_adapter_states(s: Scenario, spec: ModelSpec, stage_layers: int) -> tuple[float, float]:
    """Seed 004: N_lora ~ L x 18 x r x H, trained with c_opt bytes/param (16 AdamW, 10 8-bit)."""
    n_lora = stage_layers * 18 * s.lora_rank * spec.hidden / s.tp
    c_opt = 10 if optimizer_used(s).startswith("adamw-8bit") else 16
    return n_lora, n_lora * c_opt


def seed_components(s: Scenario, spec: ModelSpec, dt: Dtypes, stage: int, layers: range,
                    fw: Behaviour) -> list[Component]:
    """One stage's components as the seed named by `s.estimator` counts them, each for the whole step."""
    first, last = stage == 0, holds_head(s, stage)
    p = stage_params(s, spec, layers, first, last)
    comps = _seed_model_states(s, spec, dt, p, fw, len(layers))
    comps.append(_seed_activations(s, spec, layers))
    if s.estimator == "seed-k-factor":
        return comps  # the K-factor seed counts no logits, buffers or context
    comps += _seed_transients(s, spec, last)
    return comps


def _seed_model_states(s: Scenario, spec: ModelSpec, dt: Dtypes, p: StageParams, fw: Behaviour,
                       stage_layers: int) -> list[Component]:
    """Seed 004's base model and LoRA states (K-factor seed, LoRA/QLoRA), else the detailed model states summed
    over the step."""
    comps: list[Component] = []
    if s.estimator == "seed-k-factor" and s.method in ADAPTER_METHODS:
        shards = 1 / (s.tp * s.pp)
        base_params = spec.total_params * shards / (s.dp if s.effective_zero == 3 else 1)
        base_bpp = 0.6 if s.method == "qlora" else 2.0
        comps.append(
            _whole(
                "frozen_weights",
                QT_TRANSLATE_NOOP("engine", "Base model (seed 004)"),
                "model states",
                base_params * base_bpp,
                QT_TRANSLATE_NOOP("engine", "N x 2 (LoRA) or N x 0.6 (QLoRA, 'typical setting')"),
                params=round(base_params),
            )
        )
        n_lora, states = _seed_004_adapter_states(s, spec, stage_layers)
        comps.append(
            _whole(
                "lora_weights",
                QT_TRANSLATE_NOOP("engine", "LoRA training states (seed 004)"),
                "model states",
                states,
                QT_TRANSLATE_NOOP("engine", "N_lora x c_opt, N_lora = L x 18 x r x H"),
                lora_params=round(n_lora),
            )
        )
    else:
        for c in model_state_components(s, dt, p, fw)[0]:
            comps.append(Component(c.key, c.name, c.category, Moments.whole_step(c.peak_bytes), c.formula, c.inputs))
    return comps


def _seed_activations(s: Scenario, spec: ModelSpec, layers: range) -> Component:
    """The activations by the seed's own rule: K-factor, alpha x active params, or per operation."""
    b, sl, h = s.micro_batch, s.seq_len, spec.hidden
    if s.estimator == "seed-k-factor":
        act = b * sl * h * len(layers) * s.k_factor * 2 / s.tp
        return _whole(
            "activations",
            QT_TRANSLATE_NOOP("engine", "Activations (K-factor)"),
            "activations",
            act,
            QT_TRANSLATE_NOOP("engine", "B x T x H x L x K x 2 bytes"),
            K=s.k_factor,
            B=b,
            T=sl,
            H=h,
            L=len(layers),
        )
    if s.estimator == "seed-alpha":
        active = spec.active_params * (1 / (s.tp * s.pp))
        alpha = seed_alpha(s, spec)
        return _whole(
            "activations",
            QT_TRANSLATE_NOOP("engine", "Activations (alpha x active params)"),
            "activations",
            alpha * active,
            QT_TRANSLATE_NOOP("engine", "alpha x N_active, alpha = (bs/h)(5 + 5as/6h)"),
            alpha=round(alpha, 3),
            active_params=round(active),
        )
    act = sum(_per_op_layer_bytes(s, spec, spec.moe_layer_flags[i]) for i in layers) / s.tp
    return _whole(
        "activations",
        QT_TRANSLATE_NOOP("engine", "Activations (per operation)"),
        "activations",
        act,
        QT_TRANSLATE_NOOP(
            "engine", "per layer 60bsh + 10bas^2 (flash removes the s^2 term; checkpointing keeps 2bsh)"
        ),
        layers=len(layers),
        b=b,
        s=sl,
        h=h,
        a=spec.heads,
    )


def _seed_transients(s: Scenario, spec: ModelSpec, last: bool) -> list[Component]:
    """The alpha and per-operation seeds' logits spike (last stage), EP buffers and CUDA context."""
    b, sl, h = s.micro_batch, s.seq_len, spec.hidden
    comps: list[Component] = []
    if last:
        comps.append(
            _whole(
                "logits",
                QT_TRANSLATE_NOOP("engine", "Logits spike (fp32)"),
                "transient",
                b * sl * spec.vocab * 4 / s.tp,
                QT_TRANSLATE_NOOP("engine", "b x s x V x 4"),
                vocab=spec.vocab,
            )
        )
    if s.ep > 1 and spec.is_moe:
        capacity = b * sl * spec.top_k / s.ep
        comps.append(
            _whole(
                "ep_buffers",
                QT_TRANSLATE_NOOP("engine", "EP all-to-all buffers"),
                "transient",
                s.ep * capacity * h * 2 * 2,
                QT_TRANSLATE_NOOP("engine", "ep x capacity x h x 2 bytes x 2 directions"),
                ep=s.ep,
                capacity=capacity,
            )
        )
    comps.append(
        _whole(
            "cuda_context_seed",
            QT_TRANSLATE_NOOP("engine", "CUDA context (seed 000)"),
            "transient",
            SEED_CONTEXT_BYTES,
            QT_TRANSLATE_NOOP("engine", "1 GB"),
        )
    )
    return comps
