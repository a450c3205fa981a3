"""Where verl's scoring phase is still short, pass by pass (issue 23, post-training scoring; branch h-verlscore).

verl logs the two scoring calls apart: timing_s/old_log_prob (compute_log_prob with the adapters) and timing_s/ref
(the same call under peft's disable_adapter() for a LoRA policy: volcengine/verl 9466d371e fsdp_workers.py lines
679-731; both load the offloaded parameters first and offload them after, both calculate the entropy, both send the
batch through ray and get fp32 results back). This splits the estimate the same way: each pass's forward
(scoring_time.py: the training forward of the step's micro-batches, its longest rank's tokens (rank_imbalance.py),
FSDP1's gathers beyond what it hides), the old pass's adapter-unit visits (adapter_units.py), and per call half of the
logits passes (vocab_passes.py), of the ray round trips (dataproto_dispatch.py) and of the scoring phase's offload
copies (posttraining_time.offload_by_phase: one parameter load each). Then:

- ref residual: measured ref - the estimated ref call, per decoder layer per micro-batch (a rank's micro-batches);
- old - ref: measured against the estimate's (the adapters' kernels and their FSDP units' visits);
- a decoder layer's FSDP1 all-gather as scoring_gathers.py times it whole (before what the previous layer hides),
  beside the residual: at 8 GPUs the residual follows it (as if the gathers were hardly hidden), at 2 GPUs it does not.

Only rows that log both timers and run an adapter-off reference (verl-data's GRPO-LoRA rows) are split. The time model
is not changed here: it prints what is left after the terms the estimate holds.

Run: .venv/bin/python benchmarks/verl_scoring_gap.py
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy import posttraining_time as ptt  # noqa: E402
from engine.posttraining.adapter_units import adapter_unit_seconds  # noqa: E402
from engine.posttraining.dataproto_dispatch import scoring_dispatch_seconds  # noqa: E402
from engine.posttraining.estimate import step_parts, training_scenario  # noqa: E402
from engine.posttraining.rank_imbalance import longest_rank_factor  # noqa: E402
from engine.posttraining.scoring_time import adapter_off_forward_seconds, policy_forward_seconds  # noqa: E402
from engine.posttraining.vocab_passes import vocab_pass_seconds  # noqa: E402
from engine.scenario import as_laid_out, resolve_model  # noqa: E402
from engine.timing.collectives import gathers_seconds  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.expert_data_parallel import data_parallel_link  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.links import nvlink_domain  # noqa: E402
from engine.timing.model import distinct_stages, rates_for, stage_time_per_micro_batch  # noqa: E402
from engine.timing.shard_groups import shard_group  # noqa: E402


@dataclass(frozen=True)
class PassSplit:
    """One row's scoring calls, measured (medians of the logged steps) and estimated, in seconds."""
    rid: str
    layers: int
    micro_batches: int
    factor: float
    measured_old: float
    measured_ref: float
    old_forward: float
    ref_forward: float
    units: float
    per_call: float  # half the logits passes, ray round trips and offload copies: each call's own share
    layer_gather: float  # one decoder layer's all-gather, whole

    @property
    def estimated_old(self) -> float:
        return self.old_forward + self.units + self.per_call

    @property
    def estimated_ref(self) -> float:
        return self.ref_forward + self.per_call

    @property
    def ref_residual_ms_per_layer(self) -> float:
        return (self.measured_ref - self.estimated_ref) / (self.layers * self.micro_batches) * 1e3


def layer_gather_seconds(train) -> float:
    """One decoder layer's FSDP1 all-gather of a scoring forward, whole (scoring_gathers.py's `gather` of the layer's
    parameters, before the window of the previous layer's work)."""
    s = as_laid_out(train)
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    i, r = max(distinct_stages(s, spec), key=lambda ir: len(ir[1]))
    st = stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r)
    domain = nvlink_domain(s, hw)
    group = shard_group(s, hw, st, domain, data_parallel_link(s, hw, st, domain))
    params = max(st.params - (spec.embedding_params + spec.head_params) / s.tp, 0.0) / max(st.layers, 1)
    return gathers_seconds(hw, prof, group.ranks, group.span, domain, s.tp, group.ring_share * params
                           * rates.elem_bytes / group.link_bytes_per_s, 1, group.gather_latency_s)


def split(row: dict) -> PassSplit | None:
    """The row's two calls, or None where it does not log both or has no adapter-off reference."""
    if not all("old_log_prob" in s["timing_s"] and "ref" in s["timing_s"] for s in row["steps"]):
        return None
    s = scenario_from_dict(row["scenario"])
    rs = step_parts(s).rs
    if rs.reference != "adapter-off" or not rs.old_policy_pass:
        return None
    train = training_scenario(s.with_unchecked(offload="none") if rs.offload_between_phases else s, rs)
    _, parts = ptt.estimated_phases(row["scenario"])
    copies = ptt.offload_by_phase(s, parts.get("phase_offload", 0.0))["scoring"]
    per_call = (vocab_pass_seconds(s, rs, train)["scoring"] + scoring_dispatch_seconds(s, rs) + copies) / 2
    return PassSplit(row["id"], resolve_model(s).layers, train.grad_accum, longest_rank_factor(train),
                     statistics.median(x["timing_s"]["old_log_prob"] for x in row["steps"]),
                     statistics.median(x["timing_s"]["ref"] for x in row["steps"]),
                     policy_forward_seconds(train), adapter_off_forward_seconds(train),
                     adapter_unit_seconds(s, train, True)["scoring"], per_call, layer_gather_seconds(train))


def main(argv: list[str] | None = None) -> int:
    rows = [r for r in ptt.read_rows() if not ptt.integrity_problems(r)]
    splits = [p for r in rows if (p := split(r)) is not None]
    print("| row | rank factor | ref measured s | ref estimated s | ref residual ms a layer a micro-batch | "
          "layer gather ms | old - ref measured s | old - ref estimated s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for p in splits:
        print(f"| {p.rid} | {p.factor:.3f} | {p.measured_ref:.2f} | {p.estimated_ref:.2f} | "
              f"{p.ref_residual_ms_per_layer:+.2f} | {p.layer_gather * 1e3:.2f} | {p.measured_old - p.measured_ref:.2f} | "
              f"{p.estimated_old - p.estimated_ref:.2f} |")
    if splits:
        residuals = [p.ref_residual_ms_per_layer for p in splits]
        ratio = statistics.median((p.measured_old - p.measured_ref) / (p.estimated_old - p.estimated_ref) for p in splits)
        print(f"\n{len(splits)} rows: ref residual median {statistics.median(residuals):+.2f} ms a layer a "
              f"micro-batch (range {min(residuals):+.2f} .. {max(residuals):+.2f}); old - ref measured / estimated "
              f"median {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
