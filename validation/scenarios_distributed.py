"""The distributed configurations measured for tests/data/ground_truth/distributed (ids are stable file names).

Reduced-depth models keep every per-layer shape (hidden size, heads, FFN, vocabulary); only the layer count
is smaller, so each rank's trace stays small on this machine. The engine gets the same reduced config.
"""

from __future__ import annotations

from typing import Any

from validation.configs import MODELS, model_config
from validation.distributed import DistRun
from validation.scenarios import make_run


def dist_run(model_key: str, layers: int | None, world: int, precision: str = "bf16", *, tp: int = 1, pp: int = 1,
             cp: int = 1, ep: int = 1, dp_mode: str = "fsdp", sp: bool = False, loss_parallel: bool = False,
             reshard: bool = True, schedule: str = "1f1b", vpp: int = 1, keep_outputs: bool = True,
             tp_plan: str = "per-linear", **kw: Any) -> DistRun:
    """Build a DistRun; id = <single-GPU id>__<parallel layout>."""
    base = make_run(model_key, precision, layers=layers, **kw)
    dp = world // (tp * pp * cp)
    tags = []
    if dp > 1:
        tags.append(f"{dp_mode}{dp}" + ("" if reshard or dp_mode != "fsdp" else "-noreshard"))
    if cp > 1:
        tags.append(f"cp{cp}")
    if ep > 1:
        tags.append(f"ep{ep}")
    if tp > 1:
        tags.append(f"tp{tp}" + ("-sp" if sp else "") + ("-lp" if loss_parallel else "")
                    + ("-titan" if tp_plan == "torchtitan" else ""))
    if tp == 1 and tp_plan == "torchtitan":
        tags.append("titan")
    if pp > 1:
        tags.append(f"pp{pp}-{schedule}" + (f"-v{vpp}" if vpp > 1 else "") + ("" if keep_outputs else "-nokeep"))
    fields = {k: getattr(base, k) for k in base.__dataclass_fields__}
    fields["id"] = f"{base.id}__{'_'.join(tags)}"
    if layers is not None and layers != MODELS[model_key][1]["num_hidden_layers"]:
        fields["note"] = "reduced depth: every per-layer shape kept"
    fields["model_name"], fields["hf_config"] = model_config(model_key, layers)
    return DistRun(**fields, world=world, dp_mode=dp_mode, tp=tp, pp=pp, cp=cp, ep=ep, sp=sp, loss_parallel=loss_parallel,
                   reshard_after_forward=reshard, pp_schedule=schedule, vpp=vpp, keep_outputs=keep_outputs,
                   tp_plan=tp_plan)


L3 = "llama-3-8b"
L1 = "llama-3.2-1b"


def fsdp_runs() -> list[DistRun]:
    return [
        dist_run(L3, 4, 8, "fp32"),
        dist_run(L3, 4, 8, "bf16"),
        dist_run(L3, 4, 8, "amp-bf16"),
        dist_run(L3, 4, 8, "amp-bf16", reshard=False),
        dist_run(L3, 4, 8, "bf16", reshard=False),
        dist_run(L3, 4, 8, "bf16", checkpointing="full"),
        dist_run(L3, 4, 8, "amp-bf16", checkpointing="full"),
        dist_run(L3, 4, 8, "amp-bf16", checkpointing="full", reshard=False),
        dist_run(L3, 4, 2, "bf16"),
        dist_run(L3, 4, 64, "bf16"),
        dist_run(L3, 4, 16, "amp-bf16", b=2),
        dist_run(L3, 4, 8, "bf16", method="lora", lora_rank=16, lora_targets="all-linear"),
        dist_run(L3, 4, 8, "bf16", method="lora", lora_rank=8, checkpointing="full"),
        dist_run(L3, 4, 8, "bf16", grad_accum=2),
        dist_run(L1, 4, 4, "bf16"),
        dist_run(L1, 4, 32, "amp-bf16"),
        dist_run("qwen2.5-7b", 4, 4, "bf16"),
        dist_run("mixtral-8x7b", 2, 8, "bf16"),
        dist_run("qwen3-30b-a3b", 2, 8, "bf16"),
    ]


