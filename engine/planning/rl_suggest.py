"""One-step changes for post-training runs (issue 22), in the order people try them: the engine's share of each GPU,
its sleep mode, the reference (adapters off, precomputed), the log-prob path, rollout GPUs of its own. Each is priced
by the engine like every other suggestion (engine/planning/suggest.py)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..posttraining import rl_settings
from ..posttraining.settings import ONLINE_OBJECTIVES
from ..scenario import Scenario

Candidate = tuple[Message, dict[str, Any], str]


def _engine_candidates(s: Scenario, rs: Any) -> list[Candidate]:
    out: list[Candidate] = []
    if rs.rollout_engine == "none" or rs.placement != "colocate":
        return out
    if rs.utilization > 0.15:
        lower = round(max(0.1, rs.utilization - 0.1), 2)
        out.append((message(QT_TRANSLATE_NOOP("engine", "Give the generation engine {share:.0%} of each GPU instead "
                                                        "of {old:.0%}"), share=lower, old=rs.utilization),
                    {"rollout_gpu_memory_utilization": lower},
                    QT_TRANSLATE_NOOP("engine", "a smaller KV cache: fewer sequences generated at once")))
    if rs.sleep == "none" and not rs.shares_weights:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Let the generation engine sleep while training (vLLM sleep "
                                                        "level 2)")), {"rollout_sleep": "level-2"},
                    QT_TRANSLATE_NOOP("engine", "the engine's weights are reloaded after each step: a little slower")))
    if s.world_size > 1:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Run the generation engine on {n} GPUs of its own"),
                            n=s.gpus_per_node), {"rollout_placement": "separate", "rollout_gpus": s.gpus_per_node},
                    QT_TRANSLATE_NOOP("engine", "needs that many more GPUs")))
    return out


def rl_candidates(s: Scenario, compute_bytes: int) -> list[Candidate]:
    """The post-training changes that apply to `s` (training_objective other than sft)."""
    rs = rl_settings(s, compute_bytes)
    out = _engine_candidates(s, rs) if s.training_objective in ONLINE_OBJECTIVES else []
    if rs.reference == "separate" and s.method in ("lora", "qlora"):
        out.append((message(QT_TRANSLATE_NOOP("engine", "Score the reference with the adapters switched off")),
                    {"reference_model": "adapter-off"},
                    QT_TRANSLATE_NOOP("engine", "the same reference, no second copy of the model")))
    if rs.reference in ("separate", "adapter-off", "cpu-swap") and not rs.online:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Compute the reference log-probs before training")),
                    {"reference_model": "precomputed"},
                    QT_TRANSLATE_NOOP("engine", "one pass over the data first (TRL precompute_ref_log_probs)")))
    if rs.logprob_path in ("standard", "rows") and s.cross_entropy == "auto":
        out.append((message(QT_TRANSLATE_NOOP("engine", "Compute log-probs with a fused kernel")),
                    {"cross_entropy": "fused"},
                    QT_TRANSLATE_NOOP("engine", "flash-attn's cross-entropy kernel, as verl and OpenRLHF use it")))
    return out
