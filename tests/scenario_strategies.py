"""Hypothesis strategies that build valid scenarios by construction (issue 15): the parallel layout divides the
GPUs, the heads and the experts; offload comes with sharding; method-specific keys only with their method. Every
scenario drawn here must pass validation, so property tests spend their examples on the estimator, not on
rejections.

The rules are not restated here: each key is drawn from the values its declaration offers (engine/scenario's
`Check.samples()` / `choices()`, the framework rows of engine/frameworks, the presets) and a value is offered only
where the engine's own validation takes it with the keys drawn before it (`_accepted`). A rule added to the engine
then narrows what is drawn instead of making the strategy draw a scenario the engine refuses (CI drew Nemotron 3 Nano
at tp 16 after the Mamba-head rule, fixed by hand in 98b8bec). Only ScenarioError (ConsistencyError included) counts
as a refusal: any other exception escapes, so drawing is itself a property test of validation."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine import ScenarioError, gpu_presets, model_presets, scenario_from_dict
from engine.models.presets import model_spec_for
from engine.scenario import KEYS

MODELS = sorted(model_presets())
# Hybrid models (Mamba-2 layers: Nemotron 3 Nano; Gated DeltaNet layers: Qwen3-Next) carry their own layout rules
# (their heads must divide tp): a quarter of the draws, beside their turn among all the presets.
HYBRID_MODELS = [m for m in MODELS if model_spec_for(m).mamba is not None or model_spec_for(m).linear_k_heads]
GPUS = sorted(gpu_presets())
WORKLOAD_KINDS = ("training", "post-training", "inference")
SPECS = {k.name: k for k in KEYS}
# Keys drawn with their own rules below: the model, the machine, the layout, the workload. The rest (`_OTHER_KEYS`)
# are drawn from their declarations: every key of engine/scenario, including keys added after this module.
_DRAWN_FIRST = {"name", "notes", "model", "gpu", "gpus_per_node", "nodes", "framework", "tp", "pp", "cp", "ep", "vpp",
                "pp_schedule", "seq_len", "micro_batch", "grad_accum", "method", "training_objective", "workload",
                "precision", "optimizer", "offload", "zero_stage", "fsdp", "serving_engine"}
# Keys tried most (the newer surfaces: fp8 recipes, MoE dispatchers, offload details, the optimizer precision, the
# rollout engine), up to 12 a draw; the others up to 6 a draw.
_NEWER_KEYS = ("fp8_recipe", "moe_token_dispatcher_type", "moe_a2a_overlap", "etp", "precision_aware_optimizer",
               "optimizer_offload_fraction", "distributed_optimizer", "sequence_parallel", "checkpointing",
               "attention", "estimator", "lora_rank", "lora_targets", "frozen_layers", "freeze_from",
               "rollout_engine", "rollout_placement", "num_generations", "reference_model", "weight_format",
               "kv_cache_dtype", "max_model_len")


def _offered(spec: Any) -> tuple[Any, ...]:
    """The values a key's declaration offers: its choices, else its samples (a typed key)."""
    return tuple(spec.check.choices() or spec.check.samples())


_OTHER_KEYS = sorted(k.name for k in KEYS if k.name not in _DRAWN_FIRST and k.name not in _NEWER_KEYS
                     and _offered(k))


def _accepted(data: dict[str, Any]) -> bool:
    """Whether the engine validates `data`; a refusal is a ScenarioError (or its ConsistencyError), anything else
    is a crash of validation and escapes."""
    try:
        scenario_from_dict(data)
    except ScenarioError:
        return False
    return True


def _divisors(n: int, limit: int | None = None) -> list[int]:
    return [d for d in range(1, (limit or n) + 1) if n % d == 0]


def _draw_accepted(draw: st.DrawFn, data: dict[str, Any], key: str, values: Any) -> dict[str, Any]:
    """`data` with `key` set to one of `values` the engine accepts with it; unchanged where it accepts none. The
    value drawn is tried first, then the ones after it in turn (one validation where it is accepted, not one per
    value: the memo tests draw thousands of scenarios)."""
    values = list(values)
    if not values:
        return data
    start = draw(st.integers(0, len(values) - 1))
    for value in values[start:] + values[:start]:
        if _accepted({**data, key: value}):
            return {**data, key: value}
    return data


