"""How the throughput search (speed_search.py) cuts a model's layers into pipeline stages and model chunks, and the
micro-batches a pipeline schedule runs: which pipeline sizes, interleaved chunk counts (with the Megatron pipeline
layout a chunk count needs where the layers do not split evenly) and micro-batch sizes it visits."""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism_row import ZERO_BUBBLE_SCHEDULES
from ..memory.parallelism.layout import trained_mtp_layers
from ..scenario import Scenario, resolve_model
from ..scenario.pipeline_ends import V_CHUNKS, V_SCHEDULES
from ..scenario.pipeline_layout import layout_chunks, uneven_layout
from ..scenario.pipeline_split import asserts_even_split, splits_evenly

# Decoder layers a model chunk holds in the uneven layouts the search makes (uneven_chunk_counts): four, as every
# DeepSeek-V3 layout of Megatron-Bridge's recipes but one ("Et*4|(t*4|)*14tmL": src/megatron/bridge/recipes/deepseek/
# deepseek_v3.py layout_map (8, 2) and (4, 4), v0.2.0 to v0.5.1; its GB200, GB300 and B200 performance presets at
# PP 4 x VP 4, PP 2 x VP 8, PP 8 x VP 2), and two, as the H100 preset ("Et|(tt|)*30mL", PP 8 x VP 4: megatron-bridge
# 25.09 DeepSeek-V3 on 1,024 H100). Each more costs the search a set of layouts (a time bound each): two sizes
# keep the DeepSeek-V3 searches at about twice their time (benchmarks/famous_runs.py).
UNEVEN_CHUNK_LAYERS = (4, 2)
# The most model chunks a rank holds in those layouts: 8, GB300's PP 2 x VP 8 (the published DeepSeek-V3 runs hold 2 to
# 8); 16 chunks a rank at PP 2 (32 of 2 layers) would cost the B200 search 360 more memory estimates for a schedule
# no recipe runs.
UNEVEN_MAX_VPP = 8


def divisors(n: int, limit: int) -> list[int]:
    """The powers of two that divide n, up to limit."""
    out, d = [], 1
    while d <= min(n, limit):
        if n % d == 0:
            out.append(d)
        d *= 2
    return out


def pipeline_sizes(n: int, layers: int, counted: int) -> list[int]:
    """Pipeline sizes for n = GPUs / (tp x cp): powers of two up to the layers (a split may then be uneven), and any
    other divisor of n that splits the layers, or the layers with the embedding and loss the scenario counts in the
    split, evenly (SC21's GPT-3 175B ran PP 12 of 96 layers and its 530B PP 35 of 105, arXiv:2104.04473 Table 2;
    NVIDIA's DGX Cloud Llama 3.1 405B PP 9 of 126, dgxc-benchmarking llama3.1 README)."""
    sizes = set(divisors(n, layers))
    sizes.update(d for d in range(3, min(n, layers) + 1) if n % d == 0 and (layers % d == 0 or counted % d == 0))
    return sorted(sizes)


