"""ZeRO-3 as DeepSpeed ran it in April 2021 (the SC21 paper's ZeRO-3 runs, framework `deepspeed-2021`): every
parameter gathered on its own and synchronously, every gradient reduce-scattered on its own, each collective with
one copy kernel per rank around it.

deepspeedai/DeepSpeed at 112ebff6e86a177608e52f7e36595ea2926ae37b (2021-04-08), deepspeed/runtime/zero/:
- stage3.py fetch_sub_module: before each submodule runs (forward, the recomputed forward of activation
  checkpointing, backward) it gathers the submodule's partitioned parameters (those of at least
  param_persistence_threshold = 1e5 elements; smaller ones persist, gathered once) with _all_gather(async_op=True),
  then _synchronize_communication: handle.wait(), comm_stream.synchronize(), torch.cuda.synchronize().
- partition_parameters.py _allgather_param, per parameter: torch.zeros of the gathered size (1 kernel),
  torch.cuda.synchronize(), a Python loop over all ranks narrowing the output into a list and copying the rank's
  own shard in (1 kernel), then torch.distributed.all_gather(partitions, ...) with that list as output. PyTorch's
  ProcessGroupNCCL (torch/lib/c10d/ProcessGroupNCCL.cpp allgather, 1.8) runs it as one flat ncclAllGather followed
  by "Copy the flattened output tensors to the outputs": one copy_ kernel per rank on the NCCL stream.
- stage3.py average_tensor -> partition_parameters.py _reduce_scatter_gradients: per parameter of the full bucket
  a div_ and _reduce_scatter_gradient, a list of one slice per rank given to torch.distributed.reduce_scatter,
  which ProcessGroupNCCL flattens first (flatten_for_scatter_gather, one copy_ per rank) before ncclReduceScatter.
  The next fetch's torch.cuda.synchronize waits for it: nothing of it hides behind the next submodule.
DeepSpeed PR #1188 replaced this ('the async version is not async at all').

Each kernel launch costs the host presets/host_overhead.json launch_seconds, each synchronisation sync_seconds (the
GPU idles for the round trip). After a synchronisation the GPU has nothing queued, so a gather lasts the longer of
the transfer (then its copies) and the host issuing the copies; a reduce-scatter's copies wait for the layer's
backward, which the host's launches can overlap."""

from __future__ import annotations

from typing import NamedTuple

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .host import host_figures

# deepspeed/runtime/zero/constants.py at 112ebff: ZERO_OPTIMIZATION_PARAM_PERSISTENCE_THRESHOLD_DEFAULT
PERSISTENCE_THRESHOLD = 100_000
GATHER_OWN_LAUNCHES = 3  # torch.zeros, the own shard's copy_, ncclAllGather (_allgather_param)
REDUCE_OWN_LAUNCHES = 2  # div_ (average_tensor), ncclReduceScatter


class Link(NamedTuple):
    """What one data-parallel collective costs apart from the copies: seconds per byte moved and latencies."""

    seconds_per_byte: float  # (ranks - 1) / ranks / link bandwidth
    gather_latency: float
    reduce_latency: float
    memory_bytes_per_s: float  # HBM: the copies read and write every gathered / reduced byte once


def layer_tensors(spec: ModelSpec, tp: int) -> tuple[list[float], list[float]]:
    """(gathered weights, every parameter tensor) of one decoder layer, in elements per rank: the nn.Linear weights
    and biases, the two norms' weights (and biases), each routed expert's three matrices. Averaged over dense and
    MoE layers by taking the dense layer's where the model has no MoE layer."""
    moe = spec.moe_layers > 0 and spec.dense_layers == 0
    tensors: list[float] = []
    for lin in spec.layer_linears(moe):
        tensors.append(lin.d_in * lin.d_out / tp)
        if lin.bias:
            tensors.append(lin.d_out / tp)
    if moe:
        tensors += [spec.hidden * spec.expert_ffn] * (3 * spec.n_experts)
    tensors += [float(spec.hidden)] * (2 * (2 if spec.norm_bias else 1))
    return [n for n in tensors if n >= PERSISTENCE_THRESHOLD], tensors


def gather_seconds(elements: float, ranks: int, elem_bytes: int, link: Link) -> float:
    """One parameter's synchronous gather: the round trip of the torch.cuda.synchronize before it, the two launches
    before the NCCL call and that call, then the longer of (transfer, then the copies out of the flat buffer) and
    the host launching one copy per rank."""
    launch, sync = host_figures()["launch_seconds"]["value"], host_figures()["sync_seconds"]["value"]
    size = elements * elem_bytes
    transfer = size * link.seconds_per_byte + link.gather_latency  # (ranks - 1) / ranks of the tensor arrives
    copies = 2 * size / link.memory_bytes_per_s
    return sync + GATHER_OWN_LAUNCHES * launch + max(transfer + copies, ranks * launch)


def reduce_seconds(tensors: list[float], ranks: int, elem_bytes: int, link: Link, backward: float) -> float:
    """A layer's reduce-scatters, one per parameter tensor, after the layer's `backward` seconds: the copies and
    transfers run after the backward, the host's launches (one copy per rank, a div_ and the NCCL call each) may
    overlap it."""
    launch = host_figures()["launch_seconds"]["value"]
    gpu = sum(n * elem_bytes * (link.seconds_per_byte + 2 / link.memory_bytes_per_s) + link.reduce_latency
              for n in tensors)
    host = len(tensors) * (ranks + REDUCE_OWN_LAUNCHES) * launch
    return max(gpu, host - backward)


def sync_zero3_seconds(s: Scenario, spec: ModelSpec, layers: int, elem_bytes: int, grad_bytes: int, link: Link,
                       backward: float) -> float:
    """Exposed seconds per micro-batch of DeepSpeed 2021's ZeRO-3 (presets/efficiency.json frameworks
    zero3_sync_gather): each gathered weight fetched in the forward, again in the recomputed forward (full
    checkpointing) and in the backward, one more synchronisation per fetched module; every parameter tensor
    reduce-scattered. The embedding (and learned positions) is the root's gathered weight."""
    sync = host_figures()["sync_seconds"]["value"]
    ranks = s.dp
    gathered, tensors = layer_tensors(spec, s.tp)
    passes = 3 if s.checkpointing == "full" else (2 if s.reshard_after_forward else 1)
    per_layer = sum(gather_seconds(n, ranks, elem_bytes, link) + sync for n in gathered)
    root = [float(spec.vocab * spec.hidden / s.tp)]
    if spec.position_embedding_params:
        root.append(float(spec.position_embedding_params))
    roots = sum(gather_seconds(n, ranks, elem_bytes, link) + sync for n in root)
    reduces = layers * reduce_seconds(tensors, ranks, grad_bytes, link, backward / max(1, layers))
    reduces += reduce_seconds(root, ranks, grad_bytes, link, 0.0)
    return passes * (layers * per_layer + roots) + reduces
