"""Peak bytes of torchao's NF4 quantisation of one weight, and of torchtune's NF4 clone (engine/memory/nf4_build.py).

Runs torchao's own code on the CPU and tracks every storage an aten op creates (rounded up to 512 bytes, as CUDA's
caching allocator counts), so the figures are what torch.cuda.max_memory_allocated() would add on a GPU:

    pip install --no-deps --target /tmp/ao torchao==0.5.0
    PYTHONPATH=/tmp/ao validation/.venv/bin/python validation/nf4_build_measure.py

Printed (torch 2.13.0+cpu, torchao 0.5.0), bytes besides the source weight / the original NF4 weight:
    to_nf4  14336x4096 246030336   4096x4096 118230016   1024x4096 79889920   11008x4096 204495360
            8192x28672 950563840
    clone   14336x4096 823918592   4096x4096 235405312   1024x4096 88278528
The clone is torchtune's NF4 clone override (torchtune/modules/low_precision/_register_nf4_dispatch_ops.py at
f9f75bb56: to_nf4(weight.get_original_weight())), which torch 2.4's Parameter.__deepcopy__ reached through
self.data.clone().
"""

from __future__ import annotations

import math
import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

CUDA_MIN_ALLOC = 512


class StorageTracker(TorchDispatchMode):
    """Bytes of the plain-tensor storages created inside the mode: alive now and at their peak."""

    def __init__(self, existing: tuple[torch.Tensor, ...] = ()) -> None:
        super().__init__()
        self.live = 0
        self.peak = 0
        # storages that exist before (the source weight): views of them are not new allocations
        self.seen = {t.untyped_storage().data_ptr() for t in existing}

    def _add(self, t: object) -> None:
        if type(t) is not torch.Tensor:
            return
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr in self.seen or storage.nbytes() == 0:
            return
        self.seen.add(ptr)
        size = math.ceil(storage.nbytes() / CUDA_MIN_ALLOC) * CUDA_MIN_ALLOC
        self.live += size
        self.peak = max(self.peak, self.live)

        def free(ptr: int = ptr, size: int = size) -> None:
            self.live -= size
            self.seen.discard(ptr)

        weakref.finalize(storage, free)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        out = func(*args, **(kwargs or {}))
        for t in tree_flatten(out)[0]:
            self._add(t)
        return out


def main() -> None:
    from torchao.dtypes.nf4tensor import to_nf4

    for rows, cols in [(14336, 4096), (4096, 4096), (1024, 4096), (11008, 4096), (8192, 28672)]:
        w = torch.randn(rows, cols, dtype=torch.bfloat16)
        with StorageTracker((w,)) as tracker:
            to_nf4(w)
        print(f"to_nf4 {rows}x{cols}: {tracker.peak}")
    for rows, cols in [(14336, 4096), (4096, 4096), (1024, 4096)]:
        nf4 = to_nf4(torch.randn(rows, cols, dtype=torch.bfloat16))
        inner = (nf4.quantized_data, nf4.quantized_scalers, nf4.quantization_factor, nf4.scaler_mean, nf4.nf4)
        with StorageTracker(inner) as tracker:
            to_nf4(nf4.get_original_weight())
        print(f"clone  {rows}x{cols}: {tracker.peak}")


if __name__ == "__main__":
    main()
