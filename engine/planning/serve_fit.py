"""serve-fit: for an inference scenario, the largest context, the most users at once, and the fewest GPUs.

Each answer is found by asking the serving estimate itself (engine/workloads): the largest max_model_len (n_ctx for
llama.cpp) the engine starts with, the most sequences of max_model_len tokens the pool holds at once (llama.cpp:
the most n_parallel slots of that length n_ctx can be grown to), and the fewest GPUs (tensor-parallel degree, or
GPUs sharing llama.cpp's layers) that start it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import PlannerError, ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from ..monotone import largest_passing
from ..scenario import Scenario, resolve_model
from ..scenario.serving_keys import GGUF_ENGINES
from ..serving.generation import BEYOND_TRAINED
from ..serving.layer_split import layer_split_gpus
from ..serving.result import REFUSED, engine_name
from ..workloads import estimate

GPU_COUNTS = (1, 2, 4, 8, 16, 32, 64)


def _identity(text: str) -> str:
    return text


def _starts(s: Scenario, verdicts: tuple[str, ...]) -> bool:
    """The engine's start-up verdict is one of `verdicts` and the node's CPU memory holds it: the estimate's "tight"
    for users who wait (more max_num_seqs than the KV cache holds at once) is what these searches answer, not a
    limit of theirs."""
    try:
        est = estimate(s)
    except PlannerError:  # a layout the scenario's checks refuse (heads not divisible) does not serve
        return False
    return est.serving.verdict in verdicts and not est.host_short


def _fits(s: Scenario) -> bool:
    return _starts(s, ("fits",))


def _may_start(s: Scenario) -> bool:
    """Fits, or "tight": within the start-up accounting's band the engine may start (engine/serving/generation.py)."""
    return _starts(s, ("fits", "tight"))


def _largest(s: Scenario, key: str, low: int, high: int, passes: Callable[[Scenario], bool] = _fits) -> int:
    """The largest value of `key` in [low, high] that still passes (0 if none); passing is monotone in it."""
    if not passes(s.with_unchecked(**{key: low})):
        return 0
    return largest_passing(low, high, lambda n: passes(s.with_unchecked(**{key: n})))


def _held_at_estimate(s: Scenario) -> bool:
    """The estimated KV cache holds one request at max_model_len: the point figure, between the band's two edges, that
    `estimate` gives as "the longest context at the estimated KV cache" and "longest single sequence" (vLLM's own
    estimate_max_model_len)."""
    try:
        est = estimate(s)
    except PlannerError:
        return False
    memory = est.serving
    return memory.verdict != REFUSED and not est.host_short and memory.longest_context >= (s.max_model_len or 0) > 0


def largest_context(s: Scenario, passes: Callable[[Scenario], bool] = _fits) -> int:
    spec = resolve_model(s)
    if s.serving_engine in GGUF_ENGINES:
        return _largest(s, "n_ctx", 256, max(256, spec.max_position), passes) // max(1, s.n_parallel)
    return _largest(s, "max_model_len", 1, max(1, spec.max_position), passes)


