"""Megatron-Core's all-to-all MoE token dispatcher (MoEAlltoAllTokenDispatcher, dropless) kernel by kernel and sync by
sync, costed, against what each Megatron-Bridge MoE row lacks per MoE layer and micro-batch (issue 23: the dropless
Qwen3-30B-A3B rows of 25.11 and 26.02 on H100 and B200 measure half their layout's token-drop or HybridEP runs).

Run: .venv/bin/python benchmarks/a2a_dispatcher.py [ID-SUBSTRING ...]   (default: every Megatron-Bridge MoE row
     without a full-iteration CUDA graph)

Read from NVIDIA/Megatron-LM megatron/core/transformer/moe/token_dispatcher.py and moe_utils.py at 0d8e0714 (the
Megatron-Core Megatron-Bridge v0.2.0 pins: the 25.11 container) and b0cc2706 (v0.3.0: 26.02); the dispatcher's code
is the same at both but for where a Transformer Engine CUDA graph of moe_preprocess moves the device-to-host copy.
The fused kernels are Transformer Engine's Triton permutation kernels (transformer_engine/pytorch/permutation.py and
pytorch/triton/permutation.py at v2.9 and v2.11, the releases v0.2.0 and v0.3.0 pin: >=2.9,<2.10 and >=2.10,<2.13);
they read no value back to the host. Each step: launches with moe_permute_fusion on (every performance recipe) and
off, host synchronisations, collectives, and the rows of hidden width each copies per token (read plus written).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.costs import layer_cost  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.host import host_call_seconds, host_figures  # noqa: E402
from engine.timing.layer_settings import expert_gemms, fp8_casts, moe_dispatch  # noqa: E402
from engine.timing.links import dispatch_seconds, link, nvlink_domain  # noqa: E402
from engine.timing.model import rates_for  # noqa: E402


class Step(NamedTuple):
    """One step of the dispatcher in one direction of one MoE layer and micro-batch."""

    way: str  # "forward" or "backward"
    what: str
    fused: int  # kernel launches with moe_permute_fusion (NCCL collectives count one each)
    unfused: int  # without it
    syncs_fused: int  # host synchronisations (the host waits for the GPU)
    syncs_unfused: int
    collective: str  # "" | "small" (latency-bound: token counts, probabilities) | "tokens" (the routed rows)
    token_rows: int  # rows of hidden width read plus written, per token
    copy_rows: int  # per routed copy (top_k a token)
    source: str


# token_dispatcher.py line numbers at 0d8e0714 (MoEAlltoAllTokenDispatcher), moe_utils.py likewise
STEPS: tuple[Step, ...] = (
    Step("forward", "preprocess: routing_map.sum(dim=0).long(), input_splits = reshape(ep, local).sum(1)", 3, 3, 0, 0,
         "", 0, 0, "token_dispatcher.py 519, 539-541"),
    Step("forward", "preprocess: all-gather of the token counts over the TP x EP group", 1, 1, 0, 0, "small", 0, 0,
         "token_dispatcher.py 546-552 gather_from_sequence_parallel_region(num_local_tokens_per_expert)"),
    Step("forward", "preprocess: local-expert slice .contiguous(), per-rank sums, TP sums, per-expert sums", 4, 4, 0, 0,
         "", 0, 0, "token_dispatcher.py 554-568"),
    Step("forward", "device-to-host copies on cuda_dtoh_stream (tokens_per_expert, input/output splits, TP splits; "
         "unfused also num_global_tokens_per_local_expert) and an event", 5, 6, 0, 0, "", 0, 0,
         "token_dispatcher.py 870-905 _maybe_dtoh_and_synchronize at cuda_dtoh_point 'before_permutation_1'"),
    Step("forward", "permute: fused make_row_id_map (3 Triton passes) + _permute_kernel (token read once, written to "
         "each routed copy, probs beside it); unfused arange/expand, masked_select of indices and of probs (each "
         "sizes its output on the host), probs transpose, index_select", 4, 8, 0, 2, "", 1, 1,
         "moe_utils.py 221-305 permute; TE pytorch/triton/permutation.py make_row_id_map, permute_with_mask_map"),
    Step("forward", "sync: d2h_event.synchronize() before the all-to-all (dropless, EP > 1: the splits must be host "
         "lists)", 0, 0, 1, 1, "", 0, 0, "token_dispatcher.py 572 _maybe_update_cuda_sync_point('before_ep_alltoall'), "
         "907"),
    Step("forward", "dispatch all-to-all of the routed rows (NCCL grouped send/recv per peer, uneven splits)", 1, 1, 0,
         0, "tokens", 0, 0, "token_dispatcher.py 674-676 all_to_all(ep_group, tokens, output_splits, input_splits)"),
    Step("forward", "dispatch all-to-all of the permuted probabilities (same splits)", 1, 1, 0, 0, "small", 0, 0,
         "token_dispatcher.py 677-679"),
    Step("forward", "sort_chunks_by_idxs by local expert: fused make_chunk_sort_map + sort kernel (tokens and probs); "
         "unfused torch.split of host sizes + cat, for tokens and for probs", 2, 2, 0, 0, "", 0, 2,
         "token_dispatcher.py 740-746; moe_utils.py 415-426; TE make_chunk_sort_map, sort_chunks_by_map"),
    Step("forward", "combine: reverse sort_chunks_by_idxs", 2, 1, 0, 0, "", 0, 2, "token_dispatcher.py 773-778"),
    Step("forward", "combine all-to-all of the experts' rows", 1, 1, 0, 0, "tokens", 0, 0,
         "token_dispatcher.py token_combine all_to_all(ep_group, hidden, input_splits, output_splits)"),
    Step("forward", "unpermute: fused _unpermute_kernel (reads each copy, writes the summed token); unfused zeros + "
         "index_add", 1, 2, 0, 0, "", 1, 1, "token_dispatcher.py combine_postprocess; moe_utils.py 308-390"),
    Step("backward", "unpermute's backward: permute_with_mask_map of the output gradient", 1, 1, 0, 0, "", 1, 1,
         "TE pytorch/permutation.py 387-455 _moe_unpermute_mask_map.backward"),
    Step("backward", "combine all-to-all's backward", 1, 1, 0, 0, "tokens", 0, 0,
         "tensor_parallel/mappings.py _AllToAll.backward: the same splits swapped, host lists saved in ctx"),
    Step("backward", "both sort_chunks_by_idxs backward (sort_chunks_by_map with the saved map)", 2, 2, 0, 0, "", 0, 4,
         "TE pytorch/permutation.py 684-710 _moe_chunk_sort.backward"),
    Step("backward", "dispatch all-to-all's backward of the rows", 1, 1, 0, 0, "tokens", 0, 0,
         "mappings.py _AllToAll.backward"),
    Step("backward", "dispatch all-to-all's backward of the probabilities", 1, 1, 0, 0, "small", 0, 0,
         "mappings.py _AllToAll.backward"),
    Step("backward", "permute's backward: unpermute_with_mask_map (row gradient summed, probs gradient)", 1, 1, 0, 0,
         "", 1, 1, "TE pytorch/permutation.py 302-330 _moe_permute_mask_map.backward"),
)


def totals(fused: bool = True) -> dict[str, dict[str, int]]:
    """Per direction: launches, syncs, latency-bound collectives, all-to-alls of routed rows, token and copy rows."""
    out: dict[str, dict[str, int]] = {}
    for st in STEPS:
        t = out.setdefault(st.way, {"launches": 0, "syncs": 0, "small": 0, "tokens": 0, "token_rows": 0,
                                    "copy_rows": 0})
        t["launches"] += st.fused if fused else st.unfused
        t["syncs"] += st.syncs_fused if fused else st.syncs_unfused
        if st.collective:
            t[st.collective] += 1
        t["token_rows"] += st.token_rows
        t["copy_rows"] += st.copy_rows
    return out


def row_costs(s) -> dict[str, float]:
    """Seconds per MoE layer and micro-batch (forward + backward) of each part of the dispatcher for scenario `s`,
    serial (an upper bound: nothing hidden), and the permutation seconds the model counts with the generic passes
    and with the kernel-by-kernel count."""
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    tokens = s.micro_batch * s.seq_len / s.cp
    node = nvlink_domain(s, hw)
    lat = link(hw, s.tp * s.cp * s.ep, node, s.tp * s.cp)[1]
    launch, _call = host_call_seconds(s)
    sync = host_figures()["sync_seconds"]["value"]
    a2a = dispatch_seconds(tokens * spec.hidden * rates.elem_bytes, spec, s, hw)
    t = totals(True)
    row = spec.hidden * rates.elem_bytes
    rows = sum(t[w]["token_rows"] + spec.top_k * t[w]["copy_rows"] for w in t)
    disp = moe_dispatch(s, prof, node)
    costs = {}
    for name in ("", "megatron"):
        c = layer_cost(spec, True, tokens, s.seq_len, s.tp, s.ep, s.cp, s.sequence_parallel, rates, "fused", "fused",
                       fp8_casts(s, prof), (), 0, None, **{**expert_gemms(s, prof), **disp, "permutation": name})
        costs[name] = c.elem_fwd + c.elem_bwd
    return {
        "launches": sum(t[w]["launches"] for w in t) * launch,
        "syncs": sum(t[w]["syncs"] for w in t) * (sync + launch),
        "small": sum(t[w]["small"] for w in t) * lat,
        "alltoall": sum(t[w]["tokens"] for w in t) * (a2a + lat),
        "permutation": tokens * rows * row / rates.memory,
        "generic_minus_kernels": costs[""] - costs["megatron"],
    }


def main() -> None:
    from moe_step_gap import gaps  # noqa: PLC0415 (the sibling benchmark: measured minus predicted per layer)

    for fused in (True, False):
        t = totals(fused)
        print(f"moe_permute_fusion {'on ' if fused else 'off'}: " + "; ".join(
            f"{w} {v['launches']} launches, {v['syncs']} host syncs, {v['small']} latency-bound collectives, "
            f"{v['tokens']} all-to-alls of routed rows" for w, v in t.items()))
    t = totals(True)
    print("rows of hidden width per token (fused): " + ", ".join(
        f"{w} {v['token_rows']} + {v['copy_rows']} x top_k" for w, v in t.items()))
    by_id = {r["id"]: r for r in load_rows()}
    ratios: list[float] = []
    print(f"\n{'row':72s} {'disp':8s} {'lacks':>7s} {'a2a':>6s} {'perm':>6s} {'launch':>6s} {'sync':>5s} "
          f"{'small':>5s} {'sum':>6s} {'gen-k':>6s}   (ms per MoE layer and micro-batch, forward + backward)")
    for _local, dispatcher, missing, what in gaps(sys.argv[1:]):
        row_id = what.split()[-1]
        s = scenario_from_dict(by_id[row_id]["scenario"])
        if s.ep < 2 or dispatcher != "alltoall":
            continue
        c = {k: 1e3 * v for k, v in row_costs(s).items()}
        whole = c["launches"] + c["syncs"] + c["small"] + c["alltoall"] + c["permutation"]
        ratios.append(missing / whole)
        print(f"{row_id[16:88]:72s} {dispatcher:8s} {missing:+7.2f} {c['alltoall']:6.2f} {c['permutation']:6.2f} "
              f"{c['launches']:6.2f} {c['syncs']:5.2f} {c['small']:5.2f} {whole:6.2f} {c['generic_minus_kernels']:6.2f}")
    print("\nlacks: measured minus predicted step per MoE layer and micro-batch (benchmarks/moe_step_gap.py); a2a, perm, "
          "launch, sync, small: the dispatcher's all-to-alls of routed rows (engine/timing/links.py dispatch_seconds + "
          "latency), its permutation kernels' bytes at the memory rate, its launches at the host's launch figure, its "
          "syncs (round trip + first launch), its latency-bound collectives; sum: all of it serial, nothing hidden "
          "(an upper bound of what the dispatcher itself can cost, most of which the model already counts); gen-k: "
          "what the generic permutation passes count beyond the kernel-by-kernel bytes (what switching "
          "frameworks.megatron moe_permutation on removes).")
    if ratios:
        print(f"lacks / sum over {len(ratios)} all-to-all rows: median {statistics.median(ratios):.2f}, "
              f"max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
