"""Host seconds of one tensor-parallel all-reduce call in vLLM 0.7.3's eager model code beyond its one counted launch,
measured by running vLLM's own Python on the CPU (engine/posttraining/eager_decode.py
VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS; issue 23, verl-data's rollouts at TP 2 and 8, branch h-verlgen).

Why: benchmarks/vllm_v0_eager_decode_host.py measured the decoder layer's Python at tensor-parallel size 1, where
tensor_model_parallel_all_reduce returns at once; at TP > 1 every layer's two RowParallelLinear all-reduces
(o_proj and down_proj, reduce_results) run a Python path of their own on the host. What vLLM 0.7.3 runs per call on
a CUDA platform in an eager forward (the PyPI wheel): vllm/distributed/communication_op.py
tensor_model_parallel_all_reduce -> parallel_state.py GroupCoordinator.all_reduce (lines 287-310: world-size check,
then torch.ops.vllm.all_reduce, the op direct_register_custom_op registers at lines 120-126) -> all_reduce (lines
109-114: the group looked up by name through a weakref) -> _all_reduce_out_place -> device_communicators/
cuda_communicator.py CudaCommunicator.all_reduce (lines 48-66): with the custom all-reduce disabled (verl passes
disable_custom_all_reduce=True: verl 9466d371e verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py line 157)
PyNcclCommunicator.all_reduce (pynccl.py lines 109-133: a device assert, torch.empty_like, vllm.utils.current_stream,
seven ctypes arguments) -> pynccl_wrapper.py NCCLLibrary.ncclAllReduce (lines 282-292) and NCCL_CHECK. The custom
all-reduce's path (custom_all_reduce.py should_custom_ar, custom_all_reduce, all_reduce: torch.empty_like and
torch.ops._C_custom_ar.all_reduce) is timed too, for an engine that keeps it.

What is not vLLM's: the objects are built without their constructors (no process group, no NCCL communicator, no
CUDA): the group coordinator, communicator and library carry the attributes the path reads; ncclAllReduce is a C
function that returns 0 at once (compiled here with cc), whose host work (NCCL's enqueue and kernel launch) the model
counts as the call's one launch; the custom all-reduce's C++ op is a registered stand-in that does nothing; the ops
are registered for the CPU dispatch key (vLLM registers them for CUDA), the same torch.library dispatch. CPU tensors
stand in for the GPU's; current_stream() returns a stand-in stream (vLLM caches the stream it returns).

What is timed: time.thread_time of tensor_model_parallel_all_reduce on a [320, 32] bf16 tensor, the median of 5 runs
of 20,000 calls, less an empty loop's; in this CPU's view calls (torch.narrow, as vllm_v0_eager_decode_host.py prices
them) after taking off the one launch the model already counts (torch.add on a small tensor).

Needs an environment with torch (CPU) and vLLM 0.7.3's Python files (the wheel's vllm/ without .so, vllm/__init__.py
emptied), and a C compiler, not the planner's venv:
  PYTHONPATH=/tmp/site /tmp/samplervenv/bin/python benchmarks/vllm_v0_tp_all_reduce_host.py
"""
# ruff: noqa
import ctypes
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

try:
    import torch
    import vllm.utils as vllm_utils
    from vllm.distributed import communication_op, parallel_state
    from vllm.distributed.device_communicators import custom_all_reduce, pynccl_wrapper
    from vllm.distributed.device_communicators.cuda_communicator import CudaCommunicator
    from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v0_tp_all_reduce_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch and vLLM 0.7.3's Python files; its docstring says how to make it") from None

BATCH, HIDDEN = 320, 32  # the rows' running sequences; the width does not change the Python
REPEATS, RUNS = 20000, 5
NOOP_C = ("#include <stddef.h>\nint nccl_all_reduce(const void* a, void* b, size_t n, int d, int o, void* c, "
          "void* s) { return 0; }\n")


