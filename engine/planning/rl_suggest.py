"""One-step changes for post-training runs (issue 22), in the order people try them: the engine's share of each GPU,
its sleep mode, the reference (adapters off, precomputed), the log-prob path, rollout GPUs of its own. Each is priced
by the engine like every other suggestion (engine/planning/suggest.py)."""

from __future__ import annotations

import math
from typing import Any

from ..errors import PlannerError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..posttraining import rl_settings
from ..posttraining.settings import ONLINE_OBJECTIVES
from ..scenario import Scenario, resolve_model
from ..scenario.choices import ADAPTER_METHODS
from ..workloads import estimate
from .limits import tp_ok

Candidate = tuple[Message, dict[str, Any], str]


SHARE_STEP = 0.05
LARGEST_SHARE = 0.9  # the largest engine share offered when the engine is short of KV cache
MORE_KV_NOTE = QT_TRANSLATE_NOOP("engine", "a larger KV cache: room for the engine to start; less memory for training")
ENGINE_TP_TITLE = QT_TRANSLATE_NOOP("engine", "Split the generation engine over {tp} GPUs (its tensor parallelism)")
ENGINE_TP_PHRASE = QT_TRANSLATE_NOOP("engine", "split the generation engine over {tp} GPUs (its tensor parallelism)")
ENGINE_TP_NOTE = QT_TRANSLATE_NOOP("engine", "each GPU holds a share of the engine's weights and KV cache; fewer, "
                                             "larger engines, with an all-reduce in every layer")


def engine_short(s: Scenario) -> bool:
    """The generation engine refuses or may refuse for want of KV cache: its pool's margin over one request at
    max_model_len is below the start-up band (engine/serving/startup_band.py). A larger share is then the fix."""
    try:
        rl = estimate(s).rl
    except PlannerError:
        return False
    return rl is not None and rl.engine_start_margin_bytes is not None and (
        rl.engine_start_margin_bytes < rl.engine_start_band_bytes)


def larger_share(s: Scenario, utilization: float) -> float | None:
    """The smallest engine share above `utilization`, in steps of 0.05 up to 0.9, at which the step fits."""
    share = round(math.floor(utilization / SHARE_STEP + 1e-9) * SHARE_STEP + SHARE_STEP, 2)
    while share <= LARGEST_SHARE + 1e-9:
        try:
            if estimate(s.replace(rollout_gpu_memory_utilization=share)).verdict == "fits":
                return share
        except PlannerError:
            return None
        share = round(share + SHARE_STEP, 2)
    return None


def fitting_share(s: Scenario, utilization: float) -> float | None:
    """The largest engine share below `utilization`, in steps of 0.05, at which the step fits (None: none does).
    Not a bisection: too small a share makes the engine refuse to start, so fitting is not monotonic in it."""
    share = round(math.floor(utilization / SHARE_STEP - 1e-9) * SHARE_STEP, 2)
    while share >= 0.1 - 1e-9:
        try:
            if estimate(s.replace(rollout_gpu_memory_utilization=share)).fits:
                return share
        except PlannerError:
            return None
        share = round(share - SHARE_STEP, 2)
    return None


def engine_tp_choices(s: Scenario, rs: Any) -> list[int]:
    """Tensor-parallel sizes above the colocated engine's own: powers of two up to the GPUs of one node that divide
    the training GPUs (engine/scenario/posttraining_checks.py) and split the model's attention heads as vLLM does
    (heads divided, key/value heads divided or replicated: vllm/model_executor/models/llama.py LlamaAttention, the
    same rule as a trainer's tp, engine/planning/limits.py tp_ok). Each engine then holds 1 / tp of the weights."""
    if rs.rollout_engine == "none" or rs.placement != "colocate" or rs.shares_weights:
        return []
    spec = resolve_model(s)
    return [t for t in (2, 4, 8, 16) if rs.rollout_tp < t <= s.gpus_per_node and s.world_size % t == 0
            and tp_ok(spec, t)]


