"""Limits of a scenario on its hardware: the largest micro-batch, the longest sequence, the fewest GPUs.

Each is found exactly by doubling then bisection (the engine is monotone in each; tests check it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ScenarioError
from ..memory.breakdown import Estimate
from ..models.presets import get_gpu
from ..posttraining import rl_settings
from ..posttraining.settings import ONLINE_OBJECTIVES
from ..scenario import Scenario, resolve_model
from ..scenario.consistency import check_consistency
from ..scenario.framework_support import cannot_run, capabilities, distributed_optimizer_counts
from ..workloads import estimate  # every workload: a post-training step is estimated as the step it is
from .shard_group_choice import with_fitted_shard_group

MAX_MICRO_BATCH = 4096
SEQ_STEP = 128  # max_seq_len is exact to a multiple of 128 tokens (of lcm(128, cp) under context parallelism)
MAX_SEQ_LEN = 1 << 20
MAX_GPUS = 1024
STRATEGIES = ("dp", "zero3", "tp_pp")


class Evaluator:
    """Memoised estimates: each distinct scenario is checked and estimated once per search."""

    def __init__(self, target: float = 0.0) -> None:
        self.target, self.memo, self.estimates, self.lookups = target, {}, 0, 0

    def __call__(self, s: Scenario | None) -> Estimate | None:
        if s is None:
            return None
        self.lookups += 1
        est = self.memo.get(s, self)  # self: not seen yet (None is a memoised "invalid")
        if est is self:
            try:  # cheap (cached model spec, arithmetic): candidates are built unvalidated with dataclasses.replace
                check_consistency(s, resolve_model(s))
                est = estimate(s)
                self.estimates += 1
            except ScenarioError:
                est = None
            self.memo[s] = est
        return est

    def ok(self, s: Scenario | None) -> bool:
        est = self(s)
        return est is not None and est.fits and est.headroom_bytes >= self.target * est.capacity_bytes


def largest_true(ok: Callable[[int], bool], hi: int) -> int | None:
    """Largest v in 1..hi with ok(v), ok true on a prefix: probe 1, 2, 4, ... then bisect (never a scan)."""
    if hi < 1 or not ok(1):
        return None
    good, probe = 1, 2
    while probe <= hi and ok(probe):
        good, probe = probe, probe * 2
    if probe > hi:
        if good == hi or ok(hi):
            return hi
        probe = hi
    while probe - good > 1:  # ok(good) and not ok(probe)
        mid = (good + probe) // 2
        good, probe = (mid, probe) if ok(mid) else (good, mid)
    return good


# --- limits


def node_size(s: Scenario) -> int:
    # A one-GPU set-up has no node to grow within: more GPUs are assumed to come as 8-GPU servers, except a GPU with no
    # GPU-to-GPU link at all (presets/gpus.json interconnect "none": Apple's unified-memory chips, one GPU a machine),
    # whose more GPUs are more machines: a LoRA on one Mac was offered "2 GPUs (1 x 2) with tp=2" and told "TP needs
    # fast NVLink" (user audit 7)
    if s.gpus_per_node > 1:
        return s.gpus_per_node
    return 1 if isinstance(s.gpu, str) and get_gpu(s.gpu).interconnect == "none" else 8


def gpu_counts(s: Scenario) -> list[int]:
    """World sizes min_gpus considers: powers of two up to a node, then whole nodes, up to 1024."""
    g = node_size(s)
    small = sorted({2**k for k in range(g.bit_length()) if 2**k <= g} | {g})
    return small + list(range(2 * g, MAX_GPUS + 1, g))


def tp_ok(spec: Any, t: int) -> bool:
    return spec.heads % t == 0 and (spec.kv_heads % t == 0 or t % spec.kv_heads == 0)


def counted(s: Scenario, strategy: str) -> str | None:
    """The layouts min_gpus counts for a strategy under s's framework: "dp"; "zero3", or "zero2" / "zero1" where
    the framework shards no deeper (its max_zero); "tp_pp", or "tp" / "pp" where it lacks the other; None where it
    has neither (no sharding, or neither TP nor PP): that limit does not exist for it."""
    caps = capabilities(s)
    if strategy == "zero3":
        return "zero3" if caps.max_zero >= 3 else f"zero{caps.max_zero}" if caps.max_zero else None
    if strategy == "tp_pp":
        kinds = ("tp" if caps.tensor else "") + ("_pp" if caps.pp_schedules else "")
        return {"tp_pp": "tp_pp", "tp": "tp", "_pp": "pp"}.get(kinds)
    return strategy


def with_gpus(s: Scenario, n: int, strategy: str, keep_global_batch: bool = True,
              split_engine: bool = False) -> Scenario | None:
    """s laid out on n GPUs: dp (replicas, no ZeRO), zero3 (ZeRO-3 over all) or tp_pp (TP inside a node up to 8,
    then PP), each as far as its framework runs it with s's method (counted, capabilities): sharding no deeper than
    it has, no TP or PP it lacks, a schedule it runs; None where the layout is one it cannot run or none exists.
    QLoRA shards too: FSDP and DeepSpeed ZeRO-3 partition the packed 4-bit weights (peft 5d602fdbff04
    docs/source/accelerate/fsdp.md line 242 and deepspeed.md line 241, bnb_4bit_quant_storage; Llama 2 70B on
    2 x 24 GB, fsdp.md lines 169-181, 275), torchtune's FSDP2 its NF4 tensors (engine/memory/states.py
    quantized_sharded_split says what each keeps whole).

    keep_global_batch: the gradient accumulation shrinks as the data-parallel size grows (exactly where it
    divides, else rounded down, at least 1), so it never grows with n and the memory stays monotone in n (gradients
    live through the forward pass only with accumulation). The limits line and Make it fit both count this way.

    split_engine (the limits line): a colocated generation engine split as far as n GPUs allow (engine_split); Make
    it fit keeps the scenario's and has the engine split as an axis of its own (rl_suggest.py)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    g = node_size(s)
    gpn, nodes = (n, 1) if n <= g else (g, n // g)
    spec, caps = resolve_model(s), capabilities(s)
    tp = pp = 1
    zero, offload, schedule = 0, "none", {}
    sharding: dict[str, int | bool] = {"zero_stage": 0, "fsdp": False}
    if strategy == "zero3" and (n > 1 or s.offload != "none"):  # one GPU has nothing to shard with (bar offload)
        zero = min(3, caps.max_zero)
        sharding = caps.sharding(zero)  # as the framework spells it: FSDP where that is its only sharding
        # the scenario's offload as far as this stage runs it, with the keys it runs with (Parallelism.offload_kept
        # and offload_sharding: the searches' and Make it fit's rule; FSDP's optimizer offload is ZeRO-3's)
        offload = caps.offload_kept(int(sharding["zero_stage"]), bool(sharding["fsdp"]), s.offload,
                                    distributed_optimizer_counts(s))
        if offload != "none":
            sharding = caps.offload_sharding(int(sharding["zero_stage"]), bool(sharding["fsdp"]), offload,
                                             distributed_optimizer_counts(s))
    elif strategy == "tp_pp":
        tp = max(t for t in (8, 4, 2, 1) if t <= gpn and gpn % t == 0 and tp_ok(spec, t) and (caps.tensor or t == 1))
        pp = n // tp if caps.pp_schedules else 1  # without PP the GPUs beyond TP are data-parallel replicas
        if pp > spec.layers:
            return None
        if pp > 1 and s.pp_schedule not in caps.pp_schedules:  # the schedule it runs, as runnable_layouts picks
            schedule = {"pp_schedule": "1f1b" if "1f1b" in caps.pp_schedules else caps.pp_schedules[0], "vpp": 1}
    engine = engine_split(s, n, gpn) if split_engine else {}  # as far as n GPUs let it (user audit 5)
    ga = s.grad_accum
    if keep_global_batch:  # micro x grad_accum x dp stays put when it divides evenly, else just under it
        ga = max(1, ga * s.dp // (n // (tp * pp)))
    out = with_fitted_shard_group(s.with_unchecked(gpus_per_node=gpn, nodes=nodes, tp=tp, pp=pp, cp=1, ep=1,
                                                   **sharding, offload=offload, grad_accum=ga, **schedule,
                                                   **engine))
    return None if cannot_run(out) else out


def engine_split(s: Scenario, n: int, gpus_per_node: int) -> dict[str, int]:
    """{rollout_tp: t} for a colocated generation engine on n GPUs: the largest tensor-parallel size up to a node that
    divides the n training GPUs (engine/scenario/posttraining_checks.py) and splits the heads (tp_ok, as
    engine/planning/rl_suggest.py engine_tp_choices), so the fewest-GPUs limits count the engine split, which Make it
    fit offers (a 70B GRPO at engine TP 1 read "none up to 1024" while plan 1 ran on 32 GPUs with the engine split); a
    larger split holds 1 / tp of the engine's weights on each GPU and never more memory. {} where there is no such
    engine (offline objectives, a separate or weight-sharing engine)."""
    if s.training_objective not in ONLINE_OBJECTIVES or s.rollout_placement != "colocate":
        return {}
    rs = rl_settings(s, 2)  # the engine and whether it shares the trainer's weights: no dtype enters them
    if rs.rollout_engine == "none" or rs.shares_weights:
        return {}
    spec = resolve_model(s)
    sizes = [t for t in (1, 2, 4, 8, 16) if t <= gpus_per_node and n % t == 0 and tp_ok(spec, t)]
    return {"rollout_tp": max(sizes)} if sizes else {}


def smallest_layout(s: Scenario, strategy: str, ev: Evaluator, keep_global_batch: bool = True,
                    split_engine: bool = False) -> Scenario | None:
    counts = gpu_counts(s)
    laid = [None] * len(counts)

    def ok(i: int) -> bool:
        laid[i - 1] = with_gpus(s, counts[i - 1], strategy, keep_global_batch, split_engine)
        return ev.ok(laid[i - 1])

    last_bad = largest_true(lambda i: not ok(i), len(counts))  # fits is false on a prefix, then true
    if last_bad is None:
        return laid[0]
    return None if last_bad >= len(counts) else laid[last_bad]


def seq_step(s: Scenario) -> int:
    return math.lcm(SEQ_STEP, s.cp)


@dataclass(frozen=True)
class Limits:
    max_micro_batch: int | None
    max_seq_len: int | None
    seq_len_step: int
    min_gpus: dict[str, int | None]
    # strategy -> the layouts its framework runs that were counted (counted()); None: that limit does not exist for
    # it (min_gpus None too)
    min_gpus_counted: dict[str, str | None] = field(default_factory=dict)
    engine_split_varied: bool = False  # the counts let a colocated engine's tensor parallelism grow (engine_split)


def max_micro_batch(s: Scenario, ev: Evaluator | None = None) -> int | None:
    ev = ev or Evaluator()
    return largest_true(lambda m: ev.ok(s.with_unchecked(micro_batch=m)), MAX_MICRO_BATCH)


def min_seq_len(s: Scenario) -> int:
    """The shortest sequence the model takes: the tokens of one sample's images (0 without images). A shorter one
    is refused by the model (the engine warns of it), so no plan proposes it."""
    spec = resolve_model(s)
    if not s.images_per_sample or spec.vision is None:
        return 0
    return s.images_per_sample * spec.vision.tokens_per_image(s.image_resolution or spec.vision.image_size)


def max_seq_len(s: Scenario, ev: Evaluator | None = None) -> int | None:
    ev, step = ev or Evaluator(), seq_step(s)
    top = max(resolve_model(s).max_position, MAX_SEQ_LEN) // step
    if s.training_objective != "sft":  # post-training: the prompt plus the longest completion that fits
        k = largest_true(lambda k: ev.ok(s.with_unchecked(completion_len=k * step)), top)
        return None if k is None else s.prompt_len + k * step
    k = largest_true(lambda k: ev.ok(s.with_unchecked(seq_len=k * step)), top)
    return None if k is None else k * step


def min_gpus(s: Scenario, strategy: str, ev: Evaluator | None = None) -> int | None:
    if counted(s, strategy) is None:
        return None
    found = smallest_layout(s, strategy, ev or Evaluator(), split_engine=True)
    return None if found is None else found.world_size


def limits(s: Scenario) -> Limits:
    ev = Evaluator()
    return Limits(max_micro_batch(s, ev), max_seq_len(s, ev), seq_step(s),
                  {k: min_gpus(s, k, ev) for k in STRATEGIES}, {k: counted(s, k) for k in STRATEGIES},
                  bool(engine_split(s, node_size(s), node_size(s))))
