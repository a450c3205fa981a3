"""Fastest layouts on famous published runs (issue 23 item 5): for each run, the search (`fit --objective
throughput`, engine/planning/speed_search.py) on the run's own model, GPUs, GPU count, sequence length, global batch
and precision, against the layout the run used and the throughput it measured.

Prints per run: the published layout and its measured tokens/s per GPU, the estimate for that layout itself, the
first plan's layout and predicted tokens/s per GPU, the ratio first-plan-predicted / published-measured, and the MFU
ceiling check (no plan above (1 + margin) x the best published run of its GPU and format, presets/mfu_ceilings.json).
Runs are rows of the published set (tests/data/published/); each carries its source there.

For runs whose stack lacked techniques the search may choose (RESTRICTED), a second, like-for-like line: the first
plan of the search restricted to the techniques the run had, and its ratio to the measurement. The headline count
stays the unrestricted first plan against the run's measurement; the like-for-like count is printed beside it.

Run: .venv/bin/python benchmarks/famous_runs.py [--cross-validated] [--terms]
  --cross-validated: the search and the estimate leave the run's own source out of the MFU ceilings (the honest
  figure for a run the model was never fitted to); without it they run as a user's search does.
  --terms: also each run's step, term by term (compute, memory-bound, each collective, bubble, optimizer, host), in
  the estimate of the published layout and in the first plan's: where the first plan gains.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy.published_throughput import load_rows, source_of  # noqa: E402
from engine.planning.speed_search import speed_search  # noqa: E402
from engine.planning.techniques import Techniques  # noqa: E402
from engine.scenario import Scenario, resolve_model  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import frozen_weights, leave_out, mfu_ceiling  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.mfu import mfu_format  # noqa: E402
from engine.timing.step_result import BREAKDOWN_KEYS, StepTime  # noqa: E402

# (what the run is, its row id in the published set). Llama 3 405B: arXiv:2407.21783 Table 4; Megatron-LM 1T and
# GPT-3 175B: arXiv:2104.04473 Tables 1 and 2 (megatron-lm-sc21.json); Llama 3.1 405B and Nemotron-4 340B: NVIDIA's
# DGX Cloud recipes (dgxc-benchmarking.json); DeepSeek-V3: Megatron-Bridge's performance tables
# (megatron-bridge-*.json, the newest release per GPU).
FAMOUS = (
    ("Llama 3 405B, 8,192 H100, 8K", "meta-llama3-405b-8192gpu-seq8192"),
    ("Llama 3 405B, 16,384 H100, 8K", "meta-llama3-405b-16384gpu-seq8192"),
    ("Llama 3 405B, 16,384 H100, 128K", "meta-llama3-405b-16384gpu-seq131072"),
    ("Megatron-LM GPT 1T, 3,072 A100", "megatron-sc21-table1-gpt-1008.0b-3072xa100"),
    ("Megatron-LM GPT 530B, 2,520 A100", "megatron-sc21-table1-gpt-529.6b-2520xa100"),
    ("GPT-3 175B PTD-P, 384 A100", "megatron-sc21-table2-ptdp-gpt-174.6b-384xa100"),
    ("GPT-3 175B PTD-P, 1,536 A100", "megatron-sc21-table2-ptdp-gpt-174.6b-1536xa100"),
    ("Llama 3.1 405B bf16, 512 H100", "dgxc-25.04.02-llama-3-1-405b-bf16-h100-sxm-80gb-512-gbs256"),
    ("Llama 3.1 405B fp8, 512 H100", "dgxc-25.04.02-llama-3-1-405b-fp8-h100-sxm-80gb-512-gbs256"),
    ("Llama 3.1 405B bf16, 128 GB200", "dgxc-25.05.05-llama3-1-405b-bf16-gb200-128-gbs64"),
    ("Nemotron-4 340B bf16, 128 H100", "dgxc-24.11.1-nemotron4-340b-24-11-bf16-tp-8-pp-8-mbs-1-ga-16-vp-12-h100-sxm-80gb-"
                                       "128-gbs32"),
    ("Nemotron-4 340B bf16, 128 GB200", "dgxc-25.05.05-nemotron-340b-bf16-gb200-gb200-128-gbs32"),
    ("DeepSeek-V3 fp8, 1,024 H100", "megatron-bridge-25.09-deepseekv3-dgx-h100-fp8-cs-1024-dropless"),
    ("DeepSeek-V3 mxfp8, 256 B200", "megatron-bridge-26.04-deepseekv3-dgx-b200-mxfp8-256"),
    ("DeepSeek-V3 mxfp8, 256 GB200", "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb200-mxfp8-256"),
    ("DeepSeek-V3 mxfp8, 256 GB300", "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb300-mxfp8-256"),
)


# The techniques 2021 Megatron-LM had, as the SC21 runs (arXiv:2104.04473) used it: TP, PP with the interleaved
# schedule, data parallelism without optimizer sharding, every layer recomputed or none (the paper's section 3.5 and
# Figure 17 run both). NVIDIA/Megatron-LM megatron/arguments.py gained --use-distributed-optimizer at 329fe5820fdb
# (2022-02-10), --sequence-parallel at cfd2e2160700 (2022-04-28), selective --recompute-granularity at bbab79f86907
# (2022-05-16) and --context-parallel-size at 292543d34272 (2023-10-12).
MEGATRON_2021 = Techniques(checkpointings=("none", "full"), sequence_parallel=False, context_parallel=False,
                           sharding=False, offloads=("none",))
MEGATRON_2021_TEXT = ("2021 Megatron-LM (arXiv:2104.04473): recompute full or none, no sequence parallelism, context "
                      "parallelism, distributed optimizer or offload (NVIDIA/Megatron-LM megatron/arguments.py gained them "
                      "2022-02 to 2023-10)")
RESTRICTED = {row_id: (MEGATRON_2021, MEGATRON_2021_TEXT) for _name, row_id in FAMOUS if row_id.startswith("megatron-sc21")}

LAYOUT_KEYS = ("tp", "cp", "pp", "ep", "pp_schedule", "vpp")  # what the search varies besides batch and memory


def layout_text(s: Scenario) -> str:
    """The layout of a scenario, as a recipe states it."""
    parts = [f"tp{s.tp}", f"pp{s.pp}"]
    if s.pp > 1 and s.pp_schedule == "interleaved-1f1b":
        parts.append(f"vpp{s.vpp}")
    parts += [f"cp{s.cp}", f"ep{s.ep}"] if resolve_model(s).is_moe else [f"cp{s.cp}"]
    parts += [f"dp{s.dp}", f"mb{s.micro_batch}", f"ga{s.grad_accum}", f"zero{s.effective_zero}",
              "fsdp" if s.fsdp else "", f"ckpt-{s.checkpointing}" + (  # full checkpointing of N layers of a stage
                  f"-{s.recompute_method}{s.recompute_num_layers}" if s.checkpointing == "full" and s.recompute_num_layers
                  else ""), f"offload-{s.offload}" if s.offload != "none" else ""]
    return " ".join(p for p in parts if p)


def ceiling_of(s: Scenario) -> float | None:
    """The most MFU a plan of this scenario may claim (engine/timing/ceiling.py), None where no run bounds it."""
    spec = resolve_model(s)
    ceiling = mfu_ceiling(s.gpu if isinstance(s.gpu, str) else None, hardware_for(s).arch, mfu_format(s),
                          spec.is_moe, frozen_weights(s, spec))
    return ceiling.mfu if ceiling is not None else None


def like_for_like(row: dict[str, Any], s: Scenario) -> dict[str, Any] | None:
    """The like-for-like figures of a RESTRICTED run: the restricted search's first plan against the measurement."""
    if row["id"] not in RESTRICTED:
        return None
    techniques, text = RESTRICTED[row["id"]]
    plans = speed_search(s, techniques=techniques).plans
    return {"restriction": text, "first": layout_text(plans[0].scenario) if plans else "(nothing fits)",
            "predicted": plans[0].time.tokens_per_second_per_gpu if plans else 0.0,
            "ratio": plans[0].time.tokens_per_second_per_gpu / float(row["measured"]) if plans else 0.0}


