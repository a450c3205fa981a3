"""Print how engine/serving/speed.py's TTFT, TPOT and tokens/s compare with measured serving runs, per engine.

Run: .venv/bin/python benchmarks/serving_speed_accuracy.py
Data: tests/data/published/serving_speed.json (each row's source, what it states, what was taken);
comparison: engine/accuracy/serving_speed.py. Errors are estimate / measured - 1.
Writes presets/serving_speed_bands.json (engine/accuracy/serving_speed_band.py: measured / estimated - 1 bands).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.accuracy.gguf_decode_rate import effective_weight_bandwidth, gguf_size_gib, stated_size_gib  # noqa: E402
from engine.accuracy.gguf_deltanet_kernels import deltanet_rows  # noqa: E402
from engine.accuracy.gguf_kernel_rates import compare_rates, marginal_rates, read_rates_rows  # noqa: E402
from engine.accuracy.gguf_mmvq_issue import mmvq_issue_bound  # noqa: E402
from engine.accuracy.gguf_mmvq_round_trips import mmvq_round_trips  # noqa: E402
from engine.accuracy.gguf_prefill_rates import compare_prefill_rates, errors_by_source, type_pairs  # noqa: E402
from engine.accuracy.moe_kernel_rate import (  # noqa: E402
    fit_overhead_steps,
    kernel_rates,
    leave_one_source_out,
    row_expert_rate,
    table_shares,
)
from engine.accuracy.serving_speed import (  # noqa: E402
    METRICS,
    compare_all,
    decode_gap_per_layer_us,
    read_rows,
    summary,
)
from engine.accuracy.serving_speed_band import bands_data, bands_json  # noqa: E402
from engine.serving.speed_band import SERVING_BANDS_FILE  # noqa: E402


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:+.1%}"


def _print_gguf_rates() -> None:
    """llama.cpp's decode over the weights it reads (engine/accuracy/gguf_decode_rate.py): a diagnostic."""
    print("\nllama.cpp single-stream decode: measured tokens/s x the GPU's weight bytes a token, against the GPU's "
          "peak (the estimate reads them at its achieved fraction)")
    print("| row | format | weights GB | GGUF GiB (stated) | effective GB/s | of peak | estimate |\n"
          "|---|---|---:|---:|---:|---:|---:|")
    for row in read_rows():
        rate = effective_weight_bandwidth(row)
        if rate is None:
            continue
        stated = stated_size_gib(row)
        size = f"{gguf_size_gib(row):.2f}" + (f" ({stated:.2f})" if stated else "")
        print(f"| {rate.id} | {rate.weight_format} | {rate.weight_bytes_per_token / 1e9:.2f} | {size} | "
              f"{rate.effective_bytes_per_s / 1e9:.0f} | {rate.fraction_of_peak:.0%} | "
              f"{rate.estimate_fraction_of_peak:.0%} |")


def _print_other_source_rates() -> None:
    """llama.cpp decode measured by other sources (engine/accuracy/gguf_kernel_rates.py): errors and kernel rates."""
    rows = {r["id"]: r for r in read_rates_rows()}
    groups: dict[tuple[str, str, str], list[float]] = {}
    for c in compare_rates(list(rows.values())):
        platform = "Metal" if c.gpu.startswith("apple") else "CUDA"
        groups.setdefault((rows[c.id]["source_id"], platform, c.weight_format), []).append(
            c.error("tokens_per_second") or 0.0)
    print("\nllama.cpp decode measured by other sources (tests/data/published/llamacpp_decode_rates.json): tokens/s "
          "error of the estimate")
    print("| source | backend | format | rows | median signed |\n|---|---|---|---:|---:|")
    for (source, platform, fmt), errors in sorted(groups.items()):
        print(f"| {source} | {platform} | {fmt} | {len(errors)} | {_pct(statistics.median(errors))} |")
    print("\nTheir mat-vec rate: the extra bytes a token over the extra time between two model sizes of one GGUF type "
          "on one GPU, and the fixed part it leaves at the smaller size beside the estimate's kernels' fixed time")
    print("| source | GPU | format | sizes | marginal GB/s | of peak | estimate | fixed ms | estimate fixed ms |\n"
          "|---|---|---|---|---:|---:|---:|---:|---:|")
    for m in marginal_rates(list(rows.values())):
        sizes = f"{rows[m.small_id]['model']} / {rows[m.large_id]['model']}"
        print(f"| {m.source_id} | {m.gpu} | {m.weight_format} | {sizes} | {m.marginal_bytes_per_s / 1e9:.0f} | "
              f"{m.fraction_of_peak:.0%} | {m.estimate_fraction_of_peak:.0%} | {m.fixed_seconds * 1e3:.2f} | "
              f"{m.estimate_fixed_seconds * 1e3:.2f} |")