def _engine_tp_candidate(s: Scenario, rs: Any) -> list[Candidate]:
    """The smallest larger engine tensor-parallel size at which the step fits, else the largest there is."""
    choices = engine_tp_choices(s, rs)
    if not choices:
        return []
    chosen = choices[-1]
    for t in choices:
        try:
            if estimate(s.replace(rollout_tp=t)).fits:
                chosen = t
                break
        except PlannerError:
            return []
    return [(message(ENGINE_TP_TITLE, tp=chosen), {"rollout_tp": chosen}, ENGINE_TP_NOTE)]



# vLLM's share of a GPU when not told: the server's default (huggingface/trl@01bd4a59 trl/scripts/vllm_serve.py
# ScriptArguments gpu_memory_utilization 0.9; vLLM's own CacheConfig default 0.9). A colocated engine's share (TRL's
# vllm_gpu_memory_utilization 0.3) left a 7B's 14 GiB of weights no room on a GPU of its own.
VLLM_SERVER_SHARE = 0.9
SPLIT_SHARES_TRIED = 5  # 0.9 down to 0.7
SPLIT_TITLE = QT_TRANSLATE_NOOP("engine", "Train on {train} of the {total} GPUs and run the generation engine on "
                                          "the other {n}, with {share:.0%} of each")
SPLIT_TITLE_BATCH = QT_TRANSLATE_NOOP("engine", "Train on {train} of the {total} GPUs and run the generation engine "
                                                "on the other {n}, with {share:.0%} of each; accumulate {steps} steps "
                                                "to keep the global batch")
SPLIT_PHRASE = QT_TRANSLATE_NOOP("engine", "train on {train} of the {total} GPUs and run the generation engine on the "
                                           "other {n}, with {share:.0%} of each")
SPLIT_NOTE = QT_TRANSLATE_NOOP("engine", "no GPU added: the engine runs as a server on GPUs of its own, so the training "
                                         "GPUs hold none of its weights or KV cache; fewer GPUs train")


def split_gpus(s: Scenario, rs: Any) -> dict[str, Any] | None:
    """The node's GPUs split between the trainer and a colocated engine moved to GPUs of its own, half each (the
    engine's half a multiple of its tensor parallelism), one node only. TRL runs its engine so: "vLLM server and TRL
    trainer must use different CUDA devices", its example serving on GPUs 0-3 and training on 4-7 of one node
    (huggingface/trl docs/source/vllm_integration.md, v0.22; `trl vllm-serve`, vllm_mode "server"). Two RTX 4090 for
    a 7B GRPO were told to add 2 GPUs for the engine (or QLoRA), not to give it one of the two (user audit 13)."""
    engine_gpus = s.gpus_per_node // 2
    if (rs.rollout_engine == "none" or rs.placement != "colocate" or rs.shares_weights or s.nodes != 1
            or not defaults_for(s.framework).posttraining.engine_apart
            or engine_gpus < 1 or engine_gpus % rs.rollout_tp):
        return None
    changes: dict[str, Any] = {"rollout_placement": "separate", "rollout_gpus": engine_gpus,
                               "gpus_per_node": s.gpus_per_node - engine_gpus}
    if rs.rollout_engine == "vllm" and rs.utilization < VLLM_SERVER_SHARE:  # a colocated share, made for a shared GPU
        # the server's default, else the largest share a little below it at which the step fits (its KV cache the
        # smaller); a few estimates at most, as a suggestion is priced on every edit
        split = s.replace(**changes)
        shares = [round(VLLM_SERVER_SHARE - SHARE_STEP * k, 2) for k in range(SPLIT_SHARES_TRIED)]
        changes["rollout_gpu_memory_utilization"] = next(
            (x for x in shares if _fits(split.replace(rollout_gpu_memory_utilization=x))), VLLM_SERVER_SHARE)
    return changes


def _fits(s: Scenario) -> bool:
    try:
        return estimate(s).fits
    except PlannerError:
        return False


def _split_candidate(s: Scenario, rs: Any) -> list[Candidate]:
    """The split as a suggestion, one step: the gradient accumulation grows as the training GPUs shrink, so the
    global batch (TRL's generation batch: per-device batch x processes x accumulation) stays; Make it fit's plans
    keep it by their own rule (solver._combine), so rl_options leaves it out."""
    changes = split_gpus(s, rs)
    if changes is None:
        return []
    words = dict(train=changes["gpus_per_node"], total=s.gpus_per_node, n=changes["rollout_gpus"],
                 share=changes.get("rollout_gpu_memory_utilization", rs.utilization))
    if (s.grad_accum * s.world_size) % changes["gpus_per_node"] == 0:
        changes["grad_accum"] = s.grad_accum * s.world_size // changes["gpus_per_node"]
        return [(message(SPLIT_TITLE_BATCH, **words, steps=changes["grad_accum"]), changes, SPLIT_NOTE)]
    return [(message(SPLIT_TITLE, **words), changes, SPLIT_NOTE)]


