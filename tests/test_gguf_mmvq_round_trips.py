"""llama.cpp's January-2024 mmvq by its serial round trips (engine/accuracy/gguf_mmvq_round_trips.py, a diagnostic):
the launch shape of tests/data/published/llamacpp_mmvq_sass.json against the measured llama-bench rows."""

import pytest

from engine.accuracy.gguf_mmvq_issue import mmvq_sass
from engine.accuracy.gguf_mmvq_round_trips import blocks_per_iteration, matrix_round_trips, mmvq_round_trips
from engine.accuracy.serving_speed import read_rows

RTX3090_RESIDENT_WARPS = 82 * 16  # GA102 whitepaper 82 SMs x 16 resident blocks an SM (compute capability 8.6)


def _row(row_id):
    return next(r for r in read_rows() if r["id"] == row_id)


def test_blocks_an_iteration_follow_the_launch_shape():
    """calls_per_loop x vdr x 32 / qi: Q4_0 2 x 2 x 32 / 4 = 32 blocks (1,024 weights), Q2_K 1 x 1 x 32 / 16 = 2
    blocks (512 weights): a K-quant warp waits a round trip for half the weights a Q4_0 warp does."""
    types = mmvq_sass()["types"]
    assert blocks_per_iteration(types["Q4_0"]) == 32
    assert blocks_per_iteration(types["Q2_K"]) == 2
    assert blocks_per_iteration(types["Q3_K"]) * types["Q3_K"]["qk"] == 512


def test_llama2_7b_q2_k_round_trips_by_hand():
    """Llama 2 7B (meta-llama/Llama-2-7b-hf config.json: 32 layers, hidden 4096, MLP 11008, vocab 32000) on the RTX
    3090's 1,312 resident warps: q/k/v/o 4 waves x 8 iterations each, gate/up 9 x 8, down 4 x ceil(43 / 2) = 22, a
    layer 4 x 32 + 2 x 72 + 88 = 360; the output layer 25 waves x 8 = 200; 32 x 360 + 200 = 11,720."""
    q2k = mmvq_sass()["types"]["Q2_K"]
    assert matrix_round_trips(4096, 4096, q2k, RTX3090_RESIDENT_WARPS) == 4 * 8
    assert matrix_round_trips(11008, 4096, q2k, RTX3090_RESIDENT_WARPS) == 9 * 8
    assert matrix_round_trips(4096, 11008, q2k, RTX3090_RESIDENT_WARPS) == 4 * 22
    r = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q2_k-tg128"))
    assert r.round_trips == 32 * 360 + 200 == 11720
    assert r.round_trip_seconds == pytest.approx((1 / 92.69 - r.fixed_seconds) / 11720)


def test_k_quant_rows_latency_bound_q4_0_row_near_its_bandwidth():
    """The finding (measured rows, JohannesGaessler's PR #4766 table): the two K-quant rows, which take the same
    round trips a token, spend 0.76 / 0.82 us on each with the resident warps' bytes moving at under 40% of the
    3090's 936 GB/s (latency-bound), while the Q4_0 row's round trips move them at about three quarters of it, near
    what the F16 row reads (bandwidth-bound): why Q2_K / Q3_K_S run slower than Q4_0 despite fewer bytes."""
    q2k = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q2_k-tg128"))
    q3k = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q3_k_s-tg128"))
    q40 = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q4_0-tg128"))
    assert q2k.round_trips == q3k.round_trips == 2 * q40.round_trips
    for r in (q2k, q3k):
        assert 0.7e-6 < r.round_trip_seconds < 0.9e-6
        assert r.in_flight_rate_bytes_per_s / r.peak_bytes_per_s < 0.4
    assert 0.65 < q40.in_flight_rate_bytes_per_s / q40.peak_bytes_per_s < 0.85


def test_only_the_compiled_build_rows():
    """Rows of other builds (the May-2024 3090 Ti, later mmvq launch shapes) are not read by this launch shape."""
    assert mmvq_round_trips(_row("llamacpp-7302-rtx3090ti-7b-q4_0-tg128")) is None
    assert mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-f16-tg128")) is None


def test_latency_floor_from_the_measured_3090_figures():
    """The RTX 3090's floor: arabel1a/gpu-micro-bench@2f18022a's GPU-wide DRAM pointer chase at 1,312 blocks (292.0 ns
    a hop) + the loop's SASS instructions x its dependent IMAD latency (2.231 ns): Q2_K 292 + 94 x 2.231 = 501.7 ns,
    Q3_K 292 + 151 x 2.231 = 628.9 ns, both under the 763 / 820 ns the rows took (a floor: ~0.2 us an iteration is
    left unexplained); the 4090 has no measured figure, so no floor."""
    q2k = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q2_k-tg128"))
    q3k = mmvq_round_trips(_row("llamacpp-4766-rtx3090-7b-q3_k_s-tg128"))
    assert q2k.floor_round_trip_seconds == pytest.approx(292.0e-9 + 94 * 2.231e-9)
    assert q3k.floor_round_trip_seconds == pytest.approx(292.0e-9 + 151 * 2.231e-9)
    for r in (q2k, q3k):
        assert r.floor_round_trip_seconds < r.round_trip_seconds
        assert r.floor_step_seconds == pytest.approx(r.round_trips * r.floor_round_trip_seconds + r.fixed_seconds)
        assert r.floor_step_seconds < r.measured_seconds
    assert mmvq_round_trips(_row("llamacpp-4766-rtx4090-7b-q8_0-tg128")).floor_step_seconds is None
