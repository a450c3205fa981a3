"""The serving speed bands (issue 23 item 8): presets/serving_speed_bands.json is what the measured serving rows
give today, and the estimate's surfaces show each figure's range and what it was checked against."""

from __future__ import annotations

import statistics

from engine.accuracy.serving_speed import compare_all, read_rows
from engine.accuracy.serving_speed_band import bands_json, measured_figure
from engine.scenario.file import load_scenario
from engine.serving.report import render_serving, serving_to_json
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.serving.speed_band import SERVING_BANDS_FILE, speed_bands, speed_ranges


def test_the_bands_file_is_current():
    # regenerate with benchmarks/serving_speed_accuracy.py when the rows or the serving estimate change
    assert SERVING_BANDS_FILE.read_text(encoding="utf-8") == bands_json()


def test_llama_cpp_tokens_per_second_band_is_the_rows_10th_to_90th_percentile():
    # expected: recomputed here from the llama.cpp rows' measured / estimated tokens/s (tests/data/published)
    errors = [c.measured["tokens_per_second"] / c.estimated["tokens_per_second"] - 1 for c in compare_all()
              if c.engine == "llama.cpp" and "tokens_per_second" in c.measured]
    deciles = statistics.quantiles(errors, n=10, method="inclusive")
    band = speed_bands()[("llama.cpp", "tokens_per_second")]
    assert band["runs"] == len(errors) >= 2
    assert (band["low"], band["high"]) == (round(deciles[0], 4), round(deciles[-1], 4))


def test_a_tpot_is_derived_from_a_single_sequence_decode_rate():
    row = next(r for r in read_rows() if "tokens_per_second" in r["measured"] and "tpot_ms" not in r["measured"]
               and r["workload"]["concurrency"] == 1)
    value, derived = measured_figure(row, "tpot_ms")
    assert derived and value == 1e3 / row["measured"]["tokens_per_second"]


def test_the_served_example_shows_its_ranges_in_text_and_json():
    s = load_scenario("examples/serve-llama3.1-8b-q4km-llamacpp.json")
    memory = serving_memory(s)
    speed = serving_speed(s, memory)
    ranges = speed_ranges(memory.engine, speed)
    tpot = ranges["tpot_seconds"]
    band = speed_bands()[("llama.cpp", "tpot_ms")]
    assert tpot.engine == "llama.cpp" and tpot.low == speed.tpot_seconds * (1 + band["low"])
    # speed.py's tokens/s is users / TPOT, so its range is users / the TPOT range
    assert ranges["tokens_per_second"].low == speed.concurrency / tpot.high
    text = render_serving(memory, speed)
    assert "Measured runs like this one came to: first token" in text and "llama.cpp's own" in text
    out = serving_to_json(memory, speed)["speed"]
    assert out["ranges"]["tpot_seconds"] == [tpot.low, tpot.high]
    assert out["range_basis"]["figures"]["tpot_seconds"]["runs"] == band["runs"]
    assert out["tpot_seconds"] == speed.tpot_seconds  # the estimate itself is unchanged


def test_an_engine_with_one_run_of_a_figure_takes_all_engines_band_and_says_so():
    s = load_scenario("examples/serve-qwen3-32b-awq-2x4090.json")
    memory = serving_memory(s)
    speed = serving_speed(s, memory)
    assert speed_bands()[("vllm", "ttft_ms")]["runs"] < 2
    assert speed_ranges(memory.engine, speed)["ttft_seconds"].engine == "all"
    assert "all engines' runs there" in render_serving(memory, speed)


