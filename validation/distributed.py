"""Trace one rank of a distributed training step (FSDP2, DDP, TP/SP, CP, 2-D, pipelining) on this machine.

PyTorch's fake process group lets one process act as rank r of N: collectives are no-ops but every
tensor a real rank allocates (shards, all-gather outputs, reduce-scatter inputs, receive buffers) is
allocated here too, on fake tensors, and counted by ``PhaseMemTracker`` exactly as for one GPU.
``validation/crosscheck_distributed.py`` runs the same steps as 2 and 4 real gloo processes on real CPU
tensors and compares every rank to the byte.

Obstacles met and their way round (each is a line below):
* ``fully_shard`` and ``init_device_mesh`` run their mesh bookkeeping outside the fake mode;
* foreach AdamW refuses a list mixing DTensor and plain tensors: TP without SP gets two param groups;
* ``parallelize_module`` unties tied embeddings: tied again after;
* pipelining's warm-up shape vote reads values: every stage gets static input/output shapes;
* MemTracker refuses a second forward of a module within one step: per-module stats are reset per
  micro-batch;
* context parallelism's ring has no handler for the CPU SDPA kernel: validation/context_parallel.py gives it
  PyTorch's own ring.
"""

from __future__ import annotations

import contextlib
import copy
import gc
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.distributed as dist
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

from validation.measure import Run, _enter, build_model, patch_transformers_tracing
from validation.tracker import PhaseMemTracker

DP_MODES = ("fsdp", "ddp", "none")


@dataclass
class DistRun(Run):
    """A Run on ``world`` ranks: data parallel (FSDP2 or DDP) x tensor parallel x pipeline stages."""

    world: int = 1
    dp_mode: str = "fsdp"  # fsdp | ddp | none (pure tp/pp)
    tp: int = 1
    pp: int = 1
    cp: int = 1  # context parallel: the sequence is split over cp ranks (ring attention)
    ep: int = 1  # expert parallel (MoE): experts split over ep of the data-parallel ranks (torchtitan dispatch)
    sp: bool = False
    loss_parallel: bool = False
    reshard_after_forward: bool = True
    pp_schedule: str = "1f1b"  # 1f1b | gpipe | interleaved-1f1b
    vpp: int = 1
    keep_outputs: bool = True  # the schedule returns (and so keeps) the last stage's outputs
    # "per-linear": each column-parallel linear all-gathers its sequence-parallel input itself (a plain
    # parallelize_module plan); "torchtitan": torchtitan's plan (torchtitan/models/llama3/infra/parallelize.py
    # apply_tp), PrepareModuleInput gathers each block's input once for q/k/v and once for w1/w3, and the loss runs
    # on the returned logits outside the model (scenario framework "torchtitan")
    tp_plan: str = "per-linear"
    ranks: list[int] = field(default_factory=list)  # ranks to trace; empty: one per pipeline stage

    @property
    def dp(self) -> int:
        return self.world // (self.tp * self.pp * self.cp)

    def traced_ranks(self) -> list[int]:
        """Rank 0 of every pipeline stage (all ranks of one stage hold the same: TP and DP are symmetric);
        under context parallelism also the last cp rank (load-balanced ring attention treats cp ranks unevenly)."""
        if self.ranks:
            return list(self.ranks)
        if self.cp > 1:
            return [0, (self.cp - 1) * self.tp]
        return [stage * self.dp * self.cp * self.tp for stage in range(self.pp)]

    def stage_of(self, rank: int) -> int:
        return rank // (self.dp * self.cp * self.tp)

    def description(self) -> str:
        parts = [f"{self.world} ranks"]
        if self.dp > 1:
            parts.append(f"{self.dp_mode.upper()} x{self.dp}" + ("" if self.reshard_after_forward or
                                                                   self.dp_mode != "fsdp" else
                                                                   " (no reshard after forward)"))
        if self.cp > 1:
            parts.append(f"CP x{self.cp} (ring attention, load-balanced)")
        if self.ep > 1:
            parts.append(f"EP x{self.ep} (all-to-all token dispatch, balanced routing)")
        if self.tp > 1:
            parts.append(f"TP x{self.tp}" + (" + SP" if self.sp else "") + (" + loss parallel" if self.loss_parallel
                                                                            else ""))
        if self.pp > 1:
            sched = self.pp_schedule + (f" vpp={self.vpp}" if self.vpp > 1 else "")
            parts.append(f"PP x{self.pp} {sched}, {self.grad_accum} micro-batches"
                         + ("" if self.keep_outputs else ", outputs not kept"))
        return super().description() + "; " + ", ".join(parts)

    def scenario(self) -> dict[str, Any]:
        sc = super().scenario()
        sc.update(gpus_per_node=self.world, tp=self.tp, pp=self.pp)
        if self.cp > 1:
            sc["cp"] = self.cp
        if self.ep > 1:
            sc["ep"] = self.ep
        if self.dp_mode == "fsdp" and self.dp * self.cp > 1:
            sc["fsdp"] = True
            if not self.reshard_after_forward:
                sc["reshard_after_forward"] = False
        if self.sp:
            sc["sequence_parallel"] = True
        if self.loss_parallel:
            sc["loss_parallel"] = True
        if self.tp_plan == "torchtitan":
            sc["framework"] = "torchtitan"
            sc["loss_parallel"] = self.loss_parallel  # torchtitan's default is on: say which was traced
        if self.pp > 1:
            sc["pp_schedule"] = self.pp_schedule
            if not self.keep_outputs:  # torchtitan steps its schedule with return_outputs=False
                sc["framework"] = "torchtitan"
            if self.vpp > 1:
                sc["vpp"] = self.vpp
        return sc


