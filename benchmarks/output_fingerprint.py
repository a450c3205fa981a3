"""Byte-identical check for refactors (issue 21): draw scenarios once, record every output, compare later.

    .venv/bin/python benchmarks/output_fingerprint.py record OUT.json [--n 2000] [--seed 21]
    .venv/bin/python benchmarks/output_fingerprint.py compare OUT.json

`record` draws valid scenarios (the property tests' strategy, derandomized, then framework and time keys varied at
random and kept only where the scenario still validates) and stores each scenario with its whole output: the
estimate as `estimate --json` prints it (components, formulas, inputs, stages, warnings), the step time, and the
suggestions of every tenth scenario. `compare` recomputes the stored scenarios with the code as it is now and prints
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
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.cli import estimate_to_json  # noqa: E402
from engine.errors import PlannerError  # noqa: E402
from engine.suggest import suggestions  # noqa: E402
from engine.timing import step_time  # noqa: E402

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
    return out


def output(data: dict[str, Any], with_suggestions: bool) -> Any:
    try:
        s = scenario_from_dict(data)
        est = estimate(s)
    except PlannerError as e:
        return {"error": str(e)}
    try:
        t = step_time(s)
    except PlannerError as e:
        t = None
        time_error = str(e)
    else:
        time_error = None
    result: dict[str, Any] = {"estimate": estimate_to_json(est, t), "time_error": time_error}
    if with_suggestions:
        result["suggestions"] = [repr(x) for x in suggestions(s)]
    return json.loads(json.dumps(result, default=repr))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=21)
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