def _print_mmvq_issue() -> None:
    """The January-2024 mmvq loop's instructions against the rows' step (engine/accuracy/gguf_mmvq_issue.py)."""
    print("\nllama.cpp January-2024 mmvq (SASS of the build's loop, tests/data/published/llamacpp_mmvq_sass.json): "
          "the step's weights at the SMs' issue rate and at the integer datapath's, beside the peak-bandwidth read "
          "and the measured step; the round trip the measured rate implies with the resident warps' bytes in flight")
    print("| row | type | warp instr / weight | issue ms | integer ms | peak-bandwidth ms | measured ms | "
          "in flight KB | implied round trip us |\n|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in read_rows():
        b = mmvq_issue_bound(row)
        if b is not None:
            print(f"| {b.id} | {b.ggml_type} | {b.warp_instructions_per_weight:.3f} | {b.issue_seconds * 1e3:.2f} | "
                  f"{b.integer_seconds * 1e3:.2f} | {b.peak_memory_seconds * 1e3:.2f} | "
                  f"{b.measured_seconds * 1e3:.2f} | {b.in_flight_bytes / 1e3:.0f} | "
                  f"{b.implied_round_trip_seconds * 1e6:.2f} |")


def _print_mmvq_round_trips(compared: list) -> None:
    """The same rows by the launch's serial round trips (engine/accuracy/gguf_mmvq_round_trips.py)."""
    estimated = {c.id: c.estimated.get("tokens_per_second") for c in compared}
    print("\nThe same rows by the launch's serial round trips (engine/accuracy/gguf_mmvq_round_trips.py: one warp a row, "
          "the SMs' resident blocks a wave, one DRAM round trip a loop iteration): the measured step less the "
          "estimate's kernels' fixed time over them, the rate the resident warps' bytes of one iteration give then "
          "(near the peak: bandwidth-bound; well below: latency-bound), and the latency floor where the GPU's is "
          "measured (loaded DRAM hop + the loop's instructions at the dependent IMAD latency) with the tokens/s error "
          "the step would have at it")
    print("| row | type | blocks an iteration | round trips a token | fixed ms | ns a round trip | in-flight GB/s | "
          "of peak | floor ns | error | at the floor |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in read_rows():
        r = mmvq_round_trips(row)
        if r is None:
            continue
        est = estimated[r.id]
        floor, at_floor = "—", "—"
        if r.floor_round_trip_seconds is not None and est:
            floor = f"{r.floor_round_trip_seconds * 1e9:.0f}"
            at_floor = _pct(r.measured_seconds / max(r.floor_step_seconds, 1 / est) - 1)
        print(f"| {r.id} | {r.ggml_type} | {r.blocks_per_iteration:.0f} | {r.round_trips} | "
              f"{r.fixed_seconds * 1e3:.2f} | {r.round_trip_seconds * 1e9:.0f} | "
              f"{r.in_flight_rate_bytes_per_s / 1e9:.0f} | {r.in_flight_rate_bytes_per_s / r.peak_bytes_per_s:.0%} | "
              f"{floor} | {_pct(est * r.measured_seconds - 1 if est else None)} | {at_floor} |")


def _print_prefill_pairs() -> None:
    """llama.cpp prompt processing by GGUF type from other sources (engine/accuracy/gguf_prefill_rates.py)."""
    errors = [c.error("prefill_tokens_per_second") or 0.0 for c in compare_prefill_rates()]
    print(f"\nllama.cpp prefill by GGUF type from other sources (tests/data/published/llamacpp_prefill_rates.json, "
          f"{len(errors)} rows, median signed {_pct(statistics.median(errors))}): the quantized file's rate over the F16 "
          f"file's on one GPU and build, and the seconds it takes beyond the F16 file's (the builds' dequantize-to-F16 "
          f"pass, engine/serving/gguf_prefill.py)")
    print("| source | GPU | model | format | measured ratio | ratio error | without the pass | extra ms | "
          "estimate extra ms |\n|---|---|---|---|---:|---:|---:|---:|---:|")
    for p in type_pairs():
        print(f"| {p.source_id} | {p.gpu} | {p.model} | {p.weight_format} | {p.measured_ratio:.3f} | "
              f"{_pct(p.ratio_error)} | {_pct(p.ratio_error_without_pass)} | {p.measured_extra_seconds * 1e3:.1f} | "
              f"{p.estimated_extra_seconds * 1e3:.1f} |")
    print("| source | pairs | ratio error | without the pass | extra seconds error |\n|---|---:|---:|---:|---:|")
    for source, e in errors_by_source().items():
        print(f"| {source} | {e['pairs']:.0f} | {_pct(e['ratio'])} | {_pct(e['ratio_without_pass'])} | "
              f"{_pct(e['extra'])} |")


def _print_moe_rates() -> None:
    """SGLang's MoE rows: the rate the routed experts would need for the remaining gap, beside published fused_moe
    kernel times (engine/accuracy/moe_kernel_rate.py)."""
    print("\nSGLang MoE decode: the touched experts' bytes a step and the rate that puts the whole remaining gap on them "
          "(the estimate reads them at the preset's achieved bandwidth)")
    print("| row | expert GB a step | gap ms | estimate TB/s | closing TB/s |\n|---|---:|---:|---:|---:|")
    for row in read_rows():
        r = row_expert_rate(row)
        if r is not None:
            print(f"| {r.id} | {r.expert_bytes / 1e9:.1f} | {r.gap_seconds * 1e3:.2f} | "
                  f"{r.estimate_bytes_per_s / 1e12:.2f} | {r.closing_bytes_per_s / 1e12:.2f} |")
    print("\nPublished triton fused_moe kernel times (tests/data/published/fused_moe_kernel_times.json): bytes read "
          "over the time, of the datasheet, beyond the previous batch, and whether the batch times the HBM")
    print("| table | GPU | batch | experts read | MB | TB/s | of datasheet | marginal TB/s | HBM-bound |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---|")
    for k in kernel_rates():
        print(f"| {k.table} | {k.gpu} | {k.batch} | {k.experts_read:.1f} | {k.bytes_read / 1e6:.0f} | "
              f"{k.bytes_per_s / 1e12:.2f} | {k.fraction_of_datasheet:.0%} | "
              f"{k.marginal_bytes_per_s / 1e12:.2f} | {'yes' if k.hbm_bound else 'no'} |")
    shares = table_shares()
    print(f"\nThe tables' HBM-bound marginal rate over the preset's achieved bandwidth, beside the fused_moe tile model "
          f"(engine/serving/fused_moe_rate.py; overhead fitted on these tables: {fit_overhead_steps(shares):.2f} K steps "
          f"a program), and each table predicted with its source left out")
    print("| table | GPU | hidden | shard_n | batches | marginal TB/s | fixed us | measured share | model share | "
          "left-out overhead | left-out error |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t, (_, overhead, error) in zip(shares, leave_one_source_out(shares), strict=True):
        print(f"| {t.table} | {t.gpu} | {t.hidden} | {t.shard_n} | {t.batches} | {t.marginal_bytes_per_s / 1e12:.2f} | "
              f"{t.fixed_seconds * 1e6:.1f} | {t.measured_share:.3f} | {t.predicted_share:.3f} | {overhead:.2f} | "
              f"{error:+.1%} |")


def _print_deltanet_kernels() -> None:
    """llama.cpp's gated DeltaNet layers' own kernels, not in the estimate (engine/accuracy/gguf_deltanet_kernels.py)."""
    print("\nllama.cpp gated DeltaNet layers at one token: their kernels beyond the counted attention's (not in the "
          "estimate) and the row's tokens/s error with them")
    print("| row | DeltaNet layers | extra ms a token | error | with them |\n|---|---:|---:|---:|---:|")
    for r in deltanet_rows(read_rows()):
        print(f"| {r.id} | {r.linear_layers} | {r.extra_seconds * 1e3:.2f} | {r.error:+.1%} | "
              f"{r.error_with_kernels:+.1%} |")


def main() -> None:
    compared = compare_all()
    print(f"{len(compared)} measured serving rows\n")
    print("| engine | metric | rows | median abs error | p90 abs error | median signed |\n|---|---|---:|---:|---:|---:|")
    for engine, per_metric in summary(compared).items():
        for metric, st in per_metric.items():
            print(f"| {engine} | {metric} | {st['count']} | {st['median']:.1%} | {st['p90']:.1%} | "
                  f"{st['signed']:+.1%} |")
    print("\n| row | GPU | format | metric | measured | estimated | error |\n|---|---|---|---|---:|---:|---:|")
    for c in compared:
        for metric in METRICS:
            if metric in c.measured:
                print(f"| {c.id} | {c.gpu} | {c.weight_format} | {metric} | {c.measured[metric]:.2f} | "
                      f"{c.estimated[metric]:.2f} | {_pct(c.error(metric))} |")
    print("\nMeasured decode step beyond the estimate's, per layer (a diagnostic: what the step does not count)")
    print("| row | us per layer |\n|---|---:|")
    for row in read_rows():
        gap = decode_gap_per_layer_us(row)
        if gap is not None:
            print(f"| {row['id']} | {gap:+.0f} |")
    _print_gguf_rates()
    _print_deltanet_kernels()
    _print_other_source_rates()
    _print_mmvq_issue()
    _print_mmvq_round_trips(compared)
    _print_prefill_pairs()
    _print_moe_rates()
    print("\nBands shown with the estimate: 10th to 90th percentile of measured / estimated - 1")
    print("| engine | metric | rows | sources | low | high |\n|---|---|---:|---:|---:|---:|")
    for band in bands_data()["bands"]:
        print(f"| {band['engine']} | {band['metric']} | {band['runs']} | {len(band['source_urls'])} | "
              f"{band['low']:+.1%} | {band['high']:+.1%} |")
    SERVING_BANDS_FILE.write_text(bands_json(), encoding="utf-8")
    print(f"\nwrote {SERVING_BANDS_FILE.relative_to(REPO)}")


if __name__ == "__main__":
    main()