# ---- process group and meshes -------------------------------------------------------------------------------

def init_fake_group(rank: int, world: int) -> None:
    """This process becomes rank ``rank`` of ``world`` (collectives do nothing)."""
    from torch.testing._internal.distributed.fake_pg import FakeStore

    if dist.is_initialized():
        dist.destroy_process_group()
    dist.init_process_group("fake", store=FakeStore(), rank=rank, world_size=world)


def _meshes_outside_fake_mode() -> None:
    """fully_shard concatenates the dp and tp meshes (2-D); that bookkeeping must run on real tensors."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    from torch.distributed.device_mesh import DeviceMesh

    concat = DeviceMesh._concatenate
    if getattr(concat, "_outside_fake", False):
        return

    def _concatenate(*args: Any, **kwargs: Any) -> Any:
        with unset_fake_temporarily():
            return concat(*args, **kwargs)

    _concatenate._outside_fake = True  # type: ignore[attr-defined]
    DeviceMesh._concatenate = staticmethod(_concatenate)  # type: ignore[method-assign]


_MESHES: dict[tuple, Any] = {}
_FLAT: dict[tuple[int, ...], Any] = {}  # the flattened (dp x cp) mesh FSDP shards over


def make_meshes(run: DistRun) -> Any:
    """The (pp, dp, cp, tp) device mesh; built outside any fake mode (its bookkeeping runs real ops)."""
    from torch.distributed.device_mesh import init_device_mesh

    key = (run.pp, run.dp, run.cp, run.tp)
    if key in _MESHES:  # one mesh per process: the step's context-parallel region needs the same one
        return _MESHES[key]
    _meshes_outside_fake_mode()
    mesh = init_device_mesh("cpu", (run.pp, run.dp, run.cp, run.tp), mesh_dim_names=("pp", "dp", "cp", "tp"))
    if run.cp > 1:  # FSDP shards over data and context ranks together (torchtitan's dp_shard_cp)
        _FLAT[key] = mesh["dp", "cp"]._flatten("dp_cp")
    _MESHES[key] = mesh
    return mesh


def _fsdp_mesh(run: DistRun, meshes: Any) -> Any:
    return _FLAT[(run.pp, run.dp, run.cp, run.tp)] if run.cp > 1 else meshes["dp"]


# ---- tensor parallel plan (PyTorch / torchtitan style) ------------------------------------------------------

def apply_tp(run: DistRun, model: nn.Module, tp_mesh: Any) -> None:
    """Colwise q/k/v/gate/up, Rowwise o/down; Rowwise embedding; Colwise lm_head (gathered unless loss parallel)."""
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor.parallel import (
        ColwiseParallel,
        RowwiseParallel,
        SequenceParallel,
        parallelize_module,
    )

    inner = model.model
    tied = model.config.tie_word_embeddings
    sp = run.sp
    top: dict[str, Any] = {
        "embed_tokens": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1) if sp else Replicate()),
    }
    if sp:
        top["norm"] = SequenceParallel()
    parallelize_module(inner, tp_mesh, top)
    head_out = Shard(-1) if run.loss_parallel else Replicate()
    parallelize_module(model, tp_mesh, {"lm_head": ColwiseParallel(
        input_layouts=Shard(1) if sp else Replicate(), output_layouts=head_out,
        use_local_output=not run.loss_parallel)})
    for layer in inner.layers:
        if sp and run.tp_plan == "torchtitan":
            parallelize_module(layer, tp_mesh, _torchtitan_block_plan())
            continue
        plan: dict[str, Any] = {
            "self_attn.q_proj": ColwiseParallel(input_layouts=Shard(1) if sp else Replicate()),
            "self_attn.k_proj": ColwiseParallel(input_layouts=Shard(1) if sp else Replicate()),
            "self_attn.v_proj": ColwiseParallel(input_layouts=Shard(1) if sp else Replicate()),
            "self_attn.o_proj": RowwiseParallel(output_layouts=Shard(1) if sp else Replicate()),
            "mlp.gate_proj": ColwiseParallel(input_layouts=Shard(1) if sp else Replicate()),
            "mlp.up_proj": ColwiseParallel(input_layouts=Shard(1) if sp else Replicate()),
            "mlp.down_proj": RowwiseParallel(output_layouts=Shard(1) if sp else Replicate()),
        }
        if sp:
            plan["input_layernorm"] = SequenceParallel()
            plan["post_attention_layernorm"] = SequenceParallel()
        parallelize_module(layer, tp_mesh, plan)
    if tied:  # parallelize_module replaced both parameters: share one again, as the model does
        model.lm_head.weight = inner.embed_tokens.weight


def _torchtitan_block_plan() -> dict[str, Any]:
    """torchtitan's per-block TP + SP plan (apply_tp in torchtitan/models/llama3/infra/parallelize.py): norms
    sequence-parallel, each block's input gathered once by PrepareModuleInput, then plain colwise/rowwise linears.
    transformers passes the attention input as the keyword hidden_states, the MLP's positionally."""
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor.parallel import (
        ColwiseParallel,
        PrepareModuleInput,
        RowwiseParallel,
        SequenceParallel,
    )

    return {
        "input_layernorm": SequenceParallel(),
        "self_attn": PrepareModuleInput(input_kwarg_layouts={"hidden_states": Shard(1)},
                                        desired_input_kwarg_layouts={"hidden_states": Replicate()}),
        "self_attn.q_proj": ColwiseParallel(),
        "self_attn.k_proj": ColwiseParallel(),
        "self_attn.v_proj": ColwiseParallel(),
        "self_attn.o_proj": RowwiseParallel(output_layouts=Shard(1)),
        "post_attention_layernorm": SequenceParallel(),
        "mlp": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
        "mlp.gate_proj": ColwiseParallel(),
        "mlp.up_proj": ColwiseParallel(),
        "mlp.down_proj": RowwiseParallel(output_layouts=Shard(1)),
    }