def ddp_runs() -> list[DistRun]:
    return [
        dist_run(L1, 4, 2, "fp32", dp_mode="ddp"),
        dist_run(L1, 4, 4, "bf16", dp_mode="ddp"),
        dist_run(L1, 4, 8, "amp-bf16", dp_mode="ddp"),
        dist_run(L3, 2, 4, "bf16", dp_mode="ddp", checkpointing="full"),
    ]


def tp_runs() -> list[DistRun]:
    return [
        dist_run(L3, 4, 2, "bf16", tp=2, dp_mode="none"),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none"),
        dist_run(L3, 4, 8, "bf16", tp=8, dp_mode="none"),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", loss_parallel=True),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, loss_parallel=True),
        dist_run(L3, 4, 4, "amp-bf16", tp=4, dp_mode="none"),
        dist_run(L3, 4, 4, "amp-bf16", tp=4, dp_mode="none", sp=True),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, checkpointing="full"),
        dist_run(L1, 4, 2, "bf16", tp=2, dp_mode="none", sp=True),
    ]


def titan_sp_runs() -> list[DistRun]:
    """Issue 24 item 7: torchtitan's TP + SP plan (each block's input gathered once) in pure bf16 with the logits
    gathered to every rank (parallelism.disable_loss_parallel), the loss on the logits outside the model."""
    T = "torchtitan"
    return [
        dist_run(L3, 4, 2, "bf16", tp=2, dp_mode="none", sp=True, tp_plan=T),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, tp_plan=T),
        dist_run(L3, 4, 8, "bf16", tp=8, dp_mode="none", sp=True, tp_plan=T),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, tp_plan=T, b=2),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, tp_plan=T, checkpointing="full"),
        dist_run(L3, 4, 8, "bf16", tp=2, sp=True, tp_plan=T),
        # torchtitan's FSDP2 alone: the loss on the returned logits, the last block kept gathered after forward
        dist_run(L3, 4, 8, "bf16", tp_plan=T),
        dist_run(L3, 4, 8, "amp-bf16", tp_plan=T),
        dist_run(L1, 4, 2, "bf16", tp=2, dp_mode="none", sp=True, tp_plan=T),
        dist_run("qwen2.5-7b", 4, 4, "bf16", tp=4, dp_mode="none", sp=True, tp_plan=T),
        dist_run(L3, 4, 4, "bf16", tp=4, dp_mode="none", sp=True, loss_parallel=True, tp_plan=T),
        # deeper: the per-layer gathered copies weigh more against the replicated logits
        dist_run(L3, 16, 2, "bf16", tp=2, dp_mode="none", sp=True, tp_plan=T),
        dist_run(L3, 16, 4, "bf16", tp=4, dp_mode="none", sp=True, tp_plan=T),
    ]


def two_d_runs() -> list[DistRun]:
    return [
        dist_run(L3, 4, 8, "bf16", tp=2),
        dist_run(L3, 4, 8, "bf16", tp=2, sp=True),
        dist_run(L3, 4, 32, "amp-bf16", tp=4, sp=True),
        dist_run(L3, 4, 64, "bf16", tp=4, sp=True, loss_parallel=True),
        dist_run(L3, 4, 4, "bf16", tp=2, sp=True, checkpointing="full"),
    ]