def test_vllm_rows_split_by_regime_and_each_regime_band_is_its_rows_percentiles():
    # h-serverows: vLLM's TPOT band came from graphs-on rows (+8..+30%) while its one eager row (issue #20469) reads
    # +150%; the bands now split vLLM / SGLang rows by regime (engine/serving/speed_regime.py: eager where the
    # estimate's decode has host launches). Expected: recomputed here from the rows of each regime.
    from engine.serving.speed_band import regime_bands

    compared = compare_all()
    by_id = {r["id"]: r for r in read_rows()}
    eager = [c for c in compared if c.engine == "vllm" and c.regime == "eager"]
    assert eager and all(by_id[c.id]["scenario"].get("enforce_eager") for c in eager)
    graphs = [c for c in compared if c.engine == "vllm" and c.regime == "graphs"]
    errors = [value / c.estimated["tpot_ms"] - 1 for c in graphs
              if (value := measured_figure(by_id[c.id], "tpot_ms", c.estimated)[0])]
    deciles = statistics.quantiles(errors, n=10, method="inclusive")
    band = regime_bands()[("vllm", "graphs", "tpot_ms")]
    assert band["runs"] == len(errors) and (band["low"], band["high"]) == (round(deciles[0], 4),
                                                                            round(deciles[-1], 4))
    assert regime_bands()[("vllm", "eager", "tpot_ms")]["runs"] == 1  # one eager row: too few for a band of its own


def test_a_served_scenario_says_which_regimes_rows_gave_its_range():
    from engine import scenario_from_dict
    from engine.serving.speed_regime import EAGER, GRAPHS, speed_regime

    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm",
            "max_model_len": 8192}
    for eager, regime in ((False, GRAPHS), (True, EAGER)):
        s = scenario_from_dict({**base, "enforce_eager": eager})
        memory = serving_memory(s)
        speed = serving_speed(s, memory)
        assert speed_regime("vllm", speed) == regime
        tpot = speed_ranges("vllm", speed)["tpot_seconds"]
        text = render_serving(memory, speed)
        if regime == GRAPHS:  # 10 graphs-on rows: their own band, said so
            assert tpot.regime == GRAPHS and "vLLM's own runs with CUDA graphs: time per output token" in text
        else:  # one eager row: vLLM's rows of both regimes, as before, and the words say so
            assert tpot.regime == "" and tpot.engine == "vllm"
            assert ("vLLM has fewer than 2 measured runs without CUDA graphs of time per output token, tokens/s: all "
                    "of vLLM's runs there") in text
        basis = serving_to_json(memory, speed)["speed"]["range_basis"]["figures"]["tpot_seconds"]
        assert basis["speed_regime"] == regime


def test_an_ollama_plan_takes_ollamas_own_rows_and_llama_cpps_where_it_has_none():
    # review 20: benchmarks/serving_speed_accuracy.py writes an 'ollama' band from the 10 Ollama rows (geerlingguy's
    # obench, tests/data/published/serving_speed.json), but the ranges mapped ollama to llama.cpp before looking, so
    # no Ollama plan read them. Ollama's rows state a decode rate only: its TPOT is theirs, its first token
    # llama.cpp's (the code it runs), and the words say whose rows gave which.
    from engine import scenario_from_dict

    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference",
                            "serving_engine": "ollama", "weight_format": "Q4_K_M", "n_ctx": 8192})
    memory = serving_memory(s)
    speed = serving_speed(s, memory)
    ranges = speed_ranges("ollama", speed)
    own, kin = speed_bands()[("ollama", "tpot_ms")], speed_bands()[("llama.cpp", "ttft_ms")]
    assert own["runs"] == sum(1 for r in read_rows() if r["engine"] == "ollama") >= 2
    assert ranges["tpot_seconds"].engine == "ollama" and ranges["tpot_seconds"].runs == tuple(own["run_ids"])
    assert ranges["ttft_seconds"].engine == "llama.cpp" and ranges["ttft_seconds"].runs == tuple(kin["run_ids"])
    text = render_serving(memory, speed)
    assert "Ollama's own: time per output token, tokens/s" in text
    assert "Ollama has fewer than 2 measured runs of time to first token: the runs of llama.cpp" in text