# ---- pipeline stage -----------------------------------------------------------------------------------------

class StageModule(nn.Module):
    """One pipeline stage of a decoder-only HF model: [embedding] + its layers + [final norm, lm_head]."""

    def __init__(self, hf: nn.Module, layer_ids: list[int], first: bool, last: bool) -> None:
        super().__init__()
        inner = hf.model
        self.embed_tokens = inner.embed_tokens if first else None
        self.layers = nn.ModuleDict({str(i): inner.layers[i] for i in layer_ids})
        self.rotary_emb = inner.rotary_emb
        self.norm = inner.norm if last else None
        self.lm_head = hf.lm_head if last else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.embed_tokens(x) if self.embed_tokens is not None else x
        pos = torch.arange(h.shape[1], device=h.device).unsqueeze(0)
        pe = self.rotary_emb(h, position_ids=pos)
        for layer in self.layers.values():
            h = layer(h, attention_mask=None, position_embeddings=pe, position_ids=pos)
        if self.lm_head is not None:
            h = self.lm_head(self.norm(h))
        return h


def stage_layer_ids(layers: int, chunks: int) -> list[list[int]]:
    """Even split, the first chunks take the remainder (engine/memory/parallelism/pipeline.py stage_layer_ranges)."""
    base, extra = divmod(layers, chunks)
    out, start = [], 0
    for i in range(chunks):
        n = base + (1 if i < extra else 0)
        out.append(list(range(start, start + n)))
        start += n
    return out


