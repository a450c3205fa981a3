"""llama.cpp's GGUF sizes and decode rates on the measured llama-bench rows (engine/accuracy/gguf_decode_rate.py).

Expected values come from the rows themselves (tests/data/published/serving_speed.json): llama-bench's printed model
size in each row's `stated` line, and the measured tokens/s; the GPU peaks from presets/gpus.json."""

from __future__ import annotations

import pytest

from engine.accuracy.gguf_decode_rate import effective_weight_bandwidth, gguf_size_gib, stated_size_gib
from engine.accuracy.serving_speed import compare_all, read_rows
from engine.models.presets import get_gpu
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.scenario_estimate import serving_memory
from engine.serving.weights import shard

ROWS = read_rows()


def test_gguf_bits_per_weight_give_llama_bench_sizes() -> None:
    """Item 3 of the task: the engine's bits per weight of F16, Q8_0 and Q4_0 (ggml block sizes: 2 bytes, 34 and 18
    bytes per 32 weights) with llama_tensor_get_type's mix (output.weight Q6_K for Q4_0) and token_embd in CPU memory
    add up to the size llama-bench printed for CodeLlama-7B in PR #4766 (12.55 / 6.67 / 3.56 GiB), to its two
    decimals; and Q4_K_M's mix gives the sizes llama-bench printed on the Mac Studio M3 Ultra of
    geerlingguy/beowulf-ai-cluster issue #17 (build 4d3726278: Llama 3.3 70B 39.59 GiB, DeepSeek-R1 376.65 GiB);
    h-serverows2's LLaMA 7B rows add Q4_1, Q6_K, Q5_K_M and Q5_K_S (ggerganov's M2 Ultra tables of PRs #2917 and
    #3084: 3.95 / 5.15 / 4.45 / 4.33 GiB); h-presets20's ai-benchmarks #48 rows add TinyLlama 1.1B (636.18 MiB) and the
    tied Llama 3.2 3B (1.87 GiB: one token_embd in the file, which llama.cpp duplicates as the GPU's output layer).
    Not compared: PR #6539's `quantize --pure` Mistral 7B (3.79 GiB), whose
    output matrix is Q4_0 too where the planner's Q4_0 keeps llama.cpp's default Q6_K output (3.83 GiB)."""
    sized = [(row["id"], stated_size_gib(row), gguf_size_gib(row)) for row in ROWS
             if stated_size_gib(row) and "--pure" not in row["source"]]
    formats = {row["scenario"]["weight_format"] for row in ROWS if stated_size_gib(row)}
    assert formats == {"F16", "Q8_0", "Q4_0", "Q4_1", "Q6_K", "Q5_K_M", "Q5_K_S", "Q4_K_M"}
    assert {row["scenario"]["model"] for row in ROWS if stated_size_gib(row)} >= {"llama-3.3-70b", "deepseek-r1"}
    for row_id, stated, engine in sized:
        assert engine == pytest.approx(stated, abs=0.005), row_id


# llama-bench's size column for Meta-Llama-3.1 Instruct GGUFs, from an Arc Pro B70 SYCL benchmark note in the public
# code index (code-search id 55937478799): builds 845282461 (9739) for 8B, 74ade5274 (9672) for 70B, e.g.
# 'llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B' and 'llama 70B Q2_K - Medium | 24.56 GiB | 70.55 B'.
LLAMA_BENCH_SIZES_GIB = {("llama-3.1-8b", "Q4_K_M"): 4.58, ("llama-3.1-8b", "Q5_K_M"): 5.33,
                         ("llama-3.1-8b", "Q8_0"): 7.95, ("llama-3.1-70b", "Q4_K_M"): 39.59,
                         ("llama-3.1-70b", "Q2_K"): 24.56}


