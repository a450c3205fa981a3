"""Byte-identical check for refactors (issue 21): draw scenarios once, record every output, compare later.

    .venv/bin/python benchmarks/output_fingerprint.py record OUT.json [--n 2000] [--seed 21]
    .venv/bin/python benchmarks/output_fingerprint.py compare OUT.json

`record` draws valid scenarios (the property tests' strategy, derandomized, then framework and time keys varied at
random and kept only where the scenario still validates; for vision-language models also images and a trained
tower) and stores each scenario with its whole output: the estimate as `estimate --json` prints it, and beyond it
every stage's and every other rank's components in order with their bytes at each moment (repr, so no rounding
hides a change), formulas and inputs, the overheads, the load and host figures, the step time (a post-training
step's whole, phase by phase), a served model's engine memory and speed, and the suggestions of every tenth
scenario. `compare` recomputes the stored scenarios with the code as it is now and prints
how many are identical; it exits 1 if any differs. The scenarios are stored, so a refactor of the generators does
not change what is compared.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if "--repo" in sys.argv:  # compare another checkout (a worktree) with this script
    REPO = Path(sys.argv[sys.argv.index("--repo") + 1]).resolve()
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.cli import estimate_to_json  # noqa: E402
from engine.errors import PlannerError  # noqa: E402
from engine.models.presets import model_spec_for  # noqa: E402
from engine.planning.suggest import suggestions  # noqa: E402
from engine.serving.report import serving_to_json  # noqa: E402
from engine.serving.speed import serving_speed  # noqa: E402
from engine.workloads import step_time  # noqa: E402

VARIED = {
    "framework": ["huggingface", "deepspeed", "torchtune", "torchtitan", "megatron", "unsloth", "litgpt", "pytorch"],
    "cross_entropy": ["auto", "standard", "chunked", "fused", "te", "fused-linear"],
    "compile": [True, False], "liger_kernels": [True, False], "activation_offload": [True, False],
    "distributed_optimizer": [True, False], "main_grads_fp32": ["auto", True, False],
    "expandable_segments": ["auto", True, False], "lora_dropout": [0.0, 0.1],
    "recompute_modules": [["core_attn"], ["mlp", "layernorm"]], "activation_offload_layers": [0, 1, 2],
    "pipeline_split_accounts_for": [[], ["embedding"], ["embedding", "loss"]],
    "attention_kernel": ["auto", "flash2", "flash3", "cudnn"], "fp8_recipe": ["auto", "delayed", "mxfp8"],
    "moe_token_dispatcher_type": ["alltoall", "allgather", "flex"], "tokens_to_train": [None, 10**9],
    "gpu_hour_price": [None, 2.5], "host_memory_bytes": [None, 2**38], "reserve": ["auto", 0.1],
    "modules_to_save": [[], ["lm_head"]], "lora_adapter_dtype": ["fp32", "compute"],
}


def draw(n: int, seed: int) -> list[dict[str, Any]]:
    from hypothesis import HealthCheck, Phase, given, settings
    from scenario_strategies import valid_scenarios

    drawn: list[dict[str, Any]] = []

    @settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(valid_scenarios())
    def collect(data: dict[str, Any]) -> None:
        drawn.append(data)

    collect()
    rng = random.Random(seed)
    out = []
    for data in drawn:
        varied = dict(data)
        for key in rng.sample(sorted(VARIED), rng.randint(0, 8)):
            attempt = {**varied, key: rng.choice(VARIED[key])}
            try:
                scenario_from_dict(attempt)
            except PlannerError:
                continue  # this value does not go with the rest: keep the scenario valid
            varied = attempt
        out.append(varied)
    return out + vision_variants(out)


def vision_variants(scenarios: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Images per sample, resolution and a trained tower on every drawn scenario of a vision-language model."""
    variants = []
    for data in scenarios:
        if not isinstance(data.get("model"), str) or model_spec_for(data["model"]).vision is None:
            continue
        for images, resolution, tower in ((2, None, "frozen"), (1, 448, "trained"), (3, None, "trained")):
            variant = {**data, "images_per_sample": images, "vision_tower": tower}
            if resolution:
                variant["image_resolution"] = resolution
            try:
                scenario_from_dict(variant)
            except PlannerError:
                continue
            variants.append(variant)
    return variants


def _components(components: Any) -> list[str]:
    return [repr((c.key, c.name, c.category, tuple(map(repr, c.moments)), c.formula, c.inputs)) for c in components]


def _stage(st: Any) -> list[Any]:
    return [st.stage, st.layers, repr(st.microbatches_in_flight), _components(st.components),
            _components(st.overheads), st.peak_moment, {k: repr(v) for k, v in st.phases.items()}]


def output(data: dict[str, Any], with_suggestions: bool) -> Any:
    try:
        s = scenario_from_dict(data)
        est = estimate(s)
    except PlannerError as e:
        return {"error": str(e)}
    if s.workload == "inference":  # a served model: the engine's memory and its speed, as `estimate --json` gives them
        return json.loads(json.dumps({"estimate": estimate_to_json(est), "serving": serving_to_json(
            est.serving, serving_speed(s, est.serving))}, default=repr))
    try:
        t = step_time(s)  # a post-training step's too (generation, scoring, update, sync), not its training part
    except PlannerError as e:
        t = None
        time_error = str(e)
    else:
        time_error = None
    result: dict[str, Any] = {
        "estimate": estimate_to_json(est, t), "time_error": time_error, "step_time": repr(t),
        "stages": [_stage(st) for st in est.stages],
        "other_ranks": [[o.ranks, _stage(o.estimate)] for o in est.other_ranks],
        "host_and_load": [repr(est.host_bytes), repr(est.load_gpu_bytes), est.load_formula],
    }
    if with_suggestions:
        result["suggestions"] = [repr(x) for x in suggestions(s)]
    return json.loads(json.dumps(result, default=repr))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--repo", type=Path, help="the checkout to compute with (default: this one)")
    args = parser.parse_args()
    if args.mode == "record":
        scenarios = draw(args.n, args.seed)
        outputs = [output(d, i % 10 == 0) for i, d in enumerate(scenarios)]
        args.file.write_text(json.dumps({"scenarios": scenarios, "outputs": outputs}))
        errors = sum("error" in o for o in outputs)
        print(f"recorded {len(scenarios)} scenarios ({errors} refused by the engine) to {args.file}")
        return 0
    stored = json.loads(args.file.read_text())
    differ = [i for i, (d, o) in enumerate(zip(stored["scenarios"], stored["outputs"], strict=True))
              if output(d, i % 10 == 0) != o]
    print(f"compared {len(stored['scenarios'])} scenarios: {len(stored['scenarios']) - len(differ)} identical, "
          f"{len(differ)} differ" + (f" (first: #{differ[:5]})" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
