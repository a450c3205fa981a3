"""The candidates of the speed search (speed_search.py): a layout's scenarios by micro-batch, each made once when
first asked for, with its step time computed once; memory estimates are shared by the whole search."""

from __future__ import annotations

from typing import Any

from ..errors import ScenarioError
from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism_row import effective_stage
from ..memory.breakdown import Estimate
from ..scenario import Scenario, resolve_model, scenario_from_dict
from ..scenario.behaviour import eight_bit_optimizer_runs
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.consistency import check_consistency
from ..scenario.framework_support import distributed_optimizer_counts, layout_cannot_run, runs_method
from ..scenario.optimizer_used import optimizer_used
from ..scenario.runnable import runnable_layouts
from ..timing.step_result import StepTime
from ..workloads import estimate, require_training, step_time  # a post-training step as the step it is

_NOT_YET: Any = object()  # not estimated yet (None is a layout the consistency checks refuse)
# the keys a search sets on its own for each layout, and what you train (a method the framework lacks is a change
# of what you train, listed as such: speed_search's variants), not taken from a runnable layout by searchable()
SEARCHED = frozenset(("tp", "pp", "cp", "ep", "vpp", "pp_schedule", "zero_stage", "fsdp", "dp_shard",
                      "sequence_parallel", "micro_batch", "grad_accum", "checkpointing", "offload",
                      "optimizer_offload_fraction", "method", "pipeline_layout"))  # chunks' layout: pipeline_chunks.py


def searchable(s: Scenario) -> Scenario:
    """What a search of s's layouts starts from: s, a training scenario (refused otherwise: require_training), with
    the changes its framework needs that no layout makes (the first runnable layout's other keys: a distributed
    optimizer under Megatron-LM of 2021, which had none; engine/scenario/runnable.py), so that its layouts can run."""
    require_training(s)
    fixed = runnable_layouts(s)
    kept = {k: v for k, v in fixed[0].changes.items() if k not in SEARCHED} if fixed else {}
    return scenario_from_dict({**s.to_dict(), **kept}) if kept else s


class EstimateMemo:
    """Memory estimates (None for a layout the consistency checks refuse) and step times of the search's candidates."""

    def __init__(self) -> None:
        self.memo: dict[Scenario, Estimate | None] = {}
        # step times too: a ZeRO-2 candidate is timed as its ZeRO-1 twin, which may be another layout's candidate
        self.times: dict[Scenario, StepTime] = {}
        # the Candidates of offload, shared by the layouts it makes alike (candidates()): before they were, 1,596 of
        # the 405B search's 6,539 step times asked were asked again (benchmarks/time_speed.py)
        self.offloading: dict[tuple, Candidates] = {}

    def candidates(self, base: Scenario, keys: dict[str, Any], per_replica: int, micro: list[int], ckpt: str,
                   offload: str) -> Candidates:
        """The layout's candidates with this checkpointing and offload. Offload sets ZeRO and FSDP (candidate()), so
        layouts that differ only in them offload alike: they share one Candidates, whose scenarios and times are then
        looked up, not made and hashed again (a third of the 405B search's probes)."""
        if offload == "none":
            return Candidates(base, keys, per_replica, micro, ckpt, offload, self)
        # base by identity (the entry keeps it alive), the rest by value
        key = (id(base), *offload_keys(base, keys, offload).items(), per_replica, tuple(micro), ckpt, offload)
        found = self.offloading.get(key)
        if found is None:
            found = self.offloading[key] = Candidates(base, keys, per_replica, micro, ckpt, offload, self)
        return found

    def __call__(self, s: Scenario) -> Estimate | None:
        est = self.memo.get(s, _NOT_YET)
        if est is _NOT_YET:
            try:
                check_consistency(s, resolve_model(s))
                est = estimate(s)
            except ScenarioError:
                est = None
            self.memo[s] = est
        return est


def timed(times: dict[Scenario, StepTime], s: Scenario) -> StepTime:
    """The scenario's step time, looked up in `times` (or added to it); each lookup hashes the scenario once (a tuple
    of its 130 fields, ~2 us), not two or three times."""
    t = times.get(s)
    if t is None:
        t = times[s] = step_time(s)
    return t


