"""One framework's parallelism capabilities (Parallelism): what engine/frameworks/parallelism.py's rows are made of,
and the checks the estimate and the searches run on a layout."""

from __future__ import annotations

from dataclasses import dataclass

# the scenario format's pipeline schedules (engine/scenario/choices.py PP_SCHEDULES; engine/scenario imports this package,
# so the names are repeated here and tests/test_framework_parallelism.py holds them equal)
# the zero-bubble schedules (arXiv:2401.10241: ZB-1p, ZB-2p, ZB-V; engine/timing/zero_bubble.py costs them)
ZERO_BUBBLE_SCHEDULES = ("zb-h1", "zb-2p", "zbv")
ALL_SCHEDULES = ("1f1b", "gpipe", "interleaved-1f1b", *ZERO_BUBBLE_SCHEDULES)
FSDP = 3  # FSDP full sharding shards as ZeRO-3 does (Scenario.effective_zero)
# the engine's stages (Scenario.effective_zero): 0 none, 1 optimizer states, 2 + gradients (the 16-bit weights whole on
# every rank), 3 + weights (FSDP, DeepSpeed ZeRO-3); FSDP2's reshard_after_forward=False (FSDP1's SHARD_GRAD_OP) is
# stage 3 with the scenario's reshard_after_forward key off, not stage 2: the weights stay sharded between steps
ALL_STAGES = (0, 1, 2, 3)
FSDP_STAGES = (0, 3)  # a framework whose only sharding is FSDP (and plain data parallelism)
# the sharding stages at which a framework may shard within groups smaller than the data-parallel ranks (the scenario's
# dp_shard, engine/scenario/shard_group.py: HSDP, MiCS, Megatron's optimizer instances, InternEvo's zero1): every stage
# where not read
SHARD_GROUP_STAGES = (1, 2, 3)
# the scenario format's offload kinds (engine/scenario/choices.py OFFLOADS, repeated here as ALL_SCHEDULES is)
ALL_OFFLOADS = ("none", "optimizer", "optimizer+params")
FSDP2_OFFLOAD = "FSDP2 CPUOffloadPolicy"  # FSDP2's offload (weights, gradients, optimizer), as the rows name it


def effective_stage(zero_stage: int, fsdp: bool, optimizer_sharded: bool = False) -> int:
    """The sharding stage a layout runs at: 3 under FSDP; at least 1 where Megatron's distributed optimizer shards its
    optimizer (--use-distributed-optimizer is ZeRO-1 whatever zero_stage reads; Scenario.effective_zero)."""
    return 3 if fsdp else max(zero_stage, int(optimizer_sharded))