def noop_nccl_all_reduce():
    """A C ncclAllReduce that returns ncclSuccess at once, with vLLM's own argument and result types."""
    folder = Path(tempfile.mkdtemp())
    (folder / "noop.c").write_text(NOOP_C)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(folder / "libnoop.so"), str(folder / "noop.c")],
                   check=True)
    fn = ctypes.CDLL(str(folder / "libnoop.so")).nccl_all_reduce
    spec = next(f for f in pynccl_wrapper.NCCLLibrary.exported_functions if f.name == "ncclAllReduce")
    fn.restype, fn.argtypes = spec.restype, spec.argtypes
    return fn


class _Stream:  # what vllm.utils.current_stream() caches: pynccl reads .cuda_stream
    cuda_stream = 0


def build_group(custom: bool):
    """A tensor-parallel group of 2 as GroupCoordinator.all_reduce reaches it, with the pynccl or custom path."""
    library = object.__new__(pynccl_wrapper.NCCLLibrary)
    library._funcs = {"ncclAllReduce": noop_nccl_all_reduce()}
    nccl = object.__new__(PyNcclCommunicator)
    nccl.disabled, nccl.device, nccl.nccl, nccl.comm = False, torch.device("cpu"), library, pynccl_wrapper.ncclComm_t()
    comm = object.__new__(CudaCommunicator)
    comm.pynccl_comm, comm.ca_comm = nccl, None
    if custom:
        ca = object.__new__(custom_all_reduce.CustomAllreduce)
        ca.disabled, ca.world_size, ca.fully_connected, ca.max_size = False, 2, True, 8 * 1024 * 1024
        ca._IS_CAPTURING, ca._ptr, ca.rank, ca.buffer_ptrs = False, 0, 0, [0, 0]
        comm.ca_comm = ca
    group = object.__new__(parallel_state.GroupCoordinator)
    group.world_size, group.use_custom_op_call, group.unique_name = 2, True, f"tp-{'ca' if custom else 'nccl'}"
    group.device_communicator = comm
    parallel_state._register_group(group)
    return group


def register_cpu_ops() -> None:
    """vLLM's ops for the CPU dispatch key: its all_reduce custom op (the same function), the custom all-reduce's
    C++ op as a stand-in that does nothing."""
    vllm_utils.vllm_lib.impl("all_reduce", parallel_state.all_reduce, dispatch_key="CPU")
    lib = torch.library.Library("_C_custom_ar", "DEF")
    lib.define("all_reduce(int fa, Tensor inp, Tensor! out, int reg_buffer, int reg_buffer_sz_bytes) -> ()")
    lib.impl("all_reduce", lambda *args: None, "CPU")
    register_cpu_ops.keep = lib


def per_call(fn, repeats: int = REPEATS) -> float:
    runs = []
    for _ in range(RUNS):
        t0 = time.thread_time()
        for _ in range(repeats):
            fn()
        runs.append((time.thread_time() - t0) / repeats)
    return statistics.median(runs)


def main() -> int:
    register_cpu_ops()
    vllm_utils._current_stream = _Stream()
    x = torch.zeros(BATCH, HIDDEN, dtype=torch.bfloat16)
    a = torch.zeros(8, 8)
    empty = per_call(lambda: None)
    launch, view = per_call(lambda: torch.add(a, a)) - empty, per_call(lambda: torch.narrow(a, 0, 0, 4)) - empty
    print(f"this CPU: launch (torch.add) {launch * 1e6:.2f} us, view (torch.narrow) {view * 1e6:.2f} us")
    for custom in (False, True):
        group = build_group(custom)
        parallel_state._TP = group
        out = communication_op.tensor_model_parallel_all_reduce(x)
        assert out.shape == x.shape
        seconds = per_call(lambda: communication_op.tensor_model_parallel_all_reduce(x)) - empty
        beyond = (seconds - launch) / view
        print(f"{'custom all-reduce' if custom else 'pynccl (custom all-reduce disabled)'}: {seconds * 1e6:.2f} us a "
              f"call, {beyond:.1f} view calls beyond the counted launch")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
