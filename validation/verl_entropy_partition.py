"""What verl's torch.compile'd entropy_from_logits keeps and allocates (issue 22, verl's entropy bonus).

verl/workers/actor/dp_actor.py (b4aa2dce8 and e2ffa1c8) runs torch.compile(verl_F.entropy_from_logits, dynamic=True)
on the padding-free logits when entropy_coeff != 0. This script compiles the same function the way inductor does
and prints (1) the tensors AOT autograd's min-cut partitioner saves for backward (inductor's decompositions and
partitioner, as torch/_inductor/compile_fx.py uses them) and (2) every buffer inductor's generated forward and
backward allocate. CUDA autocast runs softmax and sum in fp32 and leaves logsumexp in the input dtype; those casts
are written out, so the CPU build shows the graph a bf16 CUDA run compiles. Run with the tracing venv (torch 2.13):

    validation/.venv/bin/python validation/verl_entropy_partition.py

Output at torch 2.13.0+cpu: saved = the logits (bf16, N x V) + amax, sum of exp (fp32, N x 1) and the log-sum-exp
(bf16, N x 1); forward buffers: one (N, V) fp32 (the exponentials) and per-row values; backward buffers: the (N, V)
bf16 gradient and one (N, 1) fp32 row sum. engine/posttraining/entropy.py models exactly that.
"""

from __future__ import annotations

import re

import torch
from functorch.compile import make_boxed_func, min_cut_rematerialization_partition
from torch._dynamo.backends.common import aot_autograd
from torch._inductor.decomposition import select_decomp_table
from torch._inductor.utils import run_and_get_code


def entropy_from_logits(logits: torch.Tensor) -> torch.Tensor:
    """verl/utils/torch_functional.py entropy_from_logits with CUDA autocast's casts written out."""
    pd = torch.nn.functional.softmax(logits.float(), dim=-1)
    return torch.logsumexp(logits, dim=-1) - torch.sum(pd * logits, dim=-1, dtype=torch.float32)


def saved_for_backward() -> list[str]:
    saved: list[str] = []

    def fw(gm: torch.fx.GraphModule, _inputs: list) -> object:
        out = next(n for n in gm.graph.nodes if n.op == "output")
        for node in out.args[0][1:]:
            val = node.meta.get("val")
            if isinstance(val, torch.Tensor):
                saved.append(f"{node.name}: {tuple(val.shape)} {val.dtype}")
        return make_boxed_func(gm.forward)

    backend = aot_autograd(fw_compiler=fw, bw_compiler=lambda gm, _i: make_boxed_func(gm.forward),
                           partition_fn=min_cut_rematerialization_partition, decompositions=select_decomp_table())
    f = torch.compile(entropy_from_logits, backend=backend, dynamic=True)
    f(torch.randn(64, 1000, dtype=torch.bfloat16, requires_grad=True)).sum().backward()
    return saved


def inductor_buffers() -> list[list[str]]:
    torch._dynamo.reset()
    f = torch.compile(entropy_from_logits, dynamic=True)
    x = torch.randn(64, 1000, dtype=torch.bfloat16, requires_grad=True)
    _, codes = run_and_get_code(lambda: f(x).sum().backward())
    return [re.findall(r"(buf\d+) = empty_strided_cpu\(([^)]*\)), \([^)]*\), (torch\.\w+)\)", code) for code in codes]


if __name__ == "__main__":
    print("saved for backward (min-cut partition):")
    for line in saved_for_backward():
        print("   ", line)
    for name, bufs in zip(("forward", "backward"), inductor_buffers(), strict=False):
        print(f"inductor {name} buffers:")
        for buf, shape, dtype in bufs:
            print(f"    {buf} {shape} {dtype}")