# ---- optimizer ----------------------------------------------------------------------------------------------

def make_dist_optimizer(run: Run, params: list[nn.Parameter]) -> torch.optim.Optimizer:
    """AdamW (foreach unless fused); DTensor and plain parameters go into separate groups."""
    from torch.distributed.tensor import DTensor

    trainable = [p for p in params if p.requires_grad]
    dt = [p for p in trainable if isinstance(p, DTensor)]
    plain = [p for p in trainable if not isinstance(p, DTensor)]
    groups = [{"params": g} for g in (dt, plain) if g]
    if run.optimizer == "adamw-fused":
        return torch.optim.AdamW(groups, lr=1e-5, fused=True)
    return torch.optim.AdamW(groups, lr=1e-5, foreach=True)


_PROPAGATING = [0]  # > 0 while DTensor computes output shapes on global-shape fake tensors


def _untracked_sharding_propagation() -> None:
    """DTensor finds output shapes by running each op on global-shape fake tensors under the active fake mode,
    which here is ours, so MemTracker would count them (a full b·s·V log-softmax under loss_parallel, say).
    A real GPU never allocates them: they are left out of the tracking."""
    from torch.distributed.tensor._sharding_prop import ShardingPropagator

    orig = ShardingPropagator._propagate_tensor_meta_non_cached
    if getattr(orig, "_untracked", False):
        return

    def _propagate(self: Any, *args: Any, **kwargs: Any) -> Any:
        _PROPAGATING[0] += 1
        try:
            return orig(self, *args, **kwargs)
        finally:
            _PROPAGATING[0] -= 1

    _propagate._untracked = True  # type: ignore[attr-defined]
    ShardingPropagator._propagate_tensor_meta_non_cached = _propagate  # type: ignore[method-assign]


class MicroBatchMemTracker(PhaseMemTracker):
    """A tracker that accepts a module's forward once per micro-batch (pipeline schedules call it many times)
    and ignores DTensor's shape propagation."""

    def _track(self, reftype: Any, t: torch.Tensor) -> None:
        if not _PROPAGATING[0]:
            super()._track(reftype, t)

    def _pre_fw_hook(self, module: nn.Module, inputs: Any) -> None:
        if module in self.memory_tracking and not self._mod_tracker.is_bw:
            fqn = self._mod_tracker.get_known_fqn(module)
            if set(self._mod_tracker.parents) - {fqn} == {"Global"}:  # a new top-level call: a new micro-batch
                del self.memory_tracking[module]
        super()._pre_fw_hook(module, inputs)


# ---- one rank -----------------------------------------------------------------------------------------------

def _loss_context(run: DistRun) -> Any:
    if run.loss_parallel and run.tp > 1:
        from torch.distributed.tensor.parallel import loss_parallel

        return loss_parallel()
    return contextlib.nullcontext()


def _vocab_parallel_loss(logits: Any, ids: torch.Tensor) -> torch.Tensor:
    """Cross-entropy on vocabulary-sharded logits under loss_parallel() (as torchtitan computes it).

    transformers' own loss reshapes the logits in ways loss_parallel does not handle, so they would be
    gathered; labels are shifted by padding (as transformers does), never by slicing the logits.
    """
    labels = torch.nn.functional.pad(ids, (0, 1), value=-100)[:, 1:]
    return torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), labels.flatten(), ignore_index=-100)


