"""Diagnosis: verl-data's GRPO-LoRA rollouts at TP 8 (Qwen2.5-14B / 32B / 72B on 8 GPUs) generate 20-33% slower than
estimated, while the TP-2 rows (0.5B-7B) are within -9..+10% (issue 23, post-training generation; branch h-verlgen).
Prints, per row, the log's own timers against the estimate's parts, the gap per decode iteration and per layer, and the
candidate mechanisms read in the code the runs used, each with its seconds where a source prices it. Of these, the
model now counts the all-reduce calls' own Python at TP > 1 (engine/posttraining/eager_decode.py
VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS, measured by benchmarks/vllm_v0_tp_all_reduce_host.py): about 1 point of
the TP-8 rows' generation gap.

The runs' code: volcengine/verl at 9466d371e (the commit that linked the GRPO-LoRA logs, docs/algo/baseline.md) and
vLLM 0.7.3 (the PyPI wheel; the logs' warnings sit at its lines, h-v0loop). What it says about a TP-8 engine:

- verl builds every engine with `disable_custom_all_reduce=True` (verl/workers/rollout/vllm_rollout/
  vllm_rollout_spmd.py line 157 at 9466d371e, line 160 at ec4433cd; since #209, removed by 6a671a377 on
  2026-01-27), so vLLM 0.7.3's CudaCommunicator.all_reduce (vllm/distributed/device_communicators/
  cuda_communicator.py lines 48-66) takes pynccl's ncclAllReduce for every layer's two all-reduces, not the custom
  all-reduce engine/posttraining/rollout_collectives.py assumes inside one node. Priced below with the training
  model's NCCL figure (collectives.all_reduce_link): it is GPU time, and the estimated iteration is host-bound
  (the launches exceed the GPU side), so it does not move the estimate.
- `distributed_executor_backend="external_launcher"` (line 153): each of the engine's ranks is its own driver
  (vllm/executor/uniproc_executor.py line 110, is_driver_worker = True) and runs the scheduler and the input
  preparation of all the engine's sequences; with TP > 1 worker.py lines 342-344 (do_metadata_broadcast) still make
  every rank call broadcast_tensor_dict(src=0) each step (worker/worker_base.py lines 348-352): rank 0 pickles the
  step's metadata into the shared-memory queue and broadcasts each input tensor over NCCL, the others receive it and
  discard it. A per-step host term of every TP > 1 row, the TP-2 rows included; no per-call figure found, not priced.
- LogitsProcessor all-gathers the logits under external_launcher (vllm/model_executor/layers/logits_processor.py
  lines 55-57) and every rank samples the whole batch: (tp - 1) / tp of batch x vocab x 2 bytes per GPU per step,
  priced at the node's link below (GPU side, hidden as above).
- The reshard (verl/workers/sharding_manager/fsdp_vllm.py lines 151-198, verl/utils/fsdp_utils.py lines 464-495):
  every rank copies the whole fp32 adapters to pageable host memory (`param.detach().cpu()`), and verl's patched
  loader (verl/utils/vllm_utils.py lines 160-171) rebuilds them on the CPU in the engine's dtype and pins them
  (vllm/lora/models.py LoRAModel.from_lora_tensors lines 122-171) before they are copied into the LoRA stacks. The
  model counts one round trip per adapter tensor, not their bytes (adapter_sync.py); the bytes are priced below at
  the pinned host rate and its pageable share (presets/efficiency.json pcie); the CPU's dtype conversion and pinning
  are not priced (no host-memory rate for a Ray worker's single thread). The reshard's gap is about a constant a
  layer (21-28 ms) plus ~24 ms per GB of the layer's fp32 at 8 GPUs (printed below). What runs per layer: verl sets
  SHARDED_STATE_DICT on the actor (fsdp_vllm.py lines 72-80; full_params is "hf" in load_format, fsdp_workers.py
  line 478: false for safetensors), so the layered summon's submodule.state_dict() runs FSDP1's sharded state-dict
  hooks, which unshard (pytorch torch/distributed/fsdp/_state_dict_utils.py _sharded_pre_state_dict_hook: 'We have to
  create ShardedTensor first') and chunk every parameter of the layer (param_hook, _ext_chunk_tensor), with a device
  synchronize per FSDP unit (15 a layer: the layer and its 14 adapter units); then get_torch_device().empty_cache()
  after each layer (fsdp_utils.py line 495) returns the layer's fp32 buffers to the driver, so the next layer
  allocates them anew. With a device mesh the sharded state dict is DTensor (_set_use_dtensor): every parameter
  cloned whole, and verl's full_tensor() all-gathers each adapter tensor. Priced since h-verltp8
  (engine/posttraining/adapter_summon.py): each unit's summon (a no-grad forward visit's FSDP1 calls and measured
  Python) and three synchronizes, the adapter units' and full_tensor's all-gathers at NCCL's small-message latency,
  the clones' bytes, and the DTensor chunk's and full_tensor's Python (benchmarks/verl_dtensor_state_dict_host.py):
  about 16 ms a layer of the 28 (2 GPUs) to 106 (8 GPUs) measured beyond the estimate before it, so the 2-GPU rows
  keep about 12 ms a layer and the 8-GPU rows 33-88 ms, growing with the layer's bytes. Not priced (no figure):
  full_tensor's collective's own host work, peft's state-dict filter, empty_cache and the fresh allocations it
  forces.
- Not in the code, a reading of it: a TP-8 engine's ranks meet at every all-reduce (NCCL, 2 a layer), so a
  host-bound step advances at its slowest rank's launches, 8 processes against 2 at TP 2 (Python's garbage
  collection and the OS's scheduling pause one rank at a time). No source prices that spread.

Run: .venv/bin/python benchmarks/verl_tp8_rollout_gap.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy import posttraining_time as ptt  # noqa: E402
from engine.memory.states import whole_model_params  # noqa: E402
from engine.posttraining import rollout_collectives  # noqa: E402
from engine.posttraining.engine_adapters import lora_linears_and_slices  # noqa: E402
from engine.posttraining.estimate import step_parts  # noqa: E402
from engine.posttraining.phase_offload import pageable_fraction  # noqa: E402
from engine.posttraining.rollout_collectives import ACTIVATION_BYTES, ALL_REDUCES_PER_LAYER, all_reduce_seconds  # noqa: E402
from engine.timing import hardware_for  # noqa: E402
from engine.timing.collectives import all_reduce_link  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.links import collective_link, nvlink_domain  # noqa: E402
from engine.workloads import step_time  # noqa: E402

ROW_PREFIX = "verl-data-time-grpo-lora-"
FP32_BYTES = 4  # verl's actor (and so its adapters) in fp32: fsdp_workers.py line 210 at 9466d371e
LOGIT_BYTES = 2  # bf16 logits out of the vocab-parallel head, gathered before the sampler's fp32 copy


def _median_timer(row: dict[str, Any], key: str) -> float | None:
    values = [step["timing_s"][key] for step in row["steps"] if key in step["timing_s"]]
    return statistics.median(values) if values else None


def nccl_all_reduce_seconds(s: Any, hw: Any, tp: int, message_bytes: float) -> float:
    """One all-reduce of `message_bytes` over the engine's `tp` GPUs through NCCL (pynccl), as the training model times
    a known message (rollout_collectives.py's path for groups the custom all-reduce does not serve)."""
    domain = nvlink_domain(s, hw)
    bus, latency = all_reduce_link(hw, tp, tp, domain, 1, collective_link(hw, tp, domain)[0],
                                   framework_profile(s.framework), message_bytes)
    return 2 * (tp - 1) / tp * message_bytes / bus + latency


def nccl_decode_step_seconds(s: Any) -> float:
    """The estimate's decode iteration at the full batch with every engine all-reduce through NCCL (verl's
    disable_custom_all_reduce): a what-if computed with rollout_collectives.custom_all_reduce answering no."""
    custom = rollout_collectives.custom_all_reduce
    rollout_collectives.custom_all_reduce = lambda *_args: False
    try:
        return dict(step_time(s.with_unchecked(name=f"{s.name} nccl")).generation)["decode_step_seconds"]
    finally:
        rollout_collectives.custom_all_reduce = custom


def row_figures(row: dict[str, Any]) -> dict[str, Any]:
    """The row's logged timers and the estimate's matching parts (seconds), and the candidates' seconds."""
    s = scenario_from_dict(row["scenario"])
    estimated, parts = ptt.estimated_phases(row["scenario"])
    detail = dict(step_time(s).generation)
    spec, hw, tp = step_parts(s).spec, hardware_for(s), s.rollout_tp
    running = detail["concurrent_sequences"]
    decode = detail["prefill_seconds"] + detail["decode_seconds"]
    message = running * spec.hidden * ACTIVATION_BYTES
    per_step = ALL_REDUCES_PER_LAYER * spec.layers
    adapters = whole_model_params(s, spec).lora
    return {
        "id": row["id"].removeprefix(ROW_PREFIX), "layers": spec.layers, "tp": tp, "running": running,
        "gpus": s.gpus_per_node,
        "gen": _median_timer(row, "gen"), "generate": _median_timer(row, "generate_sequences"),
        "reshard": _median_timer(row, "reshard"), "iterations": detail["decode_iterations"],
        "measured_iteration": ptt.measured_decode_iteration_seconds(row),
        "est_gen": estimated["generation"], "est_decode": decode,
        "est_reshard": estimated["generation"] - parts.get("generation", 0.0),
        "launches": detail["eager_host_seconds_per_step"], "step": detail["decode_step_seconds"],
        "nccl_step": nccl_decode_step_seconds(s),
        "custom_ar": per_step * all_reduce_seconds(s, hw, tp, message),
        "nccl_ar": per_step * nccl_all_reduce_seconds(s, hw, tp, message),
        "logits_gather": (tp - 1) / tp * running * spec.vocab * LOGIT_BYTES / hw.intra_bytes_per_s,
        "lora_slices_per_layer": lora_linears_and_slices(spec)[1] // spec.layers,
        "adapter_bytes": adapters * FP32_BYTES, "layer_fp32_bytes": spec.total_params * FP32_BYTES / spec.layers,
        "adapter_copies": adapters * FP32_BYTES / (hw.host_bytes_per_s * pageable_fraction(s))
        + adapters * LOGIT_BYTES / hw.host_bytes_per_s,
    }


def print_timers(figures: list[dict[str, Any]]) -> None:
    print("## The rollout phase, the log's timers against the estimate (seconds a step, median over logged steps)\n")
    print("| row | TP | layers | gen measured | gen estimated | generate_sequences | decode + prefill estimated | "
          "gap | reshard | reshard estimated (sync + offload copies) | gap |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in figures:
        generate, reshard = f["generate"], f["reshard"]
        generate_gap = "-" if generate is None else f"{generate - f['est_decode']:+.1f}"
        reshard_gap = "-" if reshard is None else f"{reshard - f['est_reshard']:+.2f}"
        print(f"| {f['id']} | {f['tp']} | {f['layers']} | {f['gen']:.1f} | {f['est_gen']:.1f} | "
              f"{'-' if generate is None else f'{generate:.1f}'} | {f['est_decode']:.1f} | "
              f"{generate_gap} | "
              f"{'-' if reshard is None else f'{reshard:.2f}'} | {f['est_reshard']:.2f} | "
              f"{reshard_gap} |")


def print_iterations(figures: list[dict[str, Any]]) -> None:
    print("\n## Per decode iteration (ms): generate_sequences (else gen) / the estimate's iterations, against the "
          "estimate's decode + prefill / iterations\n")
    print("| row | TP | sequences per engine | layers | measured | estimated | gap | gap per layer | "
          "estimated launches (host floor) at the full batch | estimated iteration at the full batch |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in figures:
        measured = (f["generate"] if f["generate"] is not None else f["gen"]) / f["iterations"]
        estimated = f["est_decode"] / f["iterations"]
        f["iteration_gap"] = measured - estimated
        print(f"| {f['id']} | {f['tp']} | {f['running']} | {f['layers']} | {measured * 1e3:.1f} | "
              f"{estimated * 1e3:.1f} | {f['iteration_gap'] * 1e3:+.1f} | {f['iteration_gap'] / f['layers'] * 1e3:+.2f} | "
              f"{f['launches'] * 1e3:.1f} | {f['step'] * 1e3:.1f} |")
    full = [f for f in figures if f["running"] == max(g["running"] for g in figures)]
    for tp in sorted({f["tp"] for f in full}):
        group = [f for f in full if f["tp"] == tp]
        if len(group) > 1:
            gaps = [f["iteration_gap"] for f in group]
            print(f"\nTP {tp}, {group[0]['running']} sequences: iteration gap {min(gaps) * 1e3:+.1f} to "
                  f"{max(gaps) * 1e3:+.1f} ms over {len(group)} rows ({min(f['layers'] for f in group)}-"
                  f"{max(f['layers'] for f in group)} layers)")


def print_reshard(figures: list[dict[str, Any]]) -> None:
    print("\n## The reshard's gap by layer: a constant a layer and a share growing with the layer's fp32 bytes\n")
    print("| row | GPUs | layers | reshard gap (s) | gap a layer (ms) | a layer's fp32 (GB) | gap a layer per GB (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for f in figures:
        if f["reshard"] is None:
            continue
        gap = f["reshard"] - f["est_reshard"]
        per_layer = gap / f["layers"]
        print(f"| {f['id']} | {f['gpus']} | {f['layers']} | {gap:+.2f} | {per_layer * 1e3:.1f} | "
              f"{f['layer_fp32_bytes'] / 1e9:.2f} | {per_layer * 1e3 / (f['layer_fp32_bytes'] / 1e9):.1f} |")
    print("\nverl's layered summon (module docstring) unshards each decoder layer in fp32, then empty_cache: each layer "
          "allocates and frees its full fp32 buffers anew, and under SHARDED_STATE_DICT its state_dict() clones every "
          "parameter again. The estimate prices the units' summon, synchronizes, tiny all-gathers, the clones' bytes "
          "and DTensor's measured Python (adapter_summon.py); empty_cache and the fresh allocations have no figure.")


# vLLM 0.7.3 lora/ops/triton_ops/utils.py _get_default_config (no tuned configs: _get_op_configs returns None):
# bgmv_shrink runs SPLIT_K 64 programs per sequence, bgmv_expand_slice SPLIT_N 64 (_check_divisibility of a width
# divisible by 64), each with num_warps 8; bgmv_shrink.py / bgmv_expand_slice.py grid = (SPLIT, batches)
PUNICA_PROGRAMS_PER_SEQUENCE = 64
PUNICA_KERNELS_PER_SLICE = 2  # bgmv_shrink and bgmv_expand_slice (engine_adapters.TRITON_LAUNCHES_PER_SLICE)


def _fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares slope and intercept of (x, y) points."""
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return slope, my - slope * mx


def print_layer_slope(figures: list[dict[str, Any]]) -> None:
    """The per-iteration time against the layer count over the rows of one batch (320 sequences an engine), TP 2 and
    TP 8 together: how much a layer costs and what the iteration costs besides, measured and estimated."""
    full = [f for f in figures if f["running"] == max(g["running"] for g in figures)]
    print("\n## Per decode iteration against layers, the 320-sequence rows (TP 2 and TP 8 together), least squares\n")
    print("| rows | timer | n | measured ms a layer | estimated ms a layer | measured ms besides | "
          "estimated ms besides |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, rows, timer in (("MATH / mixed", [f for f in full if f["generate"] is not None], "generate_sequences"),
                              ("GSM8K", [f for f in full if f["generate"] is None], "gen")):
        if len(rows) < 3:
            continue
        measured = _fit([(f["layers"], (f["generate"] or f["gen"]) / f["iterations"] * 1e3) for f in rows])
        estimated = _fit([(f["layers"], f["est_decode"] / f["iterations"] * 1e3) for f in rows])
        print(f"| {name} | {timer} | {len(rows)} | {measured[0]:.2f} | {estimated[0]:.2f} | {measured[1]:.1f} | "
              f"{estimated[1]:.1f} |")
    slices = next(iter(full))["lora_slices_per_layer"]
    print(f"\nA layer costs about 1 ms more than estimated whatever the model's width (0.5B to 72B, hidden 896 to "
          f"8,192) and TP, while the rest of the iteration is estimated longer than measured, and the rows with fewer "
          f"sequences an engine (3B at 187-232, 7B at 80) are estimated long: a per-layer cost that grows with the "
          f"batch, not the width. The punica kernels have that shape: vLLM 0.7.3 launches "
          f"{PUNICA_KERNELS_PER_SLICE} x {slices} = {PUNICA_KERNELS_PER_SLICE * slices} bgmv kernels a Qwen2 layer, "
          f"each with {PUNICA_PROGRAMS_PER_SEQUENCE} programs of 8 warps per sequence (one K or N chunk each, one "
          f"loop iteration at these widths), so "
          f"{PUNICA_KERNELS_PER_SLICE * slices * PUNICA_PROGRAMS_PER_SEQUENCE * 320:,} programs a layer at 320 "
          "sequences on every width. The estimate gives them the small-kernel fixed time only "
          "(engine_adapters.adapter_decode_fixed_seconds): no measured time of bgmv at a batch of hundreds on an "
          "H100 was found, so it is not priced (a device check: time bgmv_shrink / bgmv_expand_slice at batch 80, "
          "187, 320, rank 32, K 896 and 5,120).")


def print_candidates(figures: list[dict[str, Any]]) -> None:
    print("\n## Candidates read in the runs' code, priced where a source prices them (module docstring)\n")
    print("| row | all-reduces per decode step, custom -> NCCL (ms, GPU) | logits all-gather per step (ms, GPU) | "
          "estimated iteration at the full batch, custom -> NCCL (ms) | adapters fp32 (GB) | "
          "their copies at the reshard (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    for f in figures:
        print(f"| {f['id']} | {f['custom_ar'] * 1e3:.2f} -> {f['nccl_ar'] * 1e3:.2f} | {f['logits_gather'] * 1e3:.2f} | "
              f"{f['step'] * 1e3:.2f} -> {f['nccl_step'] * 1e3:.2f} | {f['adapter_bytes'] / 1e9:.2f} | "
              f"{f['adapter_copies']:.2f} |")
    print("\nThe GPU-side candidates (NCCL's all-reduces, the logits' all-gather) stay under the estimated host floor "
          "(the launches) at every row, so pricing them moves no estimate; the adapters' bytes close a few tenths "
          "of a second of the reshard's gap; the per-step metadata broadcast and the coupled ranks' spread are not "
          "priced.")


def main() -> int:
    rows = [row for row in ptt.read_rows() if row["id"].startswith(ROW_PREFIX)]
    figures = [row_figures(row) for row in rows]
    print_timers(figures)
    print_iterations(figures)
    print_layer_slope(figures)
    print_reshard(figures)
    print_candidates(figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
