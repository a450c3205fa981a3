"""Host seconds of FSDP1's DTensor state dict per parameter and of DTensor.full_tensor() per adapter tensor, as verl's
reshard runs them when it collects a LoRA policy's adapters (engine/posttraining/adapter_summon.py
DTENSOR_CHUNK_PYTHON_VIEW_CALLS and FULL_TENSOR_PYTHON_VIEW_CALLS; issue 23, verl's `reshard`, branch h-verltp8).

Why: verl 9466d371e builds its FSDP1 actor with a device mesh and sets SHARDED_STATE_DICT (fsdp_workers.py line 326,
sharding_manager/fsdp_vllm.py lines 72-80), so inside layered_summon_lora_params (verl/utils/fsdp_utils.py lines
464-495) `layer.state_dict()` runs FSDP1's _sharded_post_state_dict_hook, whose param_hook makes every parameter of
the summoned layer a DTensor through torch/distributed/fsdp/_shard_utils.py _create_chunk_dtensor (`detach().clone()`,
DTensor.from_local(..., [Replicate()], run_check=False).redistribute(placements=[Shard(0)])); verl then calls
`param.full_tensor()` on each adapter tensor (Shard(0) -> Replicate: an all-gather over the mesh).

What runs: torch's own _create_chunk_dtensor and DTensor.full_tensor on the CPU, one gloo rank, a one-rank CPU mesh
(the chunk and its redistribute are local at any mesh size: from_local does no communication with run_check False,
Replicate -> Shard(0) splits the local tensor; the all-gather of full_tensor has one rank here, so its collective's
own host work is not in the figure: a lower bound), on a [32, 64] fp32 tensor (the Python does not depend on the
size). What is timed: time.thread_time per call over 2,000 calls after 200 warm-up calls, in this CPU's view calls
(torch.narrow, as the other host benchmarks price them), the chunk less one clone (the model counts the clone as one
kernel launch and its bytes at the GPU's memory rate); the median of 5 runs.

Needs an environment with torch (CPU): the planner's own has none. Run, e.g.:
/tmp/samplervenv/bin/python benchmarks/verl_dtensor_state_dict_host.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

try:
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp._shard_utils import _create_chunk_dtensor
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"verl_dtensor_state_dict_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch (CPU), e.g. /tmp/samplervenv/bin/python") from None

RUNS, CALLS, WARM_UP = 5, 2000, 200
VIEW_CALLS = 20000  # torch.narrow and clone take a few us each: more calls for a steady figure


def per_call_seconds(fn: Any, calls: int) -> float:
    """Thread seconds of one call of `fn`, after WARM_UP calls."""
    for _ in range(WARM_UP):
        fn()
    start = time.thread_time()
    for _ in range(calls):
        fn()
    return (time.thread_time() - start) / calls


def one_run(mesh: Any, x: Any) -> tuple[float, float]:
    """(the chunk less its clone, full_tensor) in this CPU's view calls."""
    view = per_call_seconds(lambda: x.narrow(0, 0, 8), VIEW_CALLS)
    clone = per_call_seconds(lambda: x.detach().clone(), VIEW_CALLS)
    chunk = per_call_seconds(lambda: _create_chunk_dtensor(x, 0, mesh), CALLS)
    sharded = _create_chunk_dtensor(x, 0, mesh)
    full = per_call_seconds(lambda: sharded.full_tensor(), CALLS)
    print(f"view {view * 1e6:.2f} us, clone {clone * 1e6:.2f} us, _create_chunk_dtensor {chunk * 1e6:.1f} us, "
          f"full_tensor {full * 1e6:.1f} us: chunk less its clone {(chunk - clone) / view:.1f} view calls, "
          f"full_tensor {full / view:.1f}", flush=True)
    return (chunk - clone) / view, full / view


def main() -> int:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=0, world_size=1)
    try:
        mesh = init_device_mesh("cpu", (1,))
        x = torch.randn(32, 64)
        runs = [one_run(mesh, x) for _ in range(RUNS)]
    finally:
        dist.destroy_process_group()
    print(f"torch {torch.__version__}, Python {sys.version.split()[0]}: median of {RUNS} runs, "
          f"_create_chunk_dtensor less its clone {statistics.median(r[0] for r in runs):.1f} view calls a parameter, "
          f"full_tensor {statistics.median(r[1] for r in runs):.1f} view calls an adapter tensor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