@pytest.mark.parametrize(("model", "fmt"), sorted(LLAMA_BENCH_SIZES_GIB))
def test_gguf_mixes_give_llama_bench_sizes(model: str, fmt: str) -> None:
    """The K-quant mixes (llama_tensor_get_type: use_more_bits layers of attn_v / ffn_down in Q6_K for Q4_K_M and
    Q5_K_M, Q2_K's Q3_K / Q4_K tensors, and the 70B-class attn_v bump to Q5_K) give llama-bench's sizes to its two
    decimals; without the 70B bump Q4_K_M / Q2_K of the 70B read 39.55 / 24.48 GiB."""
    row = {"scenario": {"workload": "inference", "serving_engine": "llama.cpp", "model": model, "gpu": "h100-sxm-80gb",
                        "weight_format": fmt, "n_gpu_layers": 999, "n_ctx": 512}}
    assert gguf_size_gib(row) == pytest.approx(LLAMA_BENCH_SIZES_GIB[(model, fmt)], abs=0.005)


def test_effective_bandwidth_is_measured_rate_times_weight_bytes() -> None:
    """Each llama.cpp decode row: weights the estimate reads a token x the measured tokens/s, over the preset's peak.
    A MoE row (DeepSeek-R1 on the M3 Ultra, beowulf-ai-cluster issue #17) reads its shared weights and 8 of its 256
    routed experts a token (presets/models/deepseek-r1.json top_k / n_experts), not the whole 376.65 GiB file: before
    that fix the diagnostic printed 8,163 GB/s, 997% of the M3 Ultra's 819 GB/s."""
    rates = [r for row in ROWS if (r := effective_weight_bandwidth(row)) is not None]
    # llama.cpp's and Ollama's (which runs llama.cpp: h-serverows2's obench rows) decode rows
    assert len(rates) == sum(1 for row in ROWS if row["engine"] in ("llama.cpp", "ollama") and "tokens_per_second"
                             in row["measured"])
    for row, rate in ((row, effective_weight_bandwidth(row)) for row in ROWS):
        if rate is None:
            continue
        s = scenario_from_dict(row["scenario"])
        weights = serving_memory(s).bytes_of("weights")
        spec = resolve_model(s)
        if spec.is_moe:
            assert (spec.top_k, spec.n_experts) == (8, 256)  # DeepSeek-R1's routing (config.json)
            # the experts' share of the held bytes in the file's own GGUF types (h-revd: it was the share of the
            # parameters; weights.shard gives each tensor's bytes), of the bytes on the GPU: token_embd stays in CPU
            # memory (llama_cpp.py; h-revleft: the share had counted it)
            held = shard(spec, s.weight_format, s.tp, s.pp, s.ep)
            weights *= 1 - held.experts / (held.total - held.embeddings) * (1 - 8 / 256)
        expected = weights * row["measured"]["tokens_per_second"]
        assert rate.effective_bytes_per_s == pytest.approx(expected)
        assert rate.fraction_of_peak == pytest.approx(expected / get_gpu(s.gpu).memory_bandwidth_bytes_per_s)


def test_estimate_reads_weights_faster_than_every_measured_llama_cpp_decode() -> None:
    """Each llama.cpp tg row's effective fraction of peak (the whole step over the weight bytes) lies below the
    fraction the estimate reads weights at: part of the gap is the step's kernels' fixed time (h-ggufrate,
    kernel_fixed_time.gguf_decode_fixed_seconds), the rest the read rate (gguf_matvec.py). The January-2024 K-quant
    rows (Q2_K, Q3_K_S on the RTX 3090) stay estimated at about twice their rate: their mat-vec's own share is left
    open."""
    errors = {c.id: c.error("tokens_per_second") for c in compare_all()}
    for row in ROWS:
        rate = effective_weight_bandwidth(row)
        if rate is None:
            continue
        assert rate.fraction_of_peak < rate.estimate_fraction_of_peak, rate.id
    assert errors["llamacpp-4766-rtx3090-7b-q2_k-tg128"] > 0.9 and errors["llamacpp-4766-rtx3090-7b-q3_k_s-tg128"] > 0.9


def test_rows_of_other_engines_have_no_gguf_rate() -> None:
    others = [row for row in ROWS if row["engine"] not in ("llama.cpp", "ollama")]
    assert others and all(effective_weight_bandwidth(row) is None for row in others)