@st.composite
def valid_scenarios(draw: st.DrawFn, models: list[str] = MODELS, workloads: tuple[str, ...] = WORKLOAD_KINDS,
                    only: dict[str, tuple] | None = None) -> dict:
    """A scenario the engine validates; `only` narrows the values offered for some keys (e.g. {"framework":
    ("megatron-zb",)}: a value the engine refuses with the rest is still left out)."""
    def offered(name: str) -> tuple:
        return tuple(only[name]) if only and name in only else _offered(SPECS[name])

    hybrid = [m for m in HYBRID_MODELS if m in models]
    model = draw(st.sampled_from(hybrid) if hybrid and draw(st.integers(0, 3)) == 0 else st.sampled_from(models))
    spec = model_spec_for(model)
    data: dict[str, Any] = {"model": model, "gpu": draw(st.sampled_from(GPUS)),
                            "gpus_per_node": draw(st.sampled_from([1, 2, 4, 8])), "nodes": draw(st.sampled_from([1, 2]))}
    if not _accepted(data):  # a model too big to describe on that card's system still validates; this is a guard
        data["gpu"] = "h100-sxm-80gb"
    kind = draw(st.sampled_from(workloads))
    if kind == "inference":
        data = _draw_accepted(draw, {**data, "workload": "inference"}, "serving_engine", offered("serving_engine"))
    data = _draw_accepted(draw, data, "framework", offered("framework"))
    if kind == "post-training":
        objectives = [o for o in offered("training_objective") if o != "sft"]
        data = _draw_accepted(draw, data, "training_objective", objectives)
    data = _draw_layout(draw, data, spec.layers, offered("pp_schedule"))
    for name in ("method", "precision", "optimizer"):
        data = _draw_accepted(draw, data, name, offered(name))
    data = _draw_accepted(draw, data, "micro_batch", range(1, 17))
    data = _draw_accepted(draw, data, "grad_accum", range(1, 9))
    data = _draw_sharding(draw, data)
    for name in [*draw(st.lists(st.sampled_from(_NEWER_KEYS), max_size=12, unique=True)),
                 *draw(st.lists(st.sampled_from(_OTHER_KEYS), max_size=6, unique=True))]:
        data = _draw_accepted(draw, data, name, offered(name))
    assert _accepted(data), data  # by construction; a failure here is a bug of this strategy
    return data


def _draw_layout(draw: st.DrawFn, data: dict[str, Any], layers: int, schedules_offered: tuple) -> dict[str, Any]:
    """tp, pp, the sequence length, cp and ep that divide the GPUs, each as the engine accepts it; then a pipeline
    schedule with its virtual stages (zbv's V needs 2, interleaved-1f1b some that split the layers)."""
    world = data["gpus_per_node"] * data["nodes"]
    data = _draw_accepted(draw, data, "tp", _divisors(world))
    data = _draw_accepted(draw, data, "pp", [p for p in _divisors(world // data.get("tp", 1)) if p <= layers])
    data = _draw_accepted(draw, data, "seq_len", [128, 1000, 2048, 8192, 32768])
    rest = world // (data.get("tp", 1) * data.get("pp", 1))
    data = _draw_accepted(draw, data, "cp", _divisors(rest, 4))
    data = _draw_accepted(draw, data, "ep", _divisors(rest))
    if data.get("pp", 1) > 1:
        schedules = [{"pp_schedule": schedule, **({"vpp": vpp} if vpp > 1 else {})}
                     for schedule in schedules_offered for vpp in (1, 2, 4)]
        start = draw(st.integers(0, len(schedules) - 1))
        data = next((with_schedule for with_schedule in ({**data, **s} for s in schedules[start:] + schedules[:start])
                     if _accepted(with_schedule)), data)
    return data


def _draw_sharding(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """FSDP or a ZeRO stage, then an offload that goes with it."""
    if draw(st.booleans()):
        data = _draw_accepted(draw, data, "fsdp", [True])
    data = _draw_accepted(draw, data, "zero_stage", _offered(SPECS["zero_stage"]))
    return _draw_accepted(draw, data, "offload", _offered(SPECS["offload"]))