def offload_keys(base: Scenario, keys: dict[str, Any], offload: str) -> dict[str, Any]:
    """The layout's keys with the sharding the offload runs with in base's framework (Parallelism.offload_sharding,
    which Make it fit asks too): DeepSpeed offloads from ZeRO-2 and 3, Megatron from its distributed optimizer, an
    FSDP-only framework the weights with the optimizer under FSDP; and Megatron's share of the optimizer as it runs
    (Parallelism.offload_share: --optimizer-offload-fraction's default 1.0 where the scenario's is 0)."""
    caps = defaults_for(base.framework).parallelism
    return {**keys, **caps.offload_sharding(keys["zero_stage"], keys["fsdp"], offload, distributed_optimizer_counts(base)),
            **caps.offload_share(offload, base.optimizer_offload_fraction)}


def framework_runs_layout(base: Scenario, keys: dict[str, Any], offload: str) -> bool:
    """Whether base's framework runs the layout with this offload and base's training method: what cannot_run would
    say of its scenario (engine/scenario/framework_support.py layout_cannot_run, asked without making it); the offload
    may deepen its ZeRO stage (offload_keys): DeepSpeed offloads only from ZeRO-2 and 3, which its pipeline refuses;
    and it must have the offload kind (FSDP-only frameworks offload the weights with the optimizer, Megatron the
    optimizer alone)."""
    k = offload_keys(base, keys, offload)
    # a layout may turn base's distributed optimizer off (layout_shardings.py: the zero-bubble schedules')
    zero = effective_stage(k["zero_stage"], k["fsdp"], distributed_optimizer_counts(base)
                           and k.get("distributed_optimizer", True))
    dp = base.world_size // (k["tp"] * k["pp"] * k["cp"])
    return not layout_cannot_run(base.framework, k["tp"], k["pp"], k["pp_schedule"], k["cp"], k["ep"], zero,
                                 base.method, offload, dp, k["fsdp"])


def method_runs(variant: Scenario, chosen: list[dict[str, Any]], ranked: list[dict[str, Any]],
                n: int) -> list[dict[str, Any]]:
    """The layouts a method/numerics variant of the search is tried on: the chosen ones its method runs (a method may
    run fewer, frameworks/parallelism.py: no tp under Hugging Face's QLoRA), else, where it runs none of them, the
    n fastest by time bound that it runs."""
    runs = [lay for lay in chosen if framework_runs_layout(variant, lay, "none")]
    if chosen and not runs:
        runs = [lay for lay in ranked if framework_runs_layout(variant, lay, "none")][:n]
    return runs


def method_variants(s: Scenario) -> list[Scenario]:
    """The method/numerics changes the speed search tries: 8-bit AdamW, LoRA (r=16, all linear layers), QLoRA, and
    where s's framework lacks s's method the nearest it has (engine/frameworks/runs.py: LoRA for Megatron's QLoRA);
    only those its framework runs on s's GPUs. Not fused AdamW: it changes nothing of what is trained, and these
    variants are shown as the plans that do (SpeedSearch.changes_what_you_train)."""
    variants = []
    if optimizer_used(s) in ("adamw", "adamw-fused") and eight_bit_optimizer_runs(s):
        variants.append(s.with_unchecked(optimizer="adamw-8bit"))
    bf16 = s.precision if s.precision in ("bf16", "fp16") else "bf16"
    if s.method not in ADAPTER_METHODS:
        variants.append(s.with_unchecked(method="lora", lora_rank=16, lora_targets="all-linear", precision=bf16))
    if s.method != "qlora":
        variants.append(s.with_unchecked(method="qlora", lora_rank=16 if s.method not in ("lora",) else s.lora_rank,
                                         lora_targets="all-linear" if s.method != "lora" else s.lora_targets,
                                         precision=bf16))
    if not runs_method(s, s.method):
        variants.append(s.with_unchecked(method=defaults_for(s.framework).runs.nearest_method(s.method, s.world_size)))
    return [v for v in variants if runs_method(v, v.method)]


