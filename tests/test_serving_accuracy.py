"""The serving estimate against the published engine start-up logs (tests/data/published/serving_logs.json).

Targets (issue 26): median |weights error| <= 3%, median |KV tokens error| <= 5% (KV buffer bytes for llama.cpp,
which logs MiB for n_ctx cells), no log that failed to start judged as starting and none that started judged as
refused. The expected values are the logged figures themselves, each row citing its source URL.
`benchmarks/serving_accuracy.py` prints the per-row errors and the per-engine, per-version table.
"""

from __future__ import annotations

import pytest

from engine.accuracy.serving_logs import (
    KV_TARGET,
    WEIGHTS_TARGET,
    accuracy,
    judge_all,
    judge_given_weights,
    load_serving_logs,
)

ROWS = load_serving_logs()
JUDGED, SKIPPED = judge_all(ROWS)
ACC = accuracy(JUDGED, len(ROWS))

needs_engine = pytest.mark.skipif(not JUDGED, reason="the serving estimate does not judge inference scenarios yet: "
                                                     + "; ".join(sorted(set(SKIPPED.values()))[:2]))


@needs_engine
def test_weights_median_error_within_target():
    assert len(ACC.weights_errors) >= 20
    assert ACC.weights_median <= WEIGHTS_TARGET


@needs_engine
def test_kv_median_error_within_target():
    assert len(ACC.kv_errors) >= 20
    assert ACC.kv_median <= KV_TARGET


@needs_engine
def test_no_start_judged_refused_and_no_refusal_judged_starting():
    assert ACC.verdicts_checked >= 25
    assert ACC.started_judged_refused == ()
    assert ACC.failed_judged_starting == ()


def test_engine_accounting_on_the_logged_weights():
    """engine/serving's generation_memory fed each vLLM row's logged weights: what is left is the engine's own
    accounting (profile peak, overheads, blocks). Level reached (h-serve 4de4aba), with the gap named:

    - vllm-10517-rtx3090-llama31-8b-29k started-vs-refused is judged "fits": the pool comes out 3.71 GiB against the
      logged 2.89 GiB. The mechanisms: the capacity is the preset's nominal 24.0 GiB where CUDA reported 23.58 GiB
      (0.38 GiB of budget at 0.9), vLLM 0.6.4's measured non-torch memory was 0.35 GiB against the constant
      0.13 GiB, and the activation peak of the 29000-token profile is 2.77 GiB against the logged 2.99 GiB.
    - the same three terms put the 20000-token row's pool at 4.57 GiB against 3.81 GiB (+20% tokens).
    """
    judged = [j for j in (judge_given_weights(r) for r in ROWS) if j is not None]
    assert len(judged) >= 6
    wrong = {j.row.id for j in judged if j.verdict_wrong}
    assert wrong <= {"vllm-10517-rtx3090-llama31-8b-29k"}
    pools = {j.row.id: j.kv_pool_error for j in judged if j.kv_pool_error is not None}
    # gpt-oss-20b on A100-80GB (vLLM 0.19.0, blog post): 36.79 GiB estimated for 36.56 GiB logged
    assert abs(pools["vllm-myoceane-a100-gpt-oss-20b-gmu065"]) <= 0.02
