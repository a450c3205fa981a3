"""Context parallelism (``torch.distributed.tensor.experimental.context_parallel``) on this CPU-only machine.

``context_parallel`` replaces ``F.scaled_dot_product_attention`` while it is active: q, k and v become
DTensors sharded on the sequence dimension and DTensor hands the SDPA kernel to a ring-attention handler.
PyTorch has those handlers for the CUDA kernels only (flash, memory-efficient, cuDNN); on a CPU the kernel
is ``_scaled_dot_product_flash_attention_for_cpu``, which has no handler and no sharding rule. Here it gets
one that calls PyTorch's own ring (``_templated_ring_attention`` and its backward) with the CPU kernel in
place of the CUDA flash kernel: the ring's buffers (all-gathered K/V, the fp32 merge of outputs and
logsumexps, the fp32 gradient accumulators and the all-to-all of K/V gradients) are PyTorch's, only the
per-block kernel differs, and it returns the same (output, logsumexp) pair as CUDA flash.
"""

from __future__ import annotations

from typing import Any

import torch

aten = torch.ops.aten
_CPU_FWD = aten._scaled_dot_product_flash_attention_for_cpu.default
_CPU_BWD = aten._scaled_dot_product_flash_attention_for_cpu_backward.default
SEQ_DIM = 2


def _wrap(local: torch.Tensor, mesh: Any) -> Any:
    """A sequence-sharded DTensor around one rank's block (global shape from the mesh, without communication)."""
    from torch.distributed.tensor import DTensor, Shard
    from torch.distributed.tensor._dtensor_spec import DTensorSpec, TensorMeta
    from torch.distributed.tensor._utils import compute_global_tensor_info

    placements = (Shard(SEQ_DIM),)
    shape, stride = compute_global_tensor_info(local, mesh, placements)
    spec = DTensorSpec(mesh, placements, tensor_meta=TensorMeta(torch.Size(shape), tuple(stride), local.dtype))
    return DTensor(local, spec, requires_grad=False)


def _arg(args: tuple, kwargs: dict, index: int, name: str, default: Any) -> Any:
    return args[index] if len(args) > index else kwargs.get(name, default)


def _cpu_ring_handler(op_call: Any, args: tuple, kwargs: dict) -> Any:
    from torch.distributed.tensor import DTensor
    from torch.distributed.tensor.experimental._context_parallel._attention import (
        _templated_ring_attention,
        _templated_ring_attention_backward,
    )

    info = DTensor._op_dispatcher.unwrap_to_op_info(op_call, args, kwargs)
    mesh = info.compute_mesh
    la, lk = info.local_args, info.local_kwargs
    group = mesh.get_group()
    if op_call is _CPU_FWD:
        out = _templated_ring_attention(
            group, SEQ_DIM, _CPU_FWD, query=la[0], key=la[1], value=la[2],
            is_causal=_arg(la, lk, 4, "is_causal", False), dropout_p=_arg(la, lk, 3, "dropout_p", 0.0),
            scale=lk.get("scale"))
    else:
        out = _templated_ring_attention_backward(
            group, SEQ_DIM, _CPU_BWD, grad_out=la[0], grad_out_name="grad_out", query=la[1], key=la[2],
            value=la[3], out=la[4], logsumexp=la[5], is_causal=_arg(la, lk, 7, "is_causal", False),
            dropout_p=_arg(la, lk, 6, "dropout_p", 0.0), scale=lk.get("scale"))
    return tuple(_wrap(t, mesh) for t in out)


def enable_cpu_ring_attention() -> None:
    """Route the CPU SDPA kernel (and its backward) to PyTorch's ring attention under context_parallel."""
    from torch.distributed.tensor.experimental._context_parallel import _attention

    _attention.custom_ops[_CPU_FWD] = _cpu_ring_handler
    _attention.custom_ops[_CPU_BWD] = _cpu_ring_handler
