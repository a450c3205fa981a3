"""llama.cpp's gated DeltaNet layers' own kernels at one token (engine/accuracy/gguf_deltanet_kernels.py): a diagnostic
of the Qwen3.5-9B rows (pavlokhmel/llm_throughput_benchmark), not in the estimate."""

from __future__ import annotations

import pytest

from engine.accuracy import gguf_deltanet_kernels as gdk
from engine.accuracy.serving_speed import estimate_row, read_rows
from engine.serving import kernel_fixed_time as kft


def test_a_deltanet_layer_runs_one_more_matvec_and_eleven_more_small_kernels_than_the_counted_attention() -> None:
    # counted in llama.cpp's qwen35.cpp / delta-net-base.cpp (module docstring): 5 weight mat-vecs and 20 small kernels
    # against the attention's 4 mat-vecs, 2 mat-vecs over the cache and 9 small kernels; the delta-rule kernel at the
    # ~3 us Nsight Compute gave it (PR #22587 review); a quantized type quantizes the extra mat-vec's input to q8_1
    f16 = kft.GEMM_FIXED_SECONDS + (20 - 9 - 2) * kft.SMALL_KERNEL_FIXED_SECONDS + 3.0e-6
    assert gdk.deltanet_extra_seconds(False) == pytest.approx(f16)
    assert gdk.deltanet_extra_seconds(True) == pytest.approx(f16 + kft.SMALL_KERNEL_FIXED_SECONDS)


def test_the_qwen35_rows_read_with_their_deltanet_kernels() -> None:
    rows = read_rows()
    found = gdk.deltanet_rows(rows)
    # pavlokhmel's eight Qwen3.5-9B and eight Qwen3.5-4B Q4_K_M rows (h-presets20), and no other row's model has
    # gated DeltaNet layers
    assert len(found) == 16 and all(r.id.startswith("llamacpp-pavlokhmel-") for r in found)
    by_id = {r["id"]: r for r in rows}
    for r in found:
        # full attention every 4th layer: Qwen3.5-9B 24 of 32 layers, Qwen3.5-4B 24 of 32 too (its config.json)
        assert r.linear_layers == 24
        assert r.extra_seconds == pytest.approx(24 * gdk.deltanet_extra_seconds(True))
        estimated = estimate_row(by_id[r.id])["tokens_per_second"]
        assert r.estimated_tokens_per_second == pytest.approx(estimated)
        assert 1 / r.with_kernels_tokens_per_second == pytest.approx(1 / estimated + r.extra_seconds)
