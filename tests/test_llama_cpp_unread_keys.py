"""A Mac user serving Llama 3.1 8B Q4_K_M with llama.cpp wrote "max_model_len": 32768 and "max_num_seqs": 1 (the
README's serving keys) and read "KV cache: 4,096 tokens" with no word why (user audit 11): llama.cpp sizes its KV
cache from n_ctx (-c, default 4,096 in llama-server's common params) shared by n_parallel (-np) slots and never reads
vLLM's and SGLang's two keys (engine/serving/llama_cpp.py). The estimate now says so; nothing it counts changes."""

from __future__ import annotations

from engine.scenario import scenario_from_dict
from engine.workloads import estimate

MAC_LLAMA_CPP = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "apple-m4-pro-48gb", "workload": "inference",
                 "serving_engine": "llama.cpp", "weight_format": "Q4_K_M"}


def _said(data: dict) -> list[str]:
    return [str(w) for w in estimate(scenario_from_dict(data)).warnings]


def test_the_keys_llama_cpp_does_not_read_are_named_with_what_it_reads():
    written = {**MAC_LLAMA_CPP, "max_model_len": 32768, "max_num_seqs": 1}
    said = [w for w in _said(written) if "does not read" in w]
    assert said == ["llama.cpp does not read max_model_len, max_num_seqs: it keeps n_ctx = 4,096 tokens of KV cache "
                    "(-c) for n_parallel = 1 sequence(s) at once (-np)."]
    # the figures are those of the file without the two keys
    plain, written_estimate = estimate(scenario_from_dict(MAC_LLAMA_CPP)), estimate(scenario_from_dict(written))
    assert written_estimate.serving.kv_tokens == plain.serving.kv_tokens
    assert written_estimate.total_bytes == plain.total_bytes


def test_nothing_is_said_where_the_keys_are_unset_or_read():
    assert not any("does not read" in w for w in _said(MAC_LLAMA_CPP))
    ollama = {**MAC_LLAMA_CPP, "serving_engine": "ollama", "n_ctx": 0, "max_model_len": 8192}
    assert [w for w in _said(ollama) if "does not read" in w] == [
        "Ollama does not read max_model_len: it keeps n_ctx = 131,072 tokens of KV cache (-c) for n_parallel = 1 "
        "sequence(s) at once (-np)."]  # n_ctx 0: the model's training context (Llama 3.1's 131,072)
    vllm = {**MAC_LLAMA_CPP, "gpu": "h100-sxm-80gb", "serving_engine": "vllm", "weight_format": "bf16",
            "max_model_len": 8192}
    assert not any("does not read" in w for w in _said(vllm))