def candidate(base: Scenario, keys: dict[str, Any], per_replica: int, mb: int, ckpt: str, offload: str) -> Scenario:
    return base.with_unchecked(**offload_keys(base, keys, offload), micro_batch=mb,
                               grad_accum=per_replica // mb, checkpointing=ckpt, offload=offload)


class Candidates:
    """The candidates of one layout, checkpointing and offload, by micro-batch index, each made once when asked; their
    step times likewise (the search times a candidate as a probe, as a fitting plan and as the first that does not
    fit: 7,770 step times of 4,865 distinct scenarios for Llama-3.1-405B on 1,024 GPUs, benchmarks/time_speed.py)."""

    def __init__(self, base: Scenario, keys: dict[str, Any], per_replica: int, micro: list[int], ckpt: str,
                 offload: str, memo: EstimateMemo) -> None:
        self.made: dict[int, Scenario] = {}
        self.times: dict[int, StepTime] = {}
        self.twins: dict[int, Scenario | None] = {}
        self.args = (base, keys, per_replica, micro, ckpt, offload)
        # the search's step times, not the memo itself: the memo keeps the Candidates of offload, which then must not
        # keep it (a cycle: the collector, back on after the search, walked all of it, +0.3 s)
        self.step_times = memo.times

    def __getitem__(self, i: int) -> Scenario:
        if i not in self.made:
            base, keys, per_replica, micro, ckpt, offload = self.args
            self.made[i] = candidate(base, keys, per_replica, micro[i], ckpt, offload)
        return self.made[i]

    def time(self, i: int) -> StepTime:
        """The candidate's step time; for ZeRO-2 its ZeRO-1 twin's, the least it can take (ZeRO-1 reduces the
        gradients once a step, ZeRO-2 every micro-batch: engine/timing/data_parallel.py _reduce_scatter_seconds),
        which is what the search ranks and prunes layouts by."""
        if i not in self.times:
            twin = self.zero1_twin(i)
            self.times[i] = timed(self.step_times, twin if twin is not None else self[i])
        return self.times[i]

    def settled(self, n: int, twins: int) -> tuple[list[Scenario], list[StepTime]]:
        """The first n candidates (they fit) as plans with their own step times: the first `twins` ZeRO-2 candidates
        become their ZeRO-1 twins, which fit too, the others stay ZeRO-2 at ZeRO-2's time. The twin is the plainer and
        faster plan (issue 23 item 5: ties go to the plainer plan): Megatron's distributed optimizer, which every
        Megatron recipe of the published set runs, reduces the gradients once a step, where ZeRO-2 reduce-scatters
        them in every micro-batch's backward (deepspeed/runtime/zero/stage_1_and_2.py partition_gradients;
        engine/timing/data_parallel.py _reduce_scatter_seconds). A twin holds more memory than its candidate, so the
        twins that fit are a prefix (the caller finds its length by bisection, not by estimating every twin)."""
        plans, times = [], []
        for i in range(n):
            twin = self.zero1_twin(i)
            keep = twin if twin is not None and i < twins else self[i]
            plans.append(keep)
            times.append(self.time(i) if keep is twin or twin is None else timed(self.step_times, keep))
        return plans, times

    def zero1_twin(self, i: int) -> Scenario | None:
        """Candidate i with ZeRO-1 for ZeRO-2 (None where it is not a plain ZeRO-2 candidate), made once."""
        if i not in self.twins:
            # made from the layout, not from candidate i: most twins are only timed, and candidate i then need not
            # be made at all (candidate() keeps zero_stage 2 and fsdp off only without offload)
            base, keys, per_replica, micro, ckpt, offload = self.args
            plain_zero2 = keys["zero_stage"] == 2 and not keys["fsdp"] and offload == "none"
            self.twins[i] = candidate(base, {**keys, "zero_stage": 1}, per_replica, micro[i], ckpt, offload) if (
                plain_zero2) else None
        return self.twins[i]
