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
def test_every_row_is_judged():
    """Q4_1 and Q5_1 (ggml-common.h block_q4_1 / block_q5_1) are weight formats: no row is left unjudged."""
    assert SKIPPED == {} and len(JUDGED) == len(ROWS)


@needs_engine
def test_weights_median_error_within_target():
    """30 rows: 22 llama.cpp CI GGUF files (every type within 0.05%), 8 vLLM loads (median 0.1% on vLLM alone since
    the MXFP4 experts take the Marlin layout, h-servefix, and 16-bit weights count their allocator blocks); the worst
    left is Llama-3.1-405B-FP8 (-17%, issue #6746,
    V0 model_runner of 2024-07, not investigated)."""
    assert len(ACC.weights_errors) >= 30
    assert ACC.weights_median <= 0.005 <= WEIGHTS_TARGET
    vllm = accuracy([j for j in JUDGED if j.row.engine == "vllm"], 0)
    assert vllm.weights_median <= 0.005


@needs_engine
def test_kv_median_error_within_target():
    """Target 5% (issue 26), met over the 32 rows with a KV figure: 0.0% (h-servefix), 22 of them llama.cpp CI runs
    that are exact once n_ctx is padded as build b4801 did (32 cells without flash attention, PR #7257). vLLM alone
    is at 6.8% over 8 rows and SGLang's one row at +6.8%; what is left, per mechanism:

    - vLLM 0.6.4 on an RTX 3090 (issue #10517, +11% / +17%): that release's non-torch term is everything CUDA holds
      beyond torch's allocations, the CUDA context included (0.35 GiB logged against the constant 0.13 GiB here), and
      the profile peak comes out 0.16-0.22 GiB under the logged one;
    - vLLM 0.2.5 (PR #2031, Llama-2-70B TP=4, +53%): that release read the peak as total - free after the profile,
      NCCL buffers and allocator cache included; the estimate models today's torch-peak accounting and matches the
      0.2.4 row (31,615 blocks) to 1.0%;
    - Qwen3-235B-A22B-FP8 on 4xH100 (issue #21348): vLLM +24%, SGLang +7%: SGLang's pool has no profile term, so its
      surplus points at the FP8 weights being heavier than estimated, and vLLM's further gap at its MoE profile
      peak and non-torch memory (NCCL / custom all-reduce buffers at tp 4).
    """
    assert len(ACC.kv_errors) >= 30
    assert ACC.kv_median <= KV_TARGET
    vllm = accuracy([j for j in JUDGED if j.row.engine == "vllm"], 0)
    assert len(vllm.kv_errors) >= 8 and vllm.kv_median <= 0.07


@needs_engine
def test_verdicts_within_target():
    """Target met over 36 checked rows: no start judged refused and no refusal judged starting. The last two went
    with the CUDA-visible total (vllm-10517 at 29000 tokens: the RTX 3090's 23.58 GiB instead of 24.0) and the MXFP4
    Marlin layout (vllm-23278 / vllm-27508, gpt-oss-120b on one H100: 65.90 GiB of weights for 65.97 logged, and
    -2.13 GiB of KV cache estimated where vLLM 0.10.1 logged -2.14 GiB)."""
    assert ACC.verdicts_checked >= 36
    assert ACC.started_judged_refused == ()
    assert ACC.failed_judged_starting == ()


def test_engine_accounting_on_the_logged_weights():
    """engine/serving's generation_memory fed each vLLM row's logged weights on the preset GPU's CUDA-visible total:
    what is left is the engine's own accounting (profile peak, overheads, blocks). Level reached (h-servefix): no
    wrong verdict; the RTX 3090 rows' pools come out +10% / +15% (vLLM 0.6.4's non-torch memory with the CUDA
    context, 0.35 GiB, against the constant 0.13 GiB, and a profile peak 0.16-0.22 GiB under the logged one)."""
    judged = [j for j in (judge_given_weights(r) for r in ROWS) if j is not None]
    assert len(judged) >= 6
    assert not any(j.verdict_wrong for j in judged)
    pools = {j.row.id: j.kv_pool_error for j in judged if j.kv_pool_error is not None}
    # gpt-oss-20b on A100-80GB (vLLM 0.19.0, blog post): 36.31 GiB estimated for 36.56 GiB logged
    assert abs(pools["vllm-myoceane-a100-gpt-oss-20b-gmu065"]) <= 0.01
    # Llama-3.1-8B on an RTX 3090 (vLLM 0.6.4, issue #10517): 4.20 GiB estimated for 3.81 GiB logged
    assert abs(pools["vllm-10517-rtx3090-llama31-8b-20k"]) <= 0.11


@needs_engine
def test_vllm_sixteen_bit_weights_count_the_allocator_blocks():
    """vLLM's 'model weights take' figure is torch's max_memory_allocated around load_model (vllm/worker/
    model_runner.py lines 1111-1145 and vllm/platforms/cuda.py lines 172-176 at v0.8.3), so each weight tensor counts
    its caching-allocator block and the rotary cos_sin_cache counts too (engine/serving/vllm_load.py). The expected
    figures are the logged ones: Llama-3.1-8B-Instruct on an RTX 3090 (vllm-project/vllm issue #10517, 16,094,101,452
    bytes) and DeepSeek-R1-Distill-Qwen-14B at TP 2 on two RTX 4090s (issue #13061, 14,976,121,464 bytes); the bare
    parameters were 0.2% and 1.4% short of them."""
    by_id = {j.row.id: j for j in JUDGED}
    for row_id in ("vllm-10517-rtx3090-llama31-8b-20k", "vllm-13061-2x4090-r1-distill-qwen-14b"):
        judged = by_id[row_id]
        logged = judged.row.logged["weights_bytes"]
        assert abs(judged.weights_bytes / logged - 1) <= 0.001, row_id