def _engine_candidates(s: Scenario, rs: Any) -> list[Candidate]:
    out: list[Candidate] = []
    if rs.rollout_engine == "none" or rs.placement != "colocate":
        return out
    short = engine_short(s)
    larger = larger_share(s, rs.utilization) if short else None
    if larger is not None:  # the engine's KV pool is short: only a larger share lets it start
        out.append((message(QT_TRANSLATE_NOOP("engine", "Give the generation engine {share:.0%} of each GPU instead "
                                                        "of {old:.0%}"), share=larger, old=rs.utilization),
                    {"rollout_gpu_memory_utilization": larger}, MORE_KV_NOTE))
    if rs.utilization > 0.15 and not short:
        lower = fitting_share(s, rs.utilization) or round(max(0.1, rs.utilization - 0.1), 2)
        out.append((message(QT_TRANSLATE_NOOP("engine", "Give the generation engine {share:.0%} of each GPU instead "
                                                        "of {old:.0%}"), share=lower, old=rs.utilization),
                    {"rollout_gpu_memory_utilization": lower},
                    QT_TRANSLATE_NOOP("engine", "a smaller KV cache: fewer sequences generated at once")))
    if rs.sleep == "none" and not rs.shares_weights:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Let the generation engine sleep while training (vLLM sleep "
                                                        "level 2)")), {"rollout_sleep": "level-2"},
                    QT_TRANSLATE_NOOP("engine", "the engine's weights are reloaded after each step: a little slower")))
    out += _engine_tp_candidate(s, rs)
    out += _split_candidate(s, rs)
    if s.world_size > 1 and defaults_for(s.framework).posttraining.engine_apart:  # not verl's main_ppo, not Unsloth
        out.append((message(QT_TRANSLATE_NOOP("engine", "Run the generation engine on {n} GPUs of its own"),
                            n=s.gpus_per_node), {"rollout_placement": "separate", "rollout_gpus": s.gpus_per_node},
                    QT_TRANSLATE_NOOP("engine", "needs that many more GPUs")))
    return out


def rl_candidates(s: Scenario, compute_bytes: int) -> list[Candidate]:
    """The post-training changes that apply to `s` (training_objective other than sft)."""
    rs = rl_settings(s, compute_bytes)
    out = _engine_candidates(s, rs) if s.training_objective in ONLINE_OBJECTIVES else []
    if rs.reference == "separate" and s.method in ADAPTER_METHODS:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Score the reference with the adapters switched off")),
                    {"reference_model": "adapter-off"},
                    QT_TRANSLATE_NOOP("engine", "the same reference, no second copy of the model")))
    if rs.reference_forward and not rs.online:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Compute the reference log-probs before training")),
                    {"reference_model": "precomputed"},
                    QT_TRANSLATE_NOOP("engine", "one pass over the data first (TRL precompute_ref_log_probs)")))
    if rs.logprob_path in ("standard", "rows") and s.cross_entropy == "auto":
        out.append((message(QT_TRANSLATE_NOOP("engine", "Compute log-probs with a fused kernel")),
                    {"cross_entropy": "fused"},
                    QT_TRANSLATE_NOOP("engine", "flash-attn's cross-entropy kernel, as verl and OpenRLHF use it")))
    return out


# Make it fit's order for the post-training changes (engine/planning/solver.py costs: checkpointing 1.0, LoRA 3.0):
# the engine's share and sleep mode change no maths, a reference without a copy neither; separate rollout GPUs cost
# GPUs, like adding GPUs (9.0); the node's own GPUs split between trainer and engine change no maths and add no GPU,
# but train on fewer: below a change of method (LoRA / QLoRA 3.0)
RL_COSTS = {"rollout_gpu_memory_utilization": 0.4, "rollout_sleep": 0.8, "reference_model": 1.2,
            "cross_entropy": 0.6, "rollout_placement": 9.2, "rollout_tp": 0.5, "rollout_split": 2.5}


