"""The pipeline's lower bound, row by row: for every published row with PP > 1, grad_accum x the model's busiest
stage per micro-batch (each pipeline rank runs every micro-batch through its own stage, one after another, so no
schedule finishes a step sooner) against the measured step, and the same with the model's bubble added (the
busiest rank still waits for the warm-up and cool-down of the others). Where the bound alone exceeds the measured
step, the model's stage is provably too slow there: some term of that stage is overcharged, whatever the schedule.

The busiest stage is the one engine/timing/model.py step_time takes (the largest _Stage.total over distinct_stages:
first, last, a middle stage per layer count); its kind (first, middle, last) says which terms it holds: the last
holds the output layer and the loss (engine/timing/costs.py head_cost), the first the embedding. Under Megatron's
combined 1F1B the stage's expert all-to-all counts as step_time counts it (model.py ep_seconds), not whole. Not
cross-validated: the stage times do not read the MFU ceilings (those stretch the step afterwards).

Where the busiest stage is the last, the bound is taken again with the head at its floor: its matmuls (forward,
input gradient and, where the head trains, weight gradient; bf16: Megatron-Core's output_layer is
tensor_parallel.ColumnParallelLinear, not a Transformer Engine module, megatron/core/models/gpt/gpt_model.py at
ee6737da) at the GPU's bf16 MAMF without the power limit's clock (hw.peak x matmul_fraction, no
sustained_fraction, no tile or wave loss) and the loss reading the bf16 logits once and writing their gradient once
(4 bytes per logit; every loss kernel the rows run moves more: Transformer Engine's triton cross_entropy.py at v2.7
reads the logits twice and writes the gradient in place, then scales it in place in the backward, 10 bytes;
Megatron-Core's native fused loss at ee6737da, fusions/fused_cross_entropy.py, copies them to fp32 first). A row
still over with that floor has its overcharge in the decoder layers of the stage, not in its head.

Run: .venv/bin/python benchmarks/stage_bound.py [ID-SUBSTRING ...]   (default: every PP > 1 row)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import MICRO_BATCH_WITH_STEP, load_rows  # noqa: E402
from engine.scenario import Scenario, as_laid_out, resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.costs import head_cost, loss_path  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.model import ep_seconds, rates_for, stage_time_per_micro_batch  # noqa: E402
from engine.timing.stage_listing import distinct_stages  # noqa: E402


@dataclass(frozen=True)
class Bound:
    id: str
    framework: str
    gpu: str
    kind: str  # the busiest stage: first, middle or last
    measured_s: float  # the measured step: the step's tokens over the measured tokens/s
    bound_s: float  # grad_accum x the busiest stage per micro-batch
    bubble_s: float  # the model's bubble
    head_excess_s: float = 0.0  # last stage: grad_accum x (the model's head - the head's floor)

    @property
    def ratio(self) -> float:
        return self.bound_s / self.measured_s

    @property
    def ratio_with_bubble(self) -> float:
        return (self.bound_s + self.bubble_s) / self.measured_s

    @property
    def ratio_head_floor(self) -> float:
        """The bound with the head at its floor (head_floor_seconds), the bubble added."""
        return (self.bound_s - self.head_excess_s + self.bubble_s) / self.measured_s


def head_floor_seconds(s: Scenario, spec, hw, prof: dict, rates) -> tuple[float, float]:
    """(the model's head, the head's floor) per micro-batch on the last stage: the module docstring says how."""
    tokens = s.micro_batch * s.seq_len / s.cp
    matmul, loss = head_cost(spec, tokens, s.tp, rates, loss_path(s, prof))
    passes = 2 if s.method in ("lora", "qlora") else 3  # a frozen head still passes its input gradient back
    flops = 2.0 * tokens * spec.hidden * spec.vocab / s.tp
    floor = passes * flops / (hw.peak("bf16") * hw.matmul_fraction) + tokens * spec.vocab / s.tp * 4 / rates.memory
    return passes * matmul + loss, floor


def bounds(patterns: list[str] | None = None) -> list[Bound]:
    """Every published PP > 1 row's stage bound (rows timing one micro-batch with the optimizer left out)."""
    out = []
    for r in load_rows():
        sc = r["scenario"]
        if sc.get("pp", 1) <= 1 or r.get("measured_window") == MICRO_BATCH_WITH_STEP:
            continue
        if patterns and not any(p in r["id"] for p in patterns):
            continue
        s = as_laid_out(scenario_from_dict(sc))
        spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
        rates = rates_for(s, hw, prof)
        timed = [(i, stage_time_per_micro_batch(s, spec, hw, prof, rates, i, rg)) for i, rg in distinct_stages(s, spec)]
        index, busiest = max(timed, key=lambda x: x[1].total)
        kind = "last" if index == s.pp - 1 else "first" if index == 0 else "middle"
        t = step_time(scenario_from_dict(sc))
        bound = s.grad_accum * (busiest.total - busiest.ep) + ep_seconds(s, busiest)
        measured = t.tokens_per_step / t.world_size / float(r["measured"])
        excess = 0.0
        if kind == "last":
            head, floor = head_floor_seconds(s, spec, hw, prof, rates)
            excess = s.grad_accum * (head - floor)
        out.append(Bound(r["id"], r["framework"], str(sc.get("gpu")), kind, measured, bound,
                         t.breakdown_seconds["bubble"], excess))
    return out


def over(rows: list[Bound], with_bubble: bool = False, head_floor: bool = False) -> list[Bound]:
    """The rows whose bound (with the bubble, if asked; with the head at its floor, if asked) exceeds the measured
    step."""
    return [b for b in rows if (b.ratio_head_floor if head_floor else b.ratio_with_bubble if with_bubble
                                else b.ratio) > 1.0]


def groups(rows: list[Bound]) -> dict[tuple[str, str, str], list[Bound]]:
    out: dict[tuple[str, str, str], list[Bound]] = {}
    for b in rows:
        out.setdefault((b.framework, b.gpu, b.kind), []).append(b)
    return out


def main(patterns: list[str]) -> None:
    rows = bounds(patterns)
    print(f"{'row':70s} {'stage':6s} {'meas s':>8s} {'bound/meas':>10s} {'+bubble':>8s} {'head floor':>10s}")
    for b in sorted(rows, key=lambda b: -b.ratio_with_bubble):
        floor = f"{b.ratio_head_floor:10.3f}" if b.kind == "last" else ""
        print(f"{b.id:70s} {b.kind:6s} {b.measured_s:8.3f} {b.ratio:10.3f} {b.ratio_with_bubble:8.3f} {floor}")
    print(f"\n{len(rows)} PP > 1 rows; bound over the measured step: {len(over(rows))}, with the bubble: "
          f"{len(over(rows, True))}, of them with the last stage busiest: "
          f"{sum(b.kind == 'last' for b in over(rows, True))}, still over with its head at the floor: "
          f"{sum(b.kind == 'last' for b in over(rows, head_floor=True))}")
    for (fw, gpu, kind), members in sorted(groups(over(rows, True)).items()):
        ratios = [b.ratio_with_bubble for b in members]
        floor = f", with the head at its floor: {len(over(members, head_floor=True))}" if kind == "last" else ""
        print(f"  {fw} / {gpu} / {kind} stage: {len(members)} rows, bound + bubble {min(ratios):.3f}-{max(ratios):.3f}"
              f" of the measured step (bound alone over it: {len(over(members))}{floor})")


if __name__ == "__main__":
    main(sys.argv[1:])
