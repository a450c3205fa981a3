"""Cross-check the one-rank fake-group traces against real multi-process runs (gloo, real CPU tensors).

For each tiny configuration, N real processes run the same two training steps with the gloo backend
and real tensors (every collective really communicates); each records its own PhaseMemTracker figures.
The same rank traced alone with the fake process group and fake tensors must agree to the byte.

Usage: validation/.venv/bin/python validation/crosscheck_distributed.py  (writes validation/crosscheck_distributed.json)
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

from validation.configs import model_config  # noqa: E402
from validation.distributed import DistRun, measure_rank, measure_rank_isolated  # noqa: E402
from validation.measure import versions  # noqa: E402

KEYS = ("phases", "baseline_bytes", "forward_end_bytes")


def tiny_run(rid: str, layers: int = 2, **kw: Any) -> DistRun:
    """Llama architecture at toy size (h=256, 8 heads / 4 KV heads, vocab 1024), 64 tokens."""
    _, cfg = model_config("llama-3.2-1b", layers)
    cfg.update(hidden_size=256, intermediate_size=688, num_attention_heads=8, num_key_value_heads=4,
               vocab_size=1024, head_dim=32, tie_word_embeddings=kw.pop("tied", False), bos_token_id=None,
               eos_token_id=None)
    base: dict[str, Any] = {"id": rid, "model_key": "llama-tiny", "model_name": "Llama, tiny", "hf_config": cfg,
                            "seq_len": 64}
    base.update(kw)
    return DistRun(**base)


def tiny_moe_run(rid: str, **kw: Any) -> DistRun:
    """Qwen3-MoE architecture at toy size (h=256, 8 experts of 128, top-2, vocab 1024), 64 tokens, bf16."""
    _, cfg = model_config("qwen3-30b-a3b", 2)
    cfg.update(hidden_size=256, intermediate_size=688, moe_intermediate_size=128, num_experts=8,
               num_experts_per_tok=2, num_attention_heads=8, num_key_value_heads=4, head_dim=32, vocab_size=1024,
               bos_token_id=None, eos_token_id=None)
    base: dict[str, Any] = {"id": rid, "model_key": "qwen3-moe-tiny", "model_name": "Qwen3-MoE, tiny",
                            "hf_config": cfg, "seq_len": 64, "precision": "bf16"}
    base.update(kw)
    return DistRun(**base)


def cases() -> list[DistRun]:
    return [
        tiny_run("fsdp2-fp32", world=2, precision="fp32"),
        tiny_run("fsdp4-bf16", world=4, precision="bf16"),
        tiny_run("fsdp2-mp-noreshard", world=2, precision="amp-bf16", reshard_after_forward=False),
        tiny_run("fsdp4-ckpt-tied", world=4, precision="bf16", checkpointing="full", tied=True),
        tiny_run("ddp2-fp32", world=2, precision="fp32", dp_mode="ddp"),
        tiny_run("tp2", world=2, precision="bf16", dp_mode="none", tp=2),
        tiny_run("tp2-sp-lossparallel", world=2, precision="bf16", dp_mode="none", tp=2, sp=True,
                 loss_parallel=True),
        tiny_run("fsdp2xtp2", world=4, precision="bf16", tp=2, sp=True),
        tiny_run("pp2-1f1b", world=2, precision="fp32", dp_mode="none", pp=2, grad_accum=2),
        tiny_run("pp4-gpipe", layers=4, world=4, precision="fp32", dp_mode="none", pp=4, grad_accum=4,
                 pp_schedule="gpipe"),
        tiny_run("pp2-interleaved", layers=4, world=2, precision="fp32", dp_mode="none", pp=2, vpp=2, grad_accum=2,
                 pp_schedule="interleaved-1f1b"),
        tiny_run("pp2-1f1b-nokeep", world=2, precision="fp32", dp_mode="none", pp=2, grad_accum=2,
                 keep_outputs=False),
        tiny_run("cp2", world=2, precision="bf16", dp_mode="none", cp=2),
        tiny_run("fsdp2xcp2-fp32", world=4, precision="fp32", cp=2),
        tiny_moe_run("fsdp2-moe", world=2),
        tiny_moe_run("fsdp2-ep2", world=2, ep=2),
        tiny_moe_run("fsdp4-ep2", world=4, ep=2),
    ]


def _worker(rank: int, run: DistRun, port: int, out_dir: str) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=run.world)
    try:
        m = measure_rank(run, rank, fake=False, init_group=False)
        Path(out_dir, f"{rank}.json").write_text(json.dumps({k: m[k] for k in KEYS}))
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def real_ranks(run: DistRun, tmp: Path) -> list[dict[str, Any]]:
    """Every rank of a real gloo run, as the tracker saw it."""
    tmp.mkdir(parents=True, exist_ok=True)
    for f in tmp.glob("*.json"):
        f.unlink()
    mp.start_processes(_worker, args=(run, _free_port(), str(tmp)), nprocs=run.world, start_method="spawn")
    return [json.loads((tmp / f"{r}.json").read_text()) for r in range(run.world)]


def main() -> int:
    import tempfile

    only = sys.argv[1:]
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        for run in cases():
            if only and run.id not in only:
                continue
            real = real_ranks(run, Path(tmpdir) / run.id)
            ranks = []
            for r in range(run.world):
                fake = measure_rank_isolated(run, r)
                fake = {k: fake[k] for k in KEYS}
                ranks.append({"rank": r, "fake_group": fake, "real_gloo": real[r], "equal": fake == real[r]})
                if fake != real[r]:
                    print(f"  rank {r}: fake {fake}\n          real {real[r]}", flush=True)
            row = {"id": run.id, "description": run.description(), "world": run.world,
                   "all_ranks_equal": all(x["equal"] for x in ranks), "ranks": ranks}
            rows.append(row)
            print(run.id, "fake == real on every rank:", row["all_ranks_equal"], flush=True)
    path = Path(__file__).parent / "crosscheck_distributed.json"
    if only and path.exists():  # a partial rerun replaces its own cases and keeps the others
        done = {r["id"] for r in rows}
        order = [c.id for c in cases()]
        kept = [r for r in json.loads(path.read_text())["cases"] if r["id"] not in done]
        rows = sorted(kept + rows, key=lambda r: order.index(r["id"]) if r["id"] in order else len(order))
    out = {"method": "one rank with the fake process group and fake tensors vs N gloo processes with real CPU "
                     "tensors; PhaseMemTracker in both; second step", "versions": versions(), "cases": rows}
    path.write_text(json.dumps(out, indent=2) + "\n")
    return 0 if all(r["all_ranks_equal"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
