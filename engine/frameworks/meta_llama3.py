"""Meta's own training stack as the Llama 3 paper describes it (arXiv:2407.21783, 'The Llama 3 Herd of Models',
section 3.3): not Megatron-LM but 'FSDP' with tensor, context and pipeline parallelism ('4D parallelism'). It is the
framework of the three Llama 3 405B pre-training rows (tests/data/published/throughput.json, Table 4), which shard
gradients and optimizer states (ZeRO-2) under a 16-stage pipeline: what Megatron-LM's own FSDP is not documented or
tested to run (engine/frameworks/parallelism.py MEGATRON, "ZeRO-2/3 with PP"), so these rows need a row of their own.

The paper states the layouts it ran, not its kernels or its memory layout: the row keeps Megatron-LM's memory facts
and time profile ("megatron") as a stand-in, as the rows did before they had their own framework; only the layouts
below are Meta's, each with the passage that states it."""

from __future__ import annotations

from dataclasses import replace

from .parallelism_row import FSDP, SHARD_GROUP_STAGES, Parallelism
from .row_type import FrameworkRow
from .shard_group_facts import ShardGroups, grouped

_PAPER = "arXiv:2407.21783 section 3.3.2"
_SOURCES = (
    ("pipeline schedules", f"{_PAPER} 'Pipeline parallelism improvements': 'we use an interleaved schedule "
     "(Narayanan et al., 2021) with V pipeline stages on one pipeline rank' (Figure 6), with N, the micro-batches "
     "a round, tuned per run; V = 1 is 1F1B; no GPipe or zero-bubble schedule is described"),
    ("ZeRO", f"{_PAPER} 'Parallelism for model scaling': 'Our use of FSDP for Llama 3 shards optimizer states and "
     "gradients, but for model shards we do not reshard after forward computation' (the rows' ZeRO-2); FSDP "
     "(Rajbhandari et al., 2020; Zhao et al., 2023b) also shards the weights at rest: every stage"),
    ("ZeRO with PP", f"{_PAPER} Table 4: every 405B stage runs that FSDP (DP 64 to 128) with PP 16"),
    ("even pipeline split", f"{_PAPER} 'Pipeline parallelism improvements': 'To balance the pipeline, we reduce "
     "one Transformer layer each from the first and the last stages': the split is set by hand, not asserted even"),
    ("tensor, context", f"{_PAPER} Table 4: TP 8, CP 1 or 16; its context parallelism is 'all-gather based ... we "
     "first all-gather the key (K) and value (V) tensors, and then compute attention output for the local query (Q) "
     "tensor chunk. Although the all-gather communication latency is exposed in the critical path ...', not a ring "
     "(cp_kv_all_gather: the gather before each layer's attention and its gradients' reduce-scatter after it, "
     "exposed)"),
    ("expert", f"{_PAPER}: Llama 3 is dense (section 3.2: 'Llama 3 uses a standard, dense Transformer "
     "architecture'); no expert parallelism is described"),
    ("offload", f"{_PAPER}: no CPU offload is described"),
)
SHARD_GROUPS = ShardGroups(SHARD_GROUP_STAGES, f"not read: {_PAPER} does not say whether FSDP shards within a "
                                               "group of the data-parallel ranks")
PARALLELISM = grouped(Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), max_zero=FSDP, max_zero_with_pp=FSDP,
                                  expert=False, offloads=("none",), sources=_SOURCES), SHARD_GROUPS)


def meta_llama3_row(megatron: FrameworkRow) -> FrameworkRow:
    """Megatron's row (its memory facts and time profile "megatron", a stand-in) with Meta's layouts (PARALLELISM)."""
    return replace(megatron, id="meta-llama3", label="Meta Llama 3 training stack", profile="megatron",
                   parallelism=PARALLELISM, megatron_core_rope=False,  # Meta's own model code, not Megatron-Core's
                   profile_step_passes=False,  # nor Megatron-Core's optimizer and its grad buffer (h-mcoreopt)
                   cp_kv_all_gather=True,  # its all-gather context parallelism, not Transformer Engine's ring
                   sources=(*megatron.sources, ("Meta's stack", "arXiv:2407.21783 section 3.3: Meta's own FSDP "
                                                "with 4D parallelism; its layouts: engine/frameworks/meta_llama3.py; "
                                                "memory facts and time profile Megatron-LM's, a stand-in")))