# Make it fit joins its steps into one sentence: the same changes as the suggestions, in lower case
SOLVER_PHRASES = {
    ("rollout_sleep", "level-2"): message(QT_TRANSLATE_NOOP(
        "engine", "let the generation engine sleep while training (vLLM sleep level 2)")),
    ("reference_model", "adapter-off"): message(QT_TRANSLATE_NOOP(
        "engine", "score the reference with the adapters switched off")),
    ("reference_model", "precomputed"): message(QT_TRANSLATE_NOOP(
        "engine", "compute the reference log-probs before training")),
    ("cross_entropy", "fused"): message(QT_TRANSLATE_NOOP("engine", "compute log-probs with a fused kernel")),
    ("rollout_placement", "separate"): message(QT_TRANSLATE_NOOP(
        "engine", "run the generation engine on {n} GPUs of its own"), n=0),
}


def rl_options(s: Scenario, compute_bytes: int) -> list[list[tuple[float, dict[str, Any], Message, str]]]:
    """The post-training changes for Make it fit, one group per key (a group's options exclude each other): (cost,
    changes, phrase, note). The engine's share is offered at every 0.1 step down to 0.1."""
    groups: dict[str, list[tuple[float, dict[str, Any], Message, str]]] = {}
    rs = rl_settings(s, compute_bytes)
    for title, changes, note in rl_candidates(s, compute_bytes):
        key = next(iter(changes))
        if key in ("rollout_gpu_memory_utilization", "rollout_tp"):  # every step of these is offered below
            continue
        cost = RL_COSTS.get(key, 2.0)
        if key == "rollout_placement" and "gpus_per_node" in changes:  # the node's GPUs split: none added
            changes = {k: v for k, v in changes.items() if k != "grad_accum"}  # the solver keeps the global batch
            title = message(SPLIT_PHRASE, **dict(title.params))
            cost = RL_COSTS["rollout_split"]
        elif key == "rollout_placement":
            title = message(SOLVER_PHRASES[(key, "separate")].template, n=changes["rollout_gpus"])
        else:
            title = SOLVER_PHRASES.get((key, changes[key]), title)
        groups.setdefault(key, []).append((cost + 0.1 * len(groups.get(key, [])), changes, title, note))
    if s.training_objective in ONLINE_OBJECTIVES:  # the engine split over more GPUs, each doubling a little dearer
        groups["rollout_tp"] = [(RL_COSTS["rollout_tp"] + 0.1 * math.log2(t / rs.rollout_tp), {"rollout_tp": t},
                                 message(ENGINE_TP_PHRASE, tp=t), ENGINE_TP_NOTE) for t in engine_tp_choices(s, rs)]
    if s.training_objective in ONLINE_OBJECTIVES and rs.rollout_engine != "none" and rs.placement == "colocate":
        shares = [round(x / 10, 1) for x in range(int(rs.utilization * 10 - 1e-9), 0, -1)]
        groups["rollout_gpu_memory_utilization"] = [
            (RL_COSTS["rollout_gpu_memory_utilization"] + (rs.utilization - share), {"rollout_gpu_memory_utilization":
                                                                                      share},
             message(QT_TRANSLATE_NOOP("engine", "give the generation engine {share:.0%} of each GPU"), share=share),
             QT_TRANSLATE_NOOP("engine", "a smaller KV cache: fewer sequences generated at once"))
            for share in shares if share < rs.utilization]
        if engine_short(s):  # a larger share, up to +0.3: the engine's KV pool is what is short
            more = [round(rs.utilization + SHARE_STEP * k, 2) for k in range(1, 7)]
            groups["rollout_gpu_memory_utilization"] = [
                (RL_COSTS["rollout_gpu_memory_utilization"] + (share - rs.utilization),
                 {"rollout_gpu_memory_utilization": share},
                 message(QT_TRANSLATE_NOOP("engine", "give the generation engine {share:.0%} of each GPU"),
                         share=share), MORE_KV_NOTE)
                for share in more if share <= LARGEST_SHARE + 1e-9]
    return [g for g in groups.values() if g]
