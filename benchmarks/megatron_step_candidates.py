"""What the 2021-2023 Megatron-LM / Megatron-DeepSpeed A100 pipelines spend per micro-batch beyond the time model's
stage: every per-micro-batch cost their code runs, counted from the code, priced from the GPU's figures, against the
steady-state gap of benchmarks/megatron_a100_anchors.py (step = a + b x micro-batches, measured and predicted).

The test that sorts the candidates: under 1F1B the intercept a is about the other stages' micro-batch times (the fill
and drain), the slope b the busiest stage's period. A cost in every stage's own work (a kernel, a pass over the
gradients, a synchronisation each stage runs) adds x to b and about (p - 1) x to a, so it cannot explain a b that is
short while a matches; a cost of the steady state alone (what the stages wait for while both neighbours exchange, the
slowest stage setting the pace) adds to b only. Each layout prints the gap left in b, what a would gain if that gap
were stage work ((p - 1) x gap), and what a misses in fact.

Candidates, per micro-batch on the busiest stage (ms), with the code that runs them:
  X  the crossing of a node boundary (taken in the model: engine/timing/node_boundary.py), printed for reference;
  E  the exchanges as the model prices them (engine/timing/pipeline.py, p2p_exchange.py; X included);
  G  the weight gradients accumulated in place. Zero Bubble's fork: gradient_accumulation_fusion on
     (sail-sg/zero-bubble-pipeline-parallelism f68d3879 megatron/arguments.py lines 943-947), main_grad in the
     parameter's dtype under --fp16 without --accumulate-allreduce-grads-in-fp32 (core/distributed/
     distributed_data_parallel.py line 98), so core/tensor_parallel/layers.py lines 425-426 run
     wgrad_gemm_accum_fp16: the GEMM reads and writes main_grad (2 + 2 bytes a weight) where the model's roofline
     counts a 2-byte write; at k = micro-batch tokens >= 1,024 the GEMM stays compute-bound, so the model adds
     nothing: printed as the seconds if the epilogue were exposed (bytes x trainable weights / element-wise rate).
     BigScience (DeepSpeed fp16, autograd's AccumulateGrad): already priced (grad_accumulation_passes), 0 here;
  S  host synchronisations each micro-batch of the busiest stage, each a round trip + a launch
     (presets/host_overhead.json sync_seconds, launch_seconds): Zero Bubble's fork: the loss's
     `assert not loss.isnan()` (pretrain_gpt.py line 168, check_for_nan_in_loss_and_grad on: arguments.py lines
     828-830) on the last stage only; its timers are DummyTimers at --timing-log-level 0 (h-zbhost). BigScience:
     DeepSpeed's PipelineEngine calls self.tput_timer.start() at every forward pass (microsoft/DeepSpeed 2151c787a
     deepspeed/runtime/pipe/engine.py line 604), and ThroughputTimer.start runs torch.cuda.synchronize() from the
     third step on (deepspeed/utils/timer.py lines 161-166): one on every stage;
  C  small collectives, one latency each (presets/efficiency.json latency_intra_s, 10 us): the loss averaged
     over the data-parallel group (f68d3879 pretrain_gpt.py line 174, megatron/utils.py lines 97-105: the last
     stage; DeepSpeed aggregates the loss once a step, pipe/engine.py _aggregate_total_loss) and the batch broadcast
     over the TP group (f68d3879 pretrain_gpt.py line 120; bigscience-workshop/Megatron-DeepSpeed 1cb76a64
     pretrain_gpt.py line 136: first and last stages; a middle stage of the fork returns at line 94);
  M  the attention mask and position ids built on the GPU (f68d3879 megatron/utils.py lines 178-190: torch.ones
     fp32, tril, < 0.5: 17 bytes per (s x s) element) on the first and last stages; BigScience precomputes the mask
     once (Megatron-DeepSpeed 1cb76a64 pretrain_gpt.py lines 56-71, args.attn_mask).

Last, a what-if that is no model term: were the gap the slowest of the pipeline's p GPUs pacing a lock-step steady
state (the fill and drain pass each stage once and average the GPUs), the spread of GPU speed each 1F1B layout would
imply (gap / b / E[max of p standard normals]); a layout whose stage is a TP group (BigScience) is already the slowest
of its TP ranks, so its figure is an upper bound.

Run: .venv/bin/python benchmarks/megatron_step_candidates.py [SOURCE ...]  (default: Zero Bubble's and BigScience's)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from megatron_a100_anchors import SLOPE_SOURCES, slopes  # noqa: E402

from engine.accuracy.published_throughput import load_rows, source_of  # noqa: E402
from engine.posttraining.length_spread import expected_max_of_normals  # noqa: E402
from engine.scenario import as_laid_out, resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.host import host_call_seconds, host_figures  # noqa: E402
from engine.timing.model import rates_for, stage_time_per_micro_batch  # noqa: E402
from engine.timing.node_boundary import crossing_seconds, crossing_stages, crossing_transfers  # noqa: E402
from engine.timing.stage_listing import distinct_stages  # noqa: E402

# per framework profile: what its code runs per micro-batch beyond the stage's layers (module docstring, S, C, M, G)
CODE_FACTS: dict[str, dict[str, Any]] = {
    "megatron-zb": {"accumulate_bytes_per_weight": 4, "syncs": {"every": 0, "last": 1},
                    "collectives": {"last": 2, "first": 1}, "mask_bytes_per_score": 17},
    "deepspeed-2022": {"accumulate_bytes_per_weight": 0, "syncs": {"every": 1, "last": 0},
                       "collectives": {"last": 1, "first": 1}, "mask_bytes_per_score": 0},
}


def _layout_row(key: tuple) -> dict[str, Any]:
    """One published row of the layout megatron_a100_anchors.slopes grouped under `key`."""
    for r in load_rows():
        sc = r["scenario"]
        model = sc["model"]["name"] if isinstance(sc["model"], dict) else sc["model"]
        gpus = sc.get("gpus_per_node", 1) * sc.get("nodes", 1)
        if (source_of(r), model, gpus, sc.get("micro_batch", 1), sc.get("pp_schedule", "1f1b"), sc.get("tp", 1),
                sc.get("pp", 1), sc.get("vpp", 1), sc.get("precision", "")) == key:
            return sc
    raise KeyError(key)


def candidates(sc: dict[str, Any]) -> dict[str, float]:
    """Seconds per micro-batch of each candidate on the model's busiest stage (module docstring)."""
    s = as_laid_out(scenario_from_dict(sc))
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    timed = [(i, stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r)) for i, r in distinct_stages(s, spec)]
    index, busiest = max(timed, key=lambda x: x[1].total)
    kind = "first" if index == 0 else "last" if index == s.pp - 1 else "middle"
    facts = CODE_FACTS.get(s.framework, CODE_FACTS["megatron-zb"])
    launch, _ = host_call_seconds(s)
    sync = host_figures()["sync_seconds"]["value"] + launch
    latency = hw.latency_intra_s  # presets/efficiency.json: about 10 us a collective inside a node
    act = s.micro_batch * s.seq_len * spec.hidden * rates.elem_bytes
    blocking = s.pp_schedule == "1f1b" and s.vpp == 1
    # the stages next to a boundary are middle ones: they pace the steady state where the middle stages are the busiest
    crossing = (crossing_seconds(s, hw, act / (s.tp if prof.get("pipeline_p2p_split_over_tp") else 1),
                                 crossing_transfers(s, prof, blocking)) if kind == "middle" and crossing_stages(s, hw)
                else 0.0)
    with without_ceilings():
        pp_per_micro_batch = step_time(scenario_from_dict(sc)).breakdown_seconds["communication_pp"] / s.grad_accum
    return {
        "X": crossing, "E": pp_per_micro_batch,
        "G": facts["accumulate_bytes_per_weight"] * busiest.trainable / rates.memory,
        "S": (facts["syncs"]["every"] + (facts["syncs"]["last"] if kind == "last" else 0)) * sync,
        "C": facts["collectives"].get(kind, 0) * latency,
        "M": facts["mask_bytes_per_score"] * s.seq_len ** 2 / rates.memory if kind != "middle" else 0.0,
        "kind": kind, "pp": s.pp,
    }