def replicas(s: Scenario) -> int:
    """Engine instances the GPUs hold: each tp x pp group serves on its own (data parallel); llama.cpp spreads one
    model over the node, transformers' device_map one over each node's GPUs (engine/serving/layer_split.py)."""
    if s.serving_engine in GGUF_ENGINES:
        return 1
    if layer_split_gpus(s) > 1:  # transformers' device map: one model over each node's GPUs
        return max(1, s.nodes)
    return max(1, s.world_size // max(1, s.tp * s.pp))


def most_users(s: Scenario) -> int:
    """Sequences of the scenario's context length served at once, over every engine instance the GPUs hold."""
    if s.serving_engine in GGUF_ENGINES:
        slot = (s.n_ctx or resolve_model(s).max_position) // max(1, s.n_parallel)
        best = 0
        for users in (1, 2, 4, 8, 16, 32, 64, 128, 256):
            if not _fits(s.with_unchecked(n_parallel=users, n_ctx=slot * users)):
                break
            best = users
        return best
    memory = estimate(s).serving
    if memory.verdict == "does not fit":
        return 0
    return int(min(memory.max_concurrent_sequences, s.max_num_seqs or 10**9)) * replicas(s)


def fewest_gpus(s: Scenario, passes: Callable[[Scenario], bool] = _fits) -> int:
    """The fewest GPUs (of one node) that start the scenario: tp for vLLM/SGLang/transformers, llama.cpp's layer
    split for llama.cpp and ollama; 0 when none up to 64 does."""
    for gpus in GPU_COUNTS:
        changes = {"gpus_per_node": gpus, "nodes": 1} if s.serving_engine in GGUF_ENGINES else {
            "gpus_per_node": gpus, "nodes": 1, "tp": gpus, "pp": 1}
        try:
            candidate = s.replace(**changes)  # validated: tp must divide the heads
        except PlannerError:
            continue
        if passes(candidate):
            return gpus
    return 0


QUESTIONS: dict[str, Callable[[Scenario], int]] = {"context": largest_context, "users": most_users,
                                                   "gpus": fewest_gpus}
MAY_START: dict[str, Callable[[Scenario, Callable[[Scenario], bool]], int]] = {"context": largest_context,
                                                                               "gpus": fewest_gpus}


def serve_fit(s: Scenario, questions: tuple[str, ...] = ("context", "users", "gpus")) -> dict[str, Any]:
    if s.workload != "inference":
        raise ScenarioError("workload", QT_TRANSLATE_NOOP(
            "engine", "serve-fit answers inference scenarios: set workload to inference."))
    memory = estimate(s).serving
    answers = {q: QUESTIONS[q](s) for q in questions}
    # where the engine may start beyond what surely fits ("tight": vLLM's start-up check within its accounting's
    # band), that is said too: a Llama 3.1 70B fp8 on one H100 read "Largest context: 0 tokens" beside the
    # estimate's "the longest that fits is 6208 tokens", every context up to about 12K being tight
    may_start = {f"{q}_may_start": MAY_START[q](s, _may_start) for q in questions if q in MAY_START}
    # and the figure between them, the one `estimate` names ("the longest that fits is 528 tokens"): serve-fit said
    # "Largest context: 0 tokens" beside it (Llama 3.1 70B bf16 on 2 x H100, an 82.9 MiB pool inside the 1.95 GiB band)
    if "context" in questions and s.serving_engine not in GGUF_ENGINES:
        may_start["context_at_estimate"] = largest_context(s, _held_at_estimate)
    spec = resolve_model(s)
    # refused for a context beyond the model's own: so at every GPU count (the check comes before any memory)
    beyond = memory.reason.template == BEYOND_TRAINED
    return {"engine": s.serving_engine, "model": spec.name, "verdict": memory.verdict,
            "max_model_len": memory.max_model_len, "trained_context": spec.max_position,
            "beyond_trained_context": beyond, "replicas": replicas(s), **{f"{q}": v for q, v in answers.items()},
            **may_start, **({"slots": s.n_parallel} if s.serving_engine in GGUF_ENGINES else {})}


def _no_gpu_count(report: dict[str, Any], tr: Callable[[str], str]) -> str:
    """Why no GPU count serves: a context beyond the model's own, which vLLM and SGLang refuse however many GPUs
    hold it (engine/serving/generation.py _too_long), or none up to 64 holding it."""
    trained = report.get("trained_context") or 0
    if report.get("beyond_trained_context"):
        return tr(QT_TRANSLATE_NOOP("cli", "Fewest GPUs: none, as a context of {length} tokens is longer than the "
                                           "model was trained for ({trained} tokens); more GPUs cannot help")).format(
            length=f"{report['max_model_len']:,}", trained=f"{trained:,}")
    return tr(QT_TRANSLATE_NOOP("cli", "Fewest GPUs: {n}")).format(n=tr(QT_TRANSLATE_NOOP("cli", "none up to 64")))


def render_serve_fit(report: dict[str, Any], tr: Callable[[str], str] = _identity,
                     tr_engine: Callable[[str], str] = _identity) -> str:
    """The report as lines of text; `tr_engine` translates the engine's words (the verdict)."""
    lines = [tr(QT_TRANSLATE_NOOP("cli", "{model} on {engine}: {verdict} as set")).format(
        model=report["model"], engine=engine_name(report["engine"]), verdict=tr_engine(report["verdict"]))]
    if "context" in report:
        # llama.cpp's context is n_ctx shared by its n_parallel slots: the answer is one slot's (largest_context),
        # which read as less than the n_ctx the scenario already has (Ollama, 4 slots: 3.52K beside n_ctx 8,192).
        # Token counts are whole numbers with separators, as `estimate` and the window print them (40,960, not 41K)
        slots = report.get("slots", 1)
        lines.append((tr(QT_TRANSLATE_NOOP("cli", "Largest context: {n} tokens")) if slots == 1 else tr(
            QT_TRANSLATE_NOOP("cli", "Largest context: {n} tokens per user, each of the {slots} slots (n_parallel) "
                                     "that share n_ctx"))).format(n=f"{report['context']:,}", slots=slots))
        if report.get("context_at_estimate", 0) > report["context"]:
            lines[-1] = tr(QT_TRANSLATE_NOOP("cli", "Largest context: {n} tokens at the estimated KV cache (as "
                                                    "`estimate` gives it), {sure} for sure")).format(
                n=f"{report['context_at_estimate']:,}", sure=f"{report['context']:,}" if report["context"] else tr(
                    QT_TRANSLATE_NOOP("cli", "none")))
        if report.get("context_may_start", 0) > report["context"]:
            lines[-1] += tr(QT_TRANSLATE_NOOP("cli", "; up to {n} tokens {engine} may or may not start (tight: "
                                                     "within its start-up accounting's margin)")).format(
                n=f"{report['context_may_start']:,}", engine=engine_name(report["engine"]))
    if "users" in report:
        lines.append(tr(QT_TRANSLATE_NOOP("cli", "Most users at once at {length} tokens each: {n} (over {replicas} "
                                                 "engine instances)") if report["replicas"] != 1 else QT_TRANSLATE_NOOP(
            "cli", "Most users at once at {length} tokens each: {n}")).format(
            length=f"{report['max_model_len']:,}", n=report["users"], replicas=report["replicas"]))
    if "gpus" in report:
        lines.append(tr(QT_TRANSLATE_NOOP("cli", "Fewest GPUs: {n}")).format(n=report["gpus"]) if report["gpus"]
                     else _no_gpu_count(report, tr))
        if 0 < report.get("gpus_may_start", 0) < (report["gpus"] or 10**9):
            lines[-1] += tr(QT_TRANSLATE_NOOP("cli", "; on {n} {engine} may or may not start (tight: within its "
                                                     "start-up accounting's margin)")).format(
                n=report["gpus_may_start"], engine=engine_name(report["engine"]))
    return "\n".join(lines)