def pp_runs() -> list[DistRun]:
    return [
        dist_run(L3, 4, 2, "bf16", pp=2, dp_mode="none", grad_accum=4),
        dist_run(L3, 8, 4, "bf16", pp=4, dp_mode="none", grad_accum=8),
        dist_run(L3, 8, 4, "bf16", pp=4, dp_mode="none", grad_accum=4, schedule="gpipe"),
        dist_run(L3, 8, 2, "bf16", pp=2, dp_mode="none", grad_accum=4, schedule="interleaved-1f1b", vpp=2),
        dist_run(L3, 8, 4, "bf16", pp=4, dp_mode="none", grad_accum=8, schedule="interleaved-1f1b", vpp=2),
        dist_run(L1, 4, 2, "fp32", pp=2, dp_mode="none", grad_accum=2),
        dist_run(L3, 4, 2, "bf16", pp=2, dp_mode="none", grad_accum=4, checkpointing="full"),
        # the schedule not returning the last stage's outputs (torchtitan steps with return_outputs=False)
        dist_run(L3, 4, 2, "bf16", pp=2, dp_mode="none", grad_accum=4, keep_outputs=False),
        dist_run(L3, 8, 4, "bf16", pp=4, dp_mode="none", grad_accum=4, schedule="gpipe", keep_outputs=False),
        dist_run(L3, 8, 2, "bf16", pp=2, dp_mode="none", grad_accum=4, schedule="interleaved-1f1b", vpp=2,
                 keep_outputs=False),
        dist_run(L1, 4, 2, "fp32", pp=2, dp_mode="none", grad_accum=2, keep_outputs=False),
    ]


def cp_runs() -> list[DistRun]:
    """Context parallelism (ring attention over SDPA), alone and with FSDP2 over the dp x cp ranks (torchtitan's
    dp_shard_cp); long sequences, where context parallelism is used."""
    return [
        dist_run(L3, 4, 2, "bf16", cp=2, dp_mode="none", s=8192),
        dist_run(L3, 4, 4, "bf16", cp=4, dp_mode="none", s=8192),
        dist_run(L3, 4, 4, "bf16", cp=4, dp_mode="none", s=16384, checkpointing="full"),
        dist_run(L3, 4, 4, "bf16", cp=2, s=8192),
        dist_run(L3, 4, 8, "amp-bf16", cp=4, s=16384, checkpointing="full"),
        dist_run(L3, 4, 8, "bf16", cp=4, s=16384),
        dist_run(L1, 4, 2, "bf16", cp=2, dp_mode="none", s=8192),
        dist_run(L1, 4, 16, "bf16", cp=4, s=32768, checkpointing="full"),
        dist_run(L1, 4, 4, "amp-bf16", cp=4, dp_mode="none", s=16384),
        dist_run(L3, 4, 4, "bf16", cp=2, s=8192, method="lora", lora_rank=16, lora_targets="all-linear"),
    ]


Q3 = "qwen3-30b-a3b"
MX = "mixtral-8x7b"


def ep_runs() -> list[DistRun]:
    """Expert parallelism with torchtitan's all-to-all token dispatch (validation/expert_parallel.py), FSDP2 over
    the data-parallel ranks; the experts FSDP-sharded over dp/ep when dp > ep. bf16 (the fake grouped GEMM
    accepts bf16 only)."""
    return [
        dist_run(Q3, 2, 2, "bf16", ep=2),
        dist_run(Q3, 2, 4, "bf16", ep=4),
        dist_run(Q3, 2, 8, "bf16", ep=8),
        dist_run(Q3, 2, 8, "bf16", ep=4),
        dist_run(Q3, 2, 16, "bf16", ep=8, b=2),
        dist_run(Q3, 2, 8, "bf16", ep=8, checkpointing="full"),
        dist_run(MX, 2, 8, "bf16", ep=8),
        dist_run(MX, 2, 8, "bf16", ep=2),
        dist_run(Q3, 2, 8, "amp-bf16", ep=8),
        dist_run("olmoe-1b-7b", 2, 8, "bf16", ep=4),
        dist_run(Q3, 2, 4, "bf16", ep=4, grad_accum=2),
    ]


def all_dist_runs() -> list[DistRun]:
    runs = fsdp_runs() + ddp_runs() + tp_runs() + titan_sp_runs() + two_d_runs() + pp_runs() + cp_runs() + ep_runs()
    ids = [r.id for r in runs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate ids: {sorted(dup)}")
    return runs
