"""What is alive at each phase peak of a traced step: every storage by creating module, op and dtype.

Used to find the tensors the estimator misses (the distributed mechanisms, the eager-attention regime).

Usage: validation/.venv/bin/python validation/peak_breakdown.py ID  (an id from scenarios.py or
       scenarios_distributed.py; reduced-depth ids are the practical ones)  [--rank R]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.utils._pytree import tree_flatten  # noqa: E402

from validation import distributed as dmod  # noqa: E402
from validation import measure as smod  # noqa: E402

WHERE_BYTES = 0  # print where storages of exactly this many bytes are created (--where)


class _Creators(TorchDispatchMode):
    """Remembers, per storage, the op and innermost module that created it."""

    def __init__(self, mt: Any) -> None:
        super().__init__()
        self.mt = mt
        self.info: dict[int, tuple[str, str, str]] = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        parents = self.mt._mod_tracker.parents
        fqn = max(parents, key=len) if parents else "-"
        fqn = re.sub(r"layers\.\d+", "layers.*", fqn) + (" [bw]" if self.mt._mod_tracker.is_bw else "")
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                t = getattr(t, "_local_tensor", t)
                key = t.untyped_storage()._cdata
                if WHERE_BYTES and abs(t.untyped_storage().nbytes() - WHERE_BYTES) < WHERE_BYTES // 100:
                    import traceback

                    print("".join(traceback.format_stack(limit=14)[:-2]))
                self.info.setdefault(key, (fqn, func.__name__, str(t.dtype).replace("torch.", "")))
        return out


def _snapshotting(cls: type) -> type:
    class Snap(cls):  # type: ignore[misc, valid-type]
        snaps: dict[str, list[tuple[int, int, str]]]

        def _update_snap(self, u_type: Any, winfo: Any, old_mem_consumed: Any = None, old_reftype: Any = None) -> None:
            before = self.phase_peak.get(self.phase, -1)
            super()._update_snap(u_type, winfo, old_mem_consumed, old_reftype)
            if self.phase_peak.get(self.phase, -1) > before and getattr(self, "recording", False):
                live = []
                for st, (w, _) in list(self._WINFO.items()):
                    live.append((st._cdata, w.mem_consumed, w.reftype.value))
                self.snaps[self.phase] = live

    return Snap


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("id")
    ap.add_argument("--rank", type=int, default=None)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--where", type=int, default=0, help="print the stack that creates storages of this size")
    a = ap.parse_args(argv)
    global WHERE_BYTES
    WHERE_BYTES = a.where
    from validation.scenarios import all_runs
    from validation.scenarios_distributed import all_dist_runs

    runs = {r.id: r for r in [*all_runs(), *all_dist_runs()]}
    run = runs[a.id]
    creators: list[_Creators] = []
    is_dist = isinstance(run, dmod.DistRun)
    base_cls = dmod.MicroBatchMemTracker if is_dist else smod.PhaseMemTracker
    snap_cls = _snapshotting(base_cls)

    def factory() -> Any:
        mt = snap_cls()
        mt.snaps = {}
        mt.recording = False
        creators.append(_Creators(mt))
        return mt

    # second step only: record after the first step has run
    orig_reset = base_cls.reset_mod_stats

    def reset(self: Any) -> None:
        orig_reset(self)
        if not self.recording:
            self.recording = True
            creators[-1].__enter__()

    snap_cls.reset_mod_stats = reset
    if is_dist:
        dmod.MicroBatchMemTracker = factory  # type: ignore[misc, assignment]
        rank = a.rank if a.rank is not None else run.traced_ranks()[-1]
        dmod.measure_rank(run, rank)
    else:
        smod.PhaseMemTracker = factory  # type: ignore[misc, assignment]
        smod.measure(run)
    cr = creators[-1]
    cr.__exit__(None, None, None)
    mt_snaps = cr.mt.snaps
    for phase in ("forward", "backward", "optimizer"):
        live = mt_snaps.get(phase, [])
        groups: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
        for key, nbytes, cat in live:
            fqn, op, dt = cr.info.get(key, ("(before step 2)", "-", "-"))
            groups[(cat, fqn, op, dt)].append(nbytes)
        total = sum(n for _, n, _ in live)
        print(f"== {phase}: {total:,} B ({total / 2**20:.1f} MiB) in {len(live)} storages")
        rows = sorted(groups.items(), key=lambda kv: -sum(kv[1]))
        for (cat, fqn, op, dt), sizes in rows[: a.top]:
            print(f"  {sum(sizes) / 2**20:10.1f} MiB  x{len(sizes):<4} {cat:10} {dt:9} {op:38} {fqn}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