def even_virtual_stages(pp: int, layers: int, counted: int, asserted: bool = False) -> list[int]:
    """Model chunks per rank of the interleaved schedule: every v > 1 that splits the layers evenly over pp x v
    chunks, counting the embedding and loss where the scenario does (consistency._split_layers; Megatron's
    get_num_layers_to_build), or, where the framework asserts its even split (`asserted`: Megatron's rows), only the
    layers it counts (pipeline_split.splits_evenly, the scenario's own rule: a split the plain layers divide but the
    counted ones do not is refused). Published recipes run 2 to 12 (SC21 Table 1: 2-3; DGX Cloud: 7, 8, 12). Three
    stand for them, as for the micro-batches: each more costs the search a layout's memory estimates, and the bubble
    falls smoothly with the chunks down to its warm-up sends (engine/timing/model.py): the fewest, the most (one layer
    per chunk, Nemotron-4 340B's VPP 12 of 96 layers at PP 8) and two layers per chunk (DGX Cloud's Llama 3.1 405B
    at PP 8 VPP 8 and PP 9 VPP 7; a middle value where no split gives two)."""
    if pp == 1:
        return []
    counts = (counted,) if asserted else (counted, layers)
    even = [v for v in range(2, counted // pp + 1) if any(splits_evenly(n, pp, v) for n in counts)]
    two = [v for v in even if any(n // (pp * v) == 2 for n in counts)]
    return sorted({even[0], (two or [even[len(even) // 2]])[0], even[-1]}) if even else []


def uneven_chunk_counts(pp: int, layers: int) -> list[int]:
    """Model chunks per rank (v > 1) of the interleaved schedule where no v splits the layers evenly: the fewest
    whose chunks hold UNEVEN_CHUNK_LAYERS decoder layers in a layout (uneven_layout), at most UNEVEN_MAX_VPP."""
    valid = [v for v in range(2, min(layers // pp + 1, UNEVEN_MAX_VPP) + 1) if uneven_layout(layers, pp * v, 0)]
    chosen: set[int] = set()
    for per in UNEVEN_CHUNK_LAYERS:
        chosen.update([v for v in valid if -(-layers // (pp * v)) == per][:1])
    return sorted(chosen)


def interleaves_evenly(layers: int, counted: int) -> bool:
    """Whether some pipeline of pp >= 2 ranks splits the layers (or those the split counts) evenly into v >= 2 chunks
    a rank: whether either count has a divisor pp x v, i.e. is a product of two numbers >= 2 (not a prime)."""
    return any(n >= 4 and any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)) for n in (layers, counted))


def virtual_stages(s: Scenario, pp: int, layers: int, counted: int) -> list[tuple[int, dict[str, Any]]]:
    """(model chunks per rank, the keys they need) of the interleaved schedule at pipeline size pp: the even splits;
    for a model that interleaves evenly at no pipeline size, under a framework that takes a pipeline layout, uneven
    chunks with their layout (61-layer DeepSeek-V3 and Kimi K2 split evenly over no chunk count, and DeepSeek-V3's
    published runs interleave: PP 8 x VP 4 on 1,024 H100, PP 4 x VP 4 on 256 GB200, PP 2 x VP 8 on 256 GB300). Not
    where an even split interleaves at some pipeline size: the interleaved layouts of those are visited already, and
    uneven ones beside them cost the Llama 3.1 405B search on 1,024 H100s (126 layers) 0.7 -> 2.3 s and its budget of
    memory estimates, a speed shortcut (benchmarks/time_speed.py). A layout of the scenario's own for that many
    chunks is kept."""
    row = defaults_for(s.framework)
    asserted = asserts_even_split(s)
    even = even_virtual_stages(pp, layers, counted, asserted)
    # the framework row's pipeline_layouts: Megatron-Core's --pipeline-model-parallel-layout (megatron/core/
    # transformer/pipeline_parallel_layer_layout.py at d98e8a6: get_num_layers_to_build returns the layout's count,
    # with no divisibility rule); Megatron-LM of 2021-2023 had none (the layers split evenly over pp x vpp)
    if even or pp == 1 or not row.pipeline_layouts or interleaves_evenly(counted if asserted else layers, counted):
        return [(v, {}) for v in even]
    mtp = trained_mtp_layers(s, resolve_model(s))
    out = []
    for v in uneven_chunk_counts(pp, layers):
        own = len(layout_chunks(s.pipeline_layout)) == pp * v
        out.append((v, {} if own else {"pipeline_layout": uneven_layout(layers, pp * v, mtp)}))
    return out


def pipeline_schedules(s: Scenario, pp: int, layers: int, counted: int) -> list[tuple[str, int, dict[str, Any]]]:
    """The (schedule, chunks a rank, layout keys) the search visits at pipeline size pp: 1F1B, interleaved 1F1B at
    each chunk count virtual_stages gives, and the zero-bubble schedules (ZB-1p, ZB-2p) where the framework's row runs
    them (engine/frameworks: the Zero Bubble fork's, not upstream Megatron-LM's), one chunk a rank, and ZB-V at its two
    chunks a rank where the layers split evenly over 2 pp chunks (the fork's megatron/arguments.py lines 193-198 at
    f68d3879: layers a stage divisible by pp, even)."""
    runs = defaults_for(s.framework).parallelism.pp_schedules
    zero_bubble = [(z, V_CHUNKS if z in V_SCHEDULES else 1, {}) for z in ZERO_BUBBLE_SCHEDULES
                   if z in runs and pp > 1 and (z not in V_SCHEDULES or layers % (V_CHUNKS * pp) == 0)]
    return [*one_chunk_a_rank(s, pp, layers, counted),
            *(("interleaved-1f1b", v, lay) for v, lay in virtual_stages(s, pp, layers, counted)), *zero_bubble]


def one_chunk_a_rank(s: Scenario, pp: int, layers: int, counted: int) -> list[tuple[str, int, dict[str, Any]]]:
    """1F1B at pipeline size pp, where the framework starts it: Megatron asserts that the layers it counts divide into
    the stages (engine/scenario/pipeline_split.py, a setting it cannot run otherwise), so where they do not, the
    layout Megatron-Bridge writes for as many chunks (uneven_layout) where the framework takes one, else none; a
    layout of the scenario's own for pp chunks is kept. A hybrid stack is split by its layer pattern (not read)."""
    if pp == 1 or splits_evenly(counted, pp, 1) or not asserts_even_split(s):
        return [("1f1b", 1, {})]
    if len(layout_chunks(s.pipeline_layout)) == pp:
        return [("1f1b", 1, {})]
    takes_layouts = defaults_for(s.framework).pipeline_layouts
    layout = uneven_layout(layers, pp, trained_mtp_layers(s, resolve_model(s))) if takes_layouts else None
    return [("1f1b", 1, {"pipeline_layout": layout})] if layout else []


def micro_batches(per_replica: int, pp: int, schedule: str) -> list[int]:
    """Micro-batches keeping the replica's share of the global batch whole. The interleaved schedule runs only when
    the micro-batches of a step come in whole groups of pp (Megatron-Core megatron/core/pipeline_parallel/
    schedules.py forward_backward_pipelining_with_interleaving: microbatch_group_size_per_vp_stage, pp by default,
    must lie in [pp, micro-batches], and a last group smaller than pp is refused)."""
    micro = divisors(per_replica, per_replica)
    if schedule == "interleaved-1f1b":
        micro = [mb for mb in micro if (per_replica // mb) % pp == 0]
    return micro