@cache
def _twin_key(scenario_json: str) -> tuple[Any, str, float, int]:
    """A run's model (by its shape: a row may name an inline model its own way), GPU, compute format and sequence
    length; cached by the scenario's text, as each famous run compares every row of the set against itself. The
    format is keyed by the GPU's dense peak in it, the rate MFU divides by: fp16 and bf16 share one peak on every
    GPU that runs both (A100: 312 TFLOP/s each, NVIDIA A100 datasheet), so SC21's fp16 runs (arXiv:2104.04473) and
    arXiv:2205.05198's runs of the same models on the same A100s (number format not stated, taken as bf16) are
    twins, while fp8 (twice the peak on Hopper) stays apart."""
    s = scenario_from_dict(json.loads(scenario_json))
    spec = resolve_model(s)
    shape = tuple(getattr(spec, f.name) for f in dataclasses.fields(spec) if f.name != "name")
    return shape, str(s.gpu), hardware_for(s).peak(mfu_format(s)), s.seq_len


def best_measured_twin(row: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest measured run of the published set (tokens/s per GPU) of the same model, GPU, compute format (by
    its dense peak, _twin_key) and sequence length as this one, at any GPU count and layout, the run itself
    included: what that model has been measured to reach on that GPU, against which a first plan that beats the
    run's own layout can be read."""
    def key(r: dict[str, Any]) -> tuple[Any, str, float, int]:
        return _twin_key(json.dumps(r["scenario"], sort_keys=True))

    own = key(row)
    twins = [r for r in rows if r.get("metric") == row.get("metric") and key(r) == own]
    return max(twins, key=lambda r: float(r["measured"]))


def term_gains(published: StepTime, first: StepTime | None) -> list[tuple[str, float, float]]:
    """Where the first plan gains on the published layout, term by term (engine/timing/step_result.py
    BREAKDOWN_KEYS): (term, seconds a step in the estimate of the published layout, in the first plan's), the step
    itself last. The search keeps the run's global batch and sequence length, so both steps train the same tokens.
    Terms zero in both are left out; [] where no plan fits."""
    if first is None:
        return []
    mine, theirs = published.breakdown_seconds, first.breakdown_seconds
    return [(k, mine[k], theirs[k]) for k in BREAKDOWN_KEYS if mine[k] or theirs[k]] + [
        ("step", published.step_seconds, first.step_seconds)]


def famous_figures(row: dict[str, Any], cross_validated: bool = False) -> dict[str, Any]:
    """One famous run's figures: the published layout and measurement, the estimate for that layout, the first plan
    of the throughput search, the MFU ceiling check and, for a RESTRICTED run, the like-for-like figures."""
    s = scenario_from_dict(row["scenario"])
    with leave_out(source_of(row)) if cross_validated else contextlib.nullcontext():
        own = step_time(s)
        t0 = time.perf_counter()
        result = speed_search(s)
        seconds = time.perf_counter() - t0
        first = result.plans[0] if result.plans else None
        alike = like_for_like(row, s)
        # each plan against the ceiling of its own GPU, compute format and model kind: a LoRA plan of an fp8 or fp16
        # run trains in bf16 and is held to the bf16 runs; in the count the ceilings were measured in (attention's
        # every key, presets/mfu_ceilings.json _about), as the speed cap compares them, not the shown causal MFU
        over = [(p.time.mfu_attention_whole, ceiling_of(p.scenario)) for p in result.plans + result.changes_what_you_train]
    # the fastest of the listed plans that recomputes as the run did: the 2021 runs (SC21) recomputed every layer,
    # since selective recomputation came a year later (arXiv:2205.05198), and the search may choose it
    same_recompute = next((p for p in result.plans if p.scenario.checkpointing == s.checkpointing), None)
    worst = max(over, key=lambda o: o[0] / o[1] if o[1] else 0.0, default=(0.0, None))
    measured = float(row["measured"])
    return {"published": layout_text(s), "measured": measured, "own": own.tokens_per_second_per_gpu,
            "first": layout_text(first.scenario) if first else "(nothing fits)",
            "predicted": first.time.tokens_per_second_per_gpu if first else 0.0,
            "ratio": first.time.tokens_per_second_per_gpu / measured if first else 0.0,
            "first_mfu": first.time.mfu if first else 0.0, "top_mfu": worst[0], "ceiling": worst[1],
            "same_recompute": (layout_text(same_recompute.scenario), same_recompute.time.tokens_per_second_per_gpu)
            if same_recompute is not None and same_recompute is not first else None,
            "seconds": seconds, "estimates": result.estimates, "like_for_like": alike,
            "terms": term_gains(own, first.time if first else None),
            "in_space": any(all(lay[k] == getattr(s, k) for k in LAYOUT_KEYS) for lay in result.ranked)}


def main(cross_validated: bool = False, terms: bool = False) -> None:
    rows = {r["id"]: r for r in load_rows()}
    print("Fastest layouts on famous runs" + (" (cross-validated: own source out of the ceilings)"
                                               if cross_validated else ""))
    met = alike_met = backed = 0
    for name, row_id in FAMOUS:
        f = famous_figures(rows[row_id], cross_validated)
        best = best_measured_twin(rows[row_id], list(rows.values()))
        best_ratio = f["predicted"] / float(best["measured"])
        backed += best_ratio <= 1.10
        within = abs(f["ratio"] - 1) <= 0.10
        met += within
        alike = f["like_for_like"]
        # like for like: the restricted first plan for a RESTRICTED run, the first plan itself for the others
        alike_met += abs((alike["ratio"] if alike else f["ratio"]) - 1) <= 0.10
        ceiling = "no ceiling" if f["ceiling"] is None else (
            f"nearest plan to its ceiling: MFU (attention counted whole) {f['top_mfu']:.1%} <= {f['ceiling']:.1%}"
            if f["top_mfu"] <= f["ceiling"] * (1 + 1e-9)
            else f"a plan's MFU (attention counted whole) {f['top_mfu']:.1%} ABOVE {f['ceiling']:.1%}")
        print(f"\n{name}  [{row_id}]")
        print(f"  published  {f['published']:<58} measured {f['measured']:8.1f} tok/s/GPU, "
              f"estimate {f['own']:8.1f} ({f['own'] / f['measured'] - 1:+.1%})")
        print(f"  first plan {f['first']:<58} predicted {f['predicted']:7.1f} tok/s/GPU, MFU {f['first_mfu']:.1%}")
        print(f"  ratio first-plan-predicted / published-measured {f['ratio']:.3f} "
              f"({'within' if within else 'beyond'} 10%); {ceiling}; search {f['seconds']:.2f} s, "
              f"{f['estimates']} memory estimates")
        if f["same_recompute"] is not None:
            text, tps = f["same_recompute"]
            print(f"  recomputing as the run did: {text:<43} predicted {tps:7.1f} tok/s/GPU, ratio "
                  f"{tps / f['measured']:.3f}")
        if alike is not None:
            print(f"  like for like ({alike['restriction']}):")
            print(f"    first plan {alike['first']:<56} predicted {alike['predicted']:7.1f} tok/s/GPU, ratio "
                  f"{alike['ratio']:.3f} ({'within' if abs(alike['ratio'] - 1) <= 0.10 else 'beyond'} 10%)")
        if terms:
            print(f"  {'term, seconds a step':<24}{'published':>10}{'first plan':>12}{'difference':>12}")
            for key, mine, theirs in f["terms"]:
                print(f"    {key:<22}{mine:10.3f}{theirs:12.3f}{theirs - mine:+12.3f}")
        if not f["in_space"]:
            print("  the published layout (tp, cp, pp, ep, schedule, vpp) is not among the layouts the search visits")
        if best["id"] != row_id:
            twin = scenario_from_dict(best["scenario"])
            print(f"  fastest measured run of this model, GPU, format and length: {layout_text(twin)} on "
                  f"{twin.world_size:,} GPUs [{best['id']}]")
            print(f"    measured {float(best['measured']):.1f} tok/s/GPU; first-plan-predicted / it {best_ratio:.3f}")
    print(f"\n{met} of {len(FAMOUS)} famous runs: first plan within 10% of the published measurement")
    print(f"{backed} of {len(FAMOUS)}: first plan at most 10% above the fastest measured run of its model, GPU, "
          "format and sequence length in the published set (any GPU count and layout, the run itself included)")
    print(f"{alike_met} of {len(FAMOUS)} like for like: the first plan of the search restricted to the run's own "
          f"techniques ({len(RESTRICTED)} runs restricted, the others unrestricted) within 10%")


if __name__ == "__main__":
    main("--cross-validated" in sys.argv[1:], "--terms" in sys.argv[1:])