def main() -> None:
    sources = tuple(sys.argv[1:]) or SLOPE_SOURCES
    print("per micro-batch on the busiest stage, ms: gap = measured b - predicted b (no MFU ceiling); a: measured -"
          " predicted intercept; (p-1)gap: what a would gain were the gap stage work;\nX crossing (in the model),"
          " E exchanges as priced, G in-place gradient accumulation if exposed, S host syncs, C small collectives,"
          " M mask building (module docstring: the code of each)")
    print(f"{'layout':58} {'stage':6} {'gap':>6} {'a':>6} {'(p-1)gap':>8} {'X':>5} {'E':>5} {'G':>5} {'S':>5} "
          f"{'C':>5} {'M':>5} {'S+C+M':>6}")
    spreads = []
    for g in slopes(sources):
        (am, bm), (ap, bp) = g["measured"], g["predicted"]
        source, model, gpus, mb, schedule, tp, pp, vpp, _ = g["layout"]
        c = candidates(_layout_row(g["layout"]))
        gap = (bm - bp) * 1e3
        small = (c["S"] + c["C"] + c["M"]) * 1e3
        label = f"{model.split(' ')[0][:24]} {gpus}x mb{mb} {schedule} tp{tp} pp{pp} vpp{vpp}"
        print(f"{label:58} {c['kind']:6} {gap:6.2f} {(am - ap) * 1e3:6.0f} {(pp - 1) * gap:8.0f} "
              f"{c['X'] * 1e3:5.2f} {c['E'] * 1e3:5.2f} {c['G'] * 1e3:5.2f} {c['S'] * 1e3:5.3f} {c['C'] * 1e3:5.3f} "
              f"{c['M'] * 1e3:5.3f} {small:6.3f}")
        if schedule == "1f1b" and vpp == 1:
            spreads.append((label, pp, (bm - bp) / bm / expected_max_of_normals(pp)))
    print("\nWhat-if, not a model term (no A100 figure): were the gap the slowest of the pipeline's GPUs pacing a "
          "lock-step steady state (fill and drain average the GPUs, so a would not see it), the spread of GPU speed "
          "(standard deviation) each 1F1B layout implies: gap / b / E[max of p standard normals]")
    for label, pp, sigma in spreads:
        print(f"  {label:58} pp {pp:3d}: {sigma:.1%}")
    print("\nS + C + M stay below 0.1 ms a micro-batch against gaps of 1.4-43 ms; G is the stage's own work (it would "
          "raise a by (p-1) x as much, where a matches already) and hidden under the GEMM's roofline; what is left is "
          "the steady state's own: a GPU-to-GPU spread under lock-step (SC22, arXiv:2208.11035: 8% average "
          "variation across identical V100 / MI60 GPUs; no A100 figure) or waits an Nsight trace would show.")


if __name__ == "__main__":
    main()