def _amp(run: Run) -> Any:
    if run.precision == "amp-bf16" and not (isinstance(run, DistRun) and run.dp_mode == "fsdp"
                                                 and run.dp * run.cp > 1):
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def build_rank(run: DistRun, rank: int, fake_mode: FakeTensorMode | None) -> tuple[nn.Module, Any, Any]:
    """Model (or pipeline stages) of this rank, parallelised; returns (module, optimizer, schedule or None)."""
    meshes = make_meshes(run)
    torch.manual_seed(0)
    model = build_model(run, fake_mode)
    ctx = fake_mode if fake_mode is not None else contextlib.nullcontext()
    if run.tp > 1:
        with ctx:
            apply_tp(run, model, meshes["tp"])
    schedule = None
    module: nn.Module = model
    if run.pp > 1:
        module, schedule = _build_pipeline(run, rank, model, meshes, ctx)
    experts: list[nn.Module] = []
    if run.ep > 1:
        experts = _build_ep(run, rank, model, ctx)
    if run.dp * run.cp > 1 and run.dp_mode == "fsdp":
        _apply_fsdp(run, module, _fsdp_mesh(run, meshes), ctx, experts)
    elif run.dp > 1 and run.dp_mode == "ddp":
        from torch.nn.parallel import DistributedDataParallel as DDP

        with ctx, _no_param_verification():
            module = DDP(module, process_group=meshes["dp"].get_group(), init_sync=False)
            module.register_comm_hook(None, _in_place_reduce_hook)
    with ctx:
        opt = make_dist_optimizer(run, list(module.parameters()))
    return module, opt, schedule


def _in_place_reduce_hook(state, bucket):  # type: ignore[no-untyped-def]  # DDP checks real annotations
    """DDP's all-reduce of a bucket, in place (as the built-in hook): the fake group's future carries no tensor."""
    buf = bucket.buffer()
    work = dist.all_reduce(buf, group=state, async_op=True)
    work.wait()
    fut: torch.futures.Future = torch.futures.Future()
    fut.set_result(buf)
    return fut


@contextlib.contextmanager
def _no_param_verification() -> Any:
    """DDP compares parameter shapes across ranks by reading their values; fake tensors have none."""
    import torch.distributed.utils as du
    import torch.nn.parallel.distributed as ddp_mod

    orig = du._verify_param_shape_across_processes
    ddp_mod._verify_param_shape_across_processes = lambda *a, **k: None  # type: ignore[attr-defined]
    # After the first step DDP re-orders its buckets by gradient arrival, agreeing on the order across ranks
    # by reading tensor values; the buckets' total size (one flat copy of the gradients) does not change.
    dist.Reducer._rebuild_buckets = lambda self: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        ddp_mod._verify_param_shape_across_processes = orig  # type: ignore[attr-defined]


