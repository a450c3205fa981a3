"""Published serving-engine start-up logs (tests/data/published/serving_logs.json), issue 26.

Data integrity: every row has a source URL, the engine version, its settings under the scenario's key names and
the logged figures, and the figures agree with the engines' own arithmetic (each check names the source line of the
rule). Accuracy against the serving estimate is in tests/test_serving_accuracy.py.
"""

from __future__ import annotations

import json

import pytest

from engine.accuracy.serving_logs import SERVING_LOGS_FILE, check_row, load_serving_logs, scenario_dict
from engine.errors import PlannerError
from engine.models.presets import get_model_preset

RAW = json.loads(SERVING_LOGS_FILE.read_text(encoding="utf-8"))
ROWS = load_serving_logs()
MIB = 2**20


def _config(row):
    return row.hf_config if row.hf_config else get_model_preset(row.model).hf_config


def test_at_least_40_sourced_rows_over_the_engines_with_starts_and_failures():
    assert len(ROWS) >= 40
    assert len({r.id for r in ROWS}) == len(ROWS)
    assert [p for raw in RAW for p in check_row(raw)] == []
    engines = {r.engine for r in ROWS}
    assert {"vllm", "sglang", "llama.cpp"} <= engines
    assert sum(1 for r in ROWS if not r.started) >= 5
    assert all(r.url.startswith("https://") and r.source and r.engine_version for r in ROWS)


def test_bad_rows_get_one_sentence_each(tmp_path):
    assert check_row([]) == ["A row of the serving logs is not an object."]
    bad = dict(RAW[0], engine="tgi", outcome="crashed", settings={"gpu_memory_utilisation": 0.9}, url="http://x")
    problems = check_row(bad)
    assert len(problems) == 4 and all(p.endswith(".") and "\n" not in p for p in problems)
    path = tmp_path / "logs.json"
    path.write_text(json.dumps([bad]), encoding="utf-8")
    with pytest.raises(PlannerError, match="names an engine the planner does not know: tgi"):
        load_serving_logs(path)


def test_vllm_tokens_are_blocks_times_block_size():
    # vllm/v1/core/kv_cache_utils.py @ bbf906a8 (and the V0 executors): GPU KV cache size = num_blocks x block_size
    rows = [r for r in ROWS if "gpu_blocks" in r.logged and "kv_tokens" in r.logged]
    assert len(rows) >= 6
    for r in rows:
        assert r.logged["kv_tokens"] == r.logged["gpu_blocks"] * r.settings.get("block_size", 16), r.id


def test_logged_concurrency_is_tokens_over_max_model_len():
    # "Maximum concurrency for L tokens per request: C x" with C = tokens / L printed with 2 decimals
    rows = [r for r in ROWS if "max_concurrency" in r.logged and "kv_tokens" in r.logged]
    assert len(rows) >= 3
    for r in rows:
        assert r.logged["kv_tokens"] / r.settings["max_model_len"] == pytest.approx(r.logged["max_concurrency"],
                                                                                  abs=0.005), r.id


def test_refused_for_max_seq_len_means_fewer_tokens_than_max_model_len():
    rows = [r for r in ROWS if r.failure.startswith("max seq len")]
    assert len(rows) >= 2
    for r in rows:
        assert r.logged["kv_tokens"] < r.settings["max_model_len"], r.id


def test_llama_cpp_kv_buffer_is_n_ctx_layers_and_kv_width():
    # llama_kv_cache_init: n_ctx cells x layers x (n_embd_k_gqa + n_embd_v_gqa) x 2 bytes (f16 K and V)
    rows = [r for r in ROWS if r.engine in ("llama.cpp", "ollama")]
    assert len(rows) >= 20
    for r in rows:
        cfg = _config(r)
        kv_heads = cfg.get("num_key_value_heads", cfg["num_attention_heads"])
        head_dim = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
        expected = r.settings["n_ctx"] * cfg["num_hidden_layers"] * 2 * kv_heads * head_dim * 2
        assert r.logged["kv_cache_bytes"] == expected, r.id


# ggml/src/ggml-common.h @ aca2e6ce: bytes per block / weights per block
BLOCK = {"f16": (2, 1), "q8_0": (34, 32), "q6_k": (210, 256), "q4_0": (18, 32), "q4_k": (144, 256),
         "q5_k": (176, 256)}


def _pythia_file_bytes(types: dict[str, int], cfg: dict) -> float:
    """GGUF tensor bytes of a GPT-NeoX model whose tensors the log counts per type (llama-quant.cpp's recipe)."""
    h, ff, layers, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["vocab_size"]
    shapes = {"qkv": h * 3 * h, "out": h * h, "up": h * ff, "down": ff * h, "embd": vocab * h, "output": vocab * h}
    f32 = layers * (3 * h + h + ff + h + 4 * h) + 2 * h  # biases of qkv/out/up/down, two norms' w and b; final norm
    per_type = {  # which tensors each logged type count covers, from llama_tensor_get_type's rules
        ("f16", 98): layers * (shapes["qkv"] + shapes["out"] + shapes["up"] + shapes["down"]) + 2 * shapes["embd"],
        ("q8_0", 98): layers * (shapes["qkv"] + shapes["out"] + shapes["up"] + shapes["down"]) + 2 * shapes["embd"],
        ("q4_0", 97): layers * (shapes["qkv"] + shapes["out"] + shapes["up"] + shapes["down"]) + shapes["embd"],
        ("q6_k", 1): shapes["output"],
        ("q4_k", 61): shapes["embd"] + layers * (shapes["out"] + shapes["up"]) + 12 * shapes["down"],
        ("q5_k", 24): layers * shapes["qkv"],
        ("q6_k", 13): 12 * shapes["down"] + shapes["output"],
    }
    total = 4.0 * f32
    for name, count in types.items():
        size, per = BLOCK[name]
        total += per_type[(name, count)] * size / per
    return total


def test_gguf_block_sizes_and_per_tensor_rules_give_the_logged_file_sizes():
    checked = 0
    for r in ROWS:
        types = r.logged.get("tensor_types")
        if r.engine != "llama.cpp" or not types or not r.id.endswith("-tg"):
            continue
        counts = {k.strip().lower(): int(v) for k, v in (t.split(":") for t in types.split(","))}
        assert counts.pop("f32") == 194, r.id
        assert _pythia_file_bytes(counts, _config(r)) / MIB == pytest.approx(r.logged["weights_bytes"] / MIB,
                                                                             abs=0.03), r.id
        checked += 1
    assert checked == 4  # f16, q8_0, q4_0 and q4_k_m carry their tensor counts


def test_every_row_becomes_an_inference_scenario_of_its_own_settings():
    for r in ROWS:
        data = scenario_dict(r)
        assert data["workload"] == "inference" and data["serving_engine"] == r.engine, r.id
        assert all(data[k] == v for k, v in r.settings.items()), r.id
        assert ("gpu" in data) == (r.gpu is not None or bool((r.gpu_facts or {}).get("memory_bytes"))), r.id