@dataclass(frozen=True, slots=True)
class Parallelism:
    pp_schedules: tuple[str, ...] = ALL_SCHEDULES  # the pipeline schedules it runs; () : no pipeline parallelism
    max_zero: int = FSDP  # the deepest sharding it has: 0 none, 1 optimizer states, 2 + gradients, 3 + weights (FSDP)
    max_zero_with_pp: int = FSDP  # ... and the deepest it runs together with pipeline parallelism
    tensor: bool = True
    context: bool = True  # ring context parallelism, what the scenario's cp is (engine/timing/context_parallel.py)
    expert: bool = True
    # the sharding stages it has (ALL_STAGES' meaning): a framework may lack the shallower ones (FSDP only); with one
    # data-parallel rank no stage shards anything, so the stage is not checked there
    zero_stages: tuple[int, ...] = ALL_STAGES
    offloads: tuple[str, ...] = ALL_OFFLOADS  # the offload kinds it has (the scenario's offload key)
    one_gpu_offloads: tuple[str, ...] = ()  # ... and those it has on one GPU only (torchtune's single-device recipes)
    # offload kind -> the framework's own name for it, where it is not DeepSpeed's ZeRO-Offload (the plans' wording)
    offload_names: tuple[tuple[str, str], ...] = ()
    sources: tuple[tuple[str, str], ...] = ()  # (fact, where it is written); "not read" for the permissive ones
    # method (the scenario's "lora", "qlora", "freeze") -> the further limits it runs under, a row with its own sources
    methods: tuple[tuple[str, Parallelism], ...] = ()
    # the least sharding stage its optimizer offload runs from (ALL_STAGES' meaning): DeepSpeed's ZeRO-Offload from
    # ZeRO-2 (the engine's rule: the searches and Make it fit offload from ZeRO-2 and 3); a framework whose optimizer
    # offload runs with its own stage-1 sharding says so in its row, with the source
    optimizer_offload_stage: int = 2
    # the offload kinds it runs on an FSDP layout (the scenario's fsdp key): FSDP's own offload moves the weights and
    # gradients with the optimizer, which then steps on the CPU: PyTorch 0aafd810d15f torch/distributed/fsdp/api.py
    # class CPUOffload ("offload_params ... offloads gradients to CPU as well, meaning that the optimizer step runs on
    # CPU"), FSDP2's CPUOffloadPolicy (_fully_shard/_fsdp_api.py: "parameters, gradients, and optimizer states"), and
    # accelerate's fsdp_offload_params is that switch (src/accelerate/utils/dataclasses.py
    # FullyShardedDataParallelPlugin: FSDP_OFFLOAD_PARAMS -> CPUOffload(offload_params=True)): no optimizer-only
    # offload, which is DeepSpeed's ZeRO-3 offload_optimizer (offload_sharding); a framework with its own says so
    fsdp_offloads: tuple[str, ...] = ("none", "optimizer+params")
    # the share of the optimizer its optimizer offload moves as it runs (the scenario's optimizer_offload_fraction),
    # which a plan that offloads writes where the scenario's is 0; 0: the offload key alone, the whole optimizer
    # (DeepSpeed's ZeRO-Offload); Megatron's fractional HybridDeviceOptimizer sets its CLI default in its row
    optimizer_offload_fraction: float = 0.0
    # the effective sharding stages (ALL_STAGES' meaning, 3 for FSDP) at which it shards within a group of fewer than
    # all data-parallel ranks and replicates across the groups (the scenario's dp_shard); () : no such group, its
    # sharding spans every data-parallel rank. Its source is the row's "shard group" fact ("not read": every stage)
    shard_group_stages: tuple[int, ...] = SHARD_GROUP_STAGES
    # pipeline schedule -> the deepest sharding (ALL_STAGES' meaning) it runs with that schedule, where shallower than
    # max_zero_with_pp (the Zero Bubble fork's zero-bubble schedules run plain data parallelism only: its row)
    schedule_max_zero: tuple[tuple[str, int], ...] = ()
    # ZB-V runs only with an even number of layers a stage (the Zero Bubble fork asserts it after padding the layers
    # to a multiple of pp: its row); False: not read, any split allowed (the split is then uneven)
    v_even_chunks: bool = False
    # the layers (with the embedding / loss where the split counts them) must divide into pp x vpp chunks unless a
    # pipeline layout says otherwise (Megatron's rows, their "even pipeline split" source); False: not read, any
    # split allowed (the estimate splits unevenly)
    even_pipeline_split: bool = False

    def method_limits(self, method: str) -> Parallelism | None:
        """The further limits the training method runs under in this framework; None where it has none of its own."""
        return next((row for name, row in self.methods if name == method), None)

    def for_method(self, method: str) -> Parallelism:
        """This row with the method's limits applied: what the framework runs when it trains with the method."""
        row = self.method_limits(method)
        if row is None:
            return self
        return Parallelism(tuple(s for s in self.pp_schedules if s in row.pp_schedules),
                           min(self.max_zero, row.max_zero), min(self.max_zero_with_pp, row.max_zero_with_pp),
                           self.tensor and row.tensor, self.context and row.context, self.expert and row.expert,
                           tuple(z for z in self.zero_stages if z in row.zero_stages),
                           tuple(o for o in self.offloads if o in row.offloads),
                           tuple(o for o in self.one_gpu_offloads if o in row.one_gpu_offloads or o in row.offloads),
                           self.offload_names, (*self.sources, *row.sources),
                           optimizer_offload_stage=self.optimizer_offload_stage, fsdp_offloads=self.fsdp_offloads,
                           optimizer_offload_fraction=self.optimizer_offload_fraction,
                           shard_group_stages=tuple(z for z in self.shard_group_stages if z in row.shard_group_stages),
                           schedule_max_zero=self.schedule_max_zero)

    def most_zero_with(self, pp_schedule: str) -> int:
        """The deepest sharding it runs together with pipeline parallelism under this schedule (schedule_max_zero,
        else max_zero_with_pp)."""
        return min(self.max_zero_with_pp, next((z for n, z in self.schedule_max_zero if n == pp_schedule), FSDP))

    def runs_shard_group(self, stage: int) -> bool:
        """Whether it shards within groups smaller than the data-parallel ranks at this effective stage (dp_shard);
        stage 0 shards nothing, so any group is moot there and runs."""
        return stage == 0 or stage in self.shard_group_stages

    def cannot_run(self, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int,
                   method: str, offload: str = "none", dp: int = 2) -> tuple[str, ...]:
        """The settings of a layout this framework cannot run when it trains with the method, by name: "pp",
        "pp_schedule", "zero_with_pp", "zero_with_schedule", "zero", "tp", "cp", "ep", "offload" (zero is the
        effective stage: 3 for FSDP; dp the data-parallel ranks, 1 where one GPU holds the whole model: no stage shards
        anything there)."""
        out = self._refused(tp, pp, pp_schedule, cp, ep, zero, offload, dp)
        row = self.method_limits(method) if self.methods else None
        if row is None:  # what either row refuses is refused (no allocation: the searches call this per layout)
            return out
        return out + tuple(n for n in row._refused(tp, pp, pp_schedule, cp, ep, zero, offload, dp) if n not in out)

    def has_offload(self, offload: str, gpus: int) -> bool:
        """Whether it offloads this kind to CPU memory on so many GPUs."""
        return offload in self.offloads or (gpus == 1 and offload in self.one_gpu_offloads)

    def fsdp_refuses(self, fsdp: bool, offload: str, dp: int) -> bool:
        """Whether an FSDP layout cannot run the offload kind although the framework has it (fsdp_offloads: FSDP has
        no optimizer-only offload); on one data-parallel rank FSDP shards nothing (torchtune's one-GPU
        CPUOffloadOptimizer), and a kind the framework lacks altogether is has_offload's."""
        return fsdp and dp > 1 and offload not in self.fsdp_offloads and offload in self.offloads

    def offload_kept(self, zero_stage: int, fsdp: bool, offload: str, optimizer_sharded: bool = False) -> str:
        """The deepest offload, no deeper than the kind asked for, that this sharding runs without a deeper stage
        (offload_sharding read in reverse: the limits line's ZeRO-3 layout keeps the scenario's offload as far as it
        shards enough for it): optimizer+params needs stage 3, the optimizer optimizer_offload_stage."""
        stage = effective_stage(zero_stage, fsdp, optimizer_sharded)
        kinds = ("optimizer+params", "optimizer") if offload == "optimizer+params" else (offload,)
        for kind in kinds if offload != "none" else ():
            keys = self.offload_sharding(zero_stage, fsdp, kind, optimizer_sharded)
            if effective_stage(int(keys["zero_stage"]), bool(keys["fsdp"]), optimizer_sharded) <= stage:
                return kind
        return "none"

    def offload_share(self, offload: str, fraction: float) -> dict[str, float]:
        """The optimizer_offload_fraction key an offload plan runs with: the row's optimizer_offload_fraction where
        the plan offloads the optimizer and the scenario's own fraction is 0 (Megatron's --optimizer-cpu-offload
        moves --optimizer-offload-fraction of it, default 1.0, not the whole optimizer as ZeRO-Offload); {} else."""
        if offload == "optimizer" and not fraction and self.optimizer_offload_fraction:
            return {"optimizer_offload_fraction": self.optimizer_offload_fraction}
        return {}

    def offload_name(self, offload: str) -> str:
        """The framework's own name for the offload kind ("" where it is DeepSpeed's ZeRO-Offload or not read)."""
        return next((name for kind, name in self.offload_names if kind == offload), "")

    def sharding(self, stage: int) -> dict[str, int | bool]:
        """The scenario keys of a sharding stage as this framework spells it: stage 3 is FSDP (fsdp true) where FSDP is
        its only sharding (torchtitan, torchtune ...), DeepSpeed's zero_stage elsewhere."""
        if stage == 3 and 2 not in self.zero_stages:
            return {"zero_stage": 0, "fsdp": True}
        return {"zero_stage": stage, "fsdp": False}

    def offload_sharding(self, zero_stage: int, fsdp: bool, offload: str,
                         optimizer_sharded: bool = False) -> dict[str, int | bool]:
        """The sharding keys (zero_stage, fsdp) a layout runs the offload with in this framework: the layout's own
        where they shard enough, else the least stage the offload needs as the framework spells it. What the searches
        (engine/planning/search_candidates.py) and Make it fit (engine/planning/solver.py) both propose.

        optimizer: from optimizer_offload_stage (ZeRO-2; Megatron's --optimizer-cpu-offload from its distributed
        optimizer, ZeRO-1: its row); optimizer_sharded is the scenario's distributed_optimizer where its framework
        reads it, that stage whatever zero_stage says (Scenario.effective_zero). FSDP has no optimizer-only offload
        (the row's fsdp_offloads, with its sources; verl's own optimizer_offload is one, and keeps FSDP): an FSDP
        layout offloads its optimizer alone at the same stage as DeepSpeed spells it, ZeRO-3 with offload_optimizer
        (Megatron: Megatron-FSDP, which keeps the distributed optimizer), weights still sharded; where FSDP is the
        only sharding it stays (torchtune's one-GPU CPUOffloadOptimizer: no stage shards anything on one GPU).
        optimizer+params: ZeRO-3, or FSDP where that is the framework's only sharding (sharding(): torchtitan,
        torchtune, NeMo AutoModel, which have no DeepSpeed ZeRO-3 to switch to); an FSDP layout keeps FSDP and its
        own spelling of it (peft 5d602fdbff04 docs/source/accelerate/fsdp.md fsdp_offload_params for FSDP-QLoRA)."""
        if offload == "optimizer+params":
            return {"zero_stage": zero_stage, "fsdp": True} if fsdp else self.sharding(FSDP)
        if offload == "optimizer":
            need = self.optimizer_offload_stage
            if fsdp and "optimizer" not in self.fsdp_offloads:  # the same sharding as DeepSpeed spells it (FSDP's
                return self.sharding(FSDP)  # own where that is the only one: one GPU)
            if fsdp:  # an FSDP that offloads its optimizer alone (fsdp_offloads: verl's optimizer_offload)
                return {"zero_stage": zero_stage, "fsdp": True}
            if zero_stage >= need or (optimizer_sharded and need <= 1):
                return {"zero_stage": zero_stage, "fsdp": False}
            # a framework without that stage offloads from the next it has (verl's FSDP optimizer_offload); on one
            # GPU only (torchtune's CPUOffloadOptimizer) no stage shards anything, so the stage is only a name
            deeper = [z for z in self.zero_stages if z >= need] if "optimizer" in self.offloads else []
            return self.sharding(deeper[0] if deeper else need)
        return {"zero_stage": zero_stage, "fsdp": fsdp}

    def _refused(self, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int, offload: str,
                 dp: int) -> tuple[str, ...]:
        out: tuple[str, ...] = ()
        if pp > 1 and not self.pp_schedules:
            out += ("pp",)
        elif pp > 1 and pp_schedule not in self.pp_schedules:
            out += ("pp_schedule",)
        if zero > self.max_zero or (dp > 1 and zero not in self.zero_stages):
            out += ("zero",)
        elif pp > 1 and self.pp_schedules and zero > self.max_zero_with_pp:
            out += ("zero_with_pp",)
        elif pp > 1 and self.schedule_max_zero and zero > self.most_zero_with(pp_schedule):
            out += ("zero_with_schedule",)
        if tp > 1 and not self.tensor:
            out += ("tp",)
        if cp > 1 and not self.context:
            out += ("cp",)
        if ep > 1 and not self.expert:
            out += ("ep",)
        if offload != "none" and not self.has_offload(offload, 1 if dp == 1 and tp * pp * cp == 1 else 2):
            out += ("offload",)
        return out