def _build_ep(run: DistRun, rank: int, model: nn.Module, ctx: Any) -> list[nn.Module]:
    """Experts split over the inner ep ranks of the data-parallel ranks (torchtitan's dp_shard_in_ep)."""
    from torch.distributed.device_mesh import init_device_mesh

    from validation.expert_parallel import apply_ep

    if run.dp % run.ep or run.tp * run.pp * run.cp > 1:
        raise ValueError("expert parallelism is traced over data-parallel ranks only (ep must divide dp)")
    key = ("ep", run.dp, run.ep)
    if key not in _MESHES:
        _meshes_outside_fake_mode()
        _MESHES[key] = init_device_mesh("cpu", (run.dp // run.ep, run.ep), mesh_dim_names=("edp", "ep"))
    with ctx:
        return apply_ep(model, rank % run.ep, run.ep, _MESHES[key]["ep"].get_group())


def _apply_fsdp(run: DistRun, module: nn.Module, dp_mesh: Any, ctx: Any,
                experts: list[nn.Module] | None = None) -> None:
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    mp = (MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
          if run.precision == "amp-bf16" else MixedPrecisionPolicy())
    layers = [m for m in module.modules() if type(m).__name__.endswith("DecoderLayer")]
    kw: dict[str, Any] = dict(reshard_after_forward=run.reshard_after_forward, mp_policy=mp)
    if experts:
        kw["shard_placement_fn"] = _expert_placement(run, dp_mesh, experts)
    with ctx:
        for i, layer in enumerate(layers):
            # torchtitan's "default" policy (apply_fsdp in torchtitan/models/llama3/infra/parallelize.py): the last
            # block is not resharded after forward, as FSDP would prefetch it again at once
            last_kept = run.tp_plan == "torchtitan" and i == len(layers) - 1
            fully_shard(layer, mesh=dp_mesh, **{**kw, "reshard_after_forward": kw["reshard_after_forward"]
                                                and not last_kept})
        kw.pop("shard_placement_fn", None)
        fully_shard(module, mesh=dp_mesh, **kw)


def _expert_placement(run: DistRun, dp_mesh: Any, experts: list[nn.Module]) -> Any:
    """torchtitan's per-parameter FSDP meshes (torchtitan/distributed/fsdp.py): one FSDP unit per decoder layer;
    its experts are sharded over the ranks that hold the same experts (the efsdp mesh, kept at size 1 when
    dp == ep: FSDP still gathers them with their layer and reduces their gradients), the rest over all dp ranks."""
    from torch.distributed.fsdp._fully_shard._fsdp_common import FSDPMeshInfo, ShardPlacementResult
    from torch.distributed.tensor import Shard

    edp = FSDPMeshInfo(_MESHES[("ep", run.dp, run.ep)]["edp"], shard_mesh_dim=0)
    dense = FSDPMeshInfo(dp_mesh, shard_mesh_dim=0)
    expert_params = {p for ex in experts for p in ex.parameters()}

    def placement(param: nn.Parameter) -> Any:
        return ShardPlacementResult(placement=Shard(0), mesh_info=edp if param in expert_params else dense)

    return placement


def _build_pipeline(run: DistRun, rank: int, model: nn.Module, meshes: Any, ctx: Any) -> tuple[nn.Module, Any]:
    from torch.distributed.pipelining import PipelineStage
    from torch.distributed.pipelining.schedules import Schedule1F1B, ScheduleGPipe, ScheduleInterleaved1F1B

    _static_pipeline_shapes()
    pp_rank = run.stage_of(rank)
    chunks = run.pp * run.vpp
    ids = stage_layer_ids(run.hf_config["num_hidden_layers"], chunks)
    my_chunks = [pp_rank + k * run.pp for k in range(run.vpp)]
    group = meshes["pp"].get_group()
    b, s, h = run.micro_batch, run.seq_len, run.hf_config["hidden_size"]
    vocab = run.hf_config["vocab_size"]
    dtype = torch.bfloat16 if run.precision == "bf16" else torch.float32
    stages, mods = [], []
    with ctx:
        for c in my_chunks:
            first, last = c == 0, c == chunks - 1
            mod = StageModule(model, ids[c], first, last)
            # static shapes; requires_grad tells the stage which gradients travel back
            x = torch.zeros(b, s, dtype=torch.long) if first else torch.empty(b, s, h, dtype=dtype,
                                                                               requires_grad=True)
            y = torch.empty(b, s, vocab if last else h, dtype=dtype, requires_grad=True)
            stages.append(PipelineStage(mod, c, chunks, torch.device("cpu"), input_args=(x,), output_args=(y,),
                                        group=group))
            mods.append(mod)
    loss_fn = _pp_loss(model)
    if run.pp_schedule == "interleaved-1f1b":
        sched = ScheduleInterleaved1F1B(stages, n_microbatches=run.grad_accum, loss_fn=loss_fn)
    elif run.pp_schedule == "gpipe":
        sched = ScheduleGPipe(stages[0], n_microbatches=run.grad_accum, loss_fn=loss_fn)
    else:
        sched = Schedule1F1B(stages[0], n_microbatches=run.grad_accum, loss_fn=loss_fn)
    container = nn.ModuleList(mods)
    return container, sched


def _static_pipeline_shapes() -> None:
    """Skip pipelining's warm-up vote (it reads a tensor's value): every stage has static shapes here."""
    from torch.distributed.pipelining import schedules
    from torch.distributed.pipelining._utils import InferenceMode

    def _warmup_p2p(self: Any, stages: list[Any], has_backward: bool, p2p_done: bool) -> None:
        for stage in stages:
            stage._inference_mode = InferenceMode.STATIC

    schedules._PipelineSchedule._warmup_p2p = _warmup_p2p  # type: ignore[method-assign]


def _pp_loss(model: nn.Module) -> Any:
    vocab = model.config.vocab_size

    def loss_fn(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return model.loss_function(logits=logits, labels=labels, vocab_size=vocab)

    return loss_fn


@contextlib.contextmanager
def _cp_context(run: DistRun, cp_mesh: Any, ids: torch.Tensor, pos: torch.Tensor) -> Any:
    """Forward and backward under context_parallel (as torchtitan's train context): ids, labels and positions
    are split over the cp ranks (load-balanced head/tail chunks), SDPA runs as ring attention."""
    if run.cp == 1:
        yield ids, ids, pos
        return
    from torch.distributed.tensor.experimental import context_parallel

    from validation.context_parallel import enable_cpu_ring_attention

    enable_cpu_ring_attention()
    inputs, labels, pos = ids.clone(), ids.clone(), pos.clone()
    bufs = [inputs, labels, pos]
    with context_parallel(cp_mesh, buffers=bufs, buffer_seq_dims=[1, 1, 1], no_restore_buffers=set(bufs)):
        yield inputs, labels, pos


def _run_step(run: DistRun, rank: int, module: nn.Module, opt: Any, schedule: Any, ids: torch.Tensor,
              mt: Any, cp_mesh: Any = None) -> dict[str, Any]:
    start, start_cat = mt.current_total(), mt.current_by_category()
    fw_end = start
    if schedule is not None:  # the schedule interleaves forwards and backwards: one phase for both
        mt.reset_phase("forward")
        mt.phase_peak["backward"] = mt.current_total()
        stage = run.stage_of(rank)
        first, last = stage == 0, stage == run.pp - 1 and run.vpp == 1
        has_first = any(st.is_first for st in schedule._stages) if hasattr(schedule, "_stages") else first
        has_last = any(st.is_last for st in schedule._stages) if hasattr(schedule, "_stages") else last
        full = ids.repeat(run.grad_accum, 1)
        kw: dict[str, Any] = {}
        if has_last:
            kw["target"] = full
            kw["losses"] = []
        with _amp(run):
            if has_first:
                schedule.step(full, return_outputs=run.keep_outputs, **kw)
            else:
                schedule.step(return_outputs=run.keep_outputs, **kw)
        fw_end = mt.current_total()
    else:
        for micro in range(run.grad_accum):
            if micro:
                mt.reset_mod_stats()
            _enter(mt, "forward", micro == 0)
            # full-length positions: with SP the embedding output is a sequence shard
            pos = torch.arange(run.seq_len).unsqueeze(0)
            with _cp_context(run, cp_mesh, ids, pos) as (inputs, labels, pos):
                with _amp(run), _loss_context(run):
                    if (run.loss_parallel and run.tp > 1) or run.tp_plan == "torchtitan":
                        loss = _vocab_parallel_loss(module(input_ids=inputs, position_ids=pos,
                                                           use_cache=False).logits, labels)
                    else:
                        loss = module(input_ids=inputs, labels=labels, position_ids=pos, use_cache=False).loss
                fw_end = max(fw_end, mt.current_total())
                _enter(mt, "backward", micro == 0)
                with _loss_context(run):
                    loss.backward()
                del loss, inputs, labels, pos
    _release_module_grad_hooks()
    mt.reset_phase("optimizer")
    opt.step()
    opt.zero_grad(set_to_none=True)
    mt.reset_phase("idle")
    return {"baseline": start, "forward_end": fw_end, "baseline_cat": start_cat}


_GRAD_HOOKS: list[Any] = []


def _keep_module_grad_hook_handles() -> None:
    """MemTracker's module tracker registers ``register_multi_grad_hook`` on module inputs that require grad and
    drops the handle. On a leaf input (peft's require-grad embedding output under checkpointing) the hook sits on
    the leaf's AccumulateGrad node, which holds the leaf, and the hook's closure holds the node: a cycle through
    C++ that keeps every step's leaf and its gradient alive (validation/tracker_artefact.py). The handles are
    kept here and removed once the backward has run (the hooks have fired): a run without the tracker frees the
    leaf by then."""
    import torch.distributed._tools.mod_tracker as mod_tracker

    orig = mod_tracker.register_multi_grad_hook
    if getattr(orig, "_keeps_handles", False):
        return

    def register(*args: Any, **kwargs: Any) -> Any:
        handle = orig(*args, **kwargs)
        _GRAD_HOOKS.append(handle)
        return handle

    register._keeps_handles = True  # type: ignore[attr-defined]
    mod_tracker.register_multi_grad_hook = register


def _release_module_grad_hooks() -> None:
    while _GRAD_HOOKS:
        _GRAD_HOOKS.pop().remove()


def measure_rank(run: DistRun, rank: int, fake: bool = True, init_group: bool = True) -> dict[str, Any]:
    """Two steps as ``rank``; the second is recorded (the ``measured`` block of a ground-truth file)."""
    patch_transformers_tracing()
    _untracked_sharding_propagation()
    _keep_module_grad_hook_handles()
    if init_group:
        init_fake_group(rank, run.world)
    fake_mode = FakeTensorMode(allow_non_fake_inputs=True) if fake else None
    module, opt, schedule = build_rank(run, rank, fake_mode)
    cp_mesh = make_meshes(run)["cp"] if run.cp > 1 else None
    with fake_mode or contextlib.nullcontext():
        torch.manual_seed(1)
        ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len))
        mt = MicroBatchMemTracker()
        mt.track_external(module, opt, ids)
        with mt:
            _run_step(run, rank, module, opt, schedule, ids, mt, cp_mesh)
            mt.reset_mod_stats()
            gc.collect()
            info = _run_step(run, rank, module, opt, schedule, ids, mt, cp_mesh)
    phases = {p: mt.phase_peak[p] for p in ("forward", "backward", "optimizer")}
    peak_phase = max(phases, key=lambda p: phases[p])
    base = info["baseline_cat"]
    out = {
        "rank": rank,
        "stage": run.stage_of(rank),
        "peak_allocated_bytes": phases[peak_phase],
        "peak_phase": peak_phase,
        "phases": phases,
        "baseline_bytes": info["baseline"],
        "forward_end_bytes": info["forward_end"],
        "parameter_bytes": base.get("Parameter", 0),
        "optimizer_state_bytes": base.get("Optstate", 0),
        "by_category": {p: {k: v for k, v in mt.phase_peak_snap.get(p, {}).items() if v}
                        for p in ("forward", "backward", "optimizer")},
    }
    del module, opt, schedule, mt
    gc.collect()
    return out


def _child(run: DistRun, rank: int, conn: Any) -> None:
    try:
        conn.send(("ok", measure_rank(run, rank)))
    except Exception:  # the parent reports it
        import traceback

        conn.send(("error", traceback.format_exc()))
    conn.close()


def measure_rank_isolated(run: DistRun, rank: int) -> dict[str, Any]:
    """measure_rank in a fresh process: process groups and DTensor's mesh caches do not survive a re-init."""
    import multiprocessing as mproc

    ctx = mproc.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(run, rank, child))
    proc.start()
    child.close()
    status, value = parent.recv()
    proc.join()
    if status != "ok":
        raise RuntimeError(f"rank {rank} of {run.id} failed:\n{value}")
    return value


def measure_dist(run: DistRun) -> dict[str, Any]:
    """Every traced rank; the top level repeats the busiest one (the figure the planner must get right)."""
    ranks = [measure_rank_isolated(run, r) for r in run.traced_ranks()]
    busiest = max(ranks, key=lambda m: m["peak_allocated_bytes"])
    top = {k: v for k, v in busiest.items() if k not in ("rank", "stage")}
    top["busiest_rank"] = busiest["rank"]
    top["ranks"] = ranks
    return top


def tiny(run: DistRun, hidden: int = 256, ffn: int = 688, heads: int = 8, kv_heads: int = 4,
         vocab: int = 1024) -> DistRun:
    """A tiny copy of a run for the real multi-process cross-check."""
    small = copy.deepcopy(run)
    small.hf_config.update(hidden_size=hidden, intermediate_size=ffn, num_attention_heads=heads,
                           num_key_value_heads=kv_heads, vocab_size=vocab)
    small.hf_config.pop("head_dim", None)
    small.id = run.id + "_tiny"
    return small
