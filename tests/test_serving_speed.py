"""Serving speed (engine/serving/speed.py): the roofline terms recomputed here from the hardware figures the time
model uses (presets/gpus.json datasheet bandwidth x presets/efficiency.json achieved fraction)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.engine_step_host import engine_step_host_seconds
from engine.serving.kernel_fixed_time import decode_fixed_seconds
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.timing.hardware import hardware_for


def _scenario(**extra):
    return scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference",
                               "max_model_len": 8192, **extra})


def test_single_stream_decode_reads_the_weights_once_per_token():
    """One sequence: a decode step reads every weight byte but the embedding table's and the sequence's KV once; at
    batch 1 a GPU is memory-bound (2 FLOPs per weight against ~1,000 FLOP per byte of machine balance), so TPOT =
    bytes / achieved bandwidth, plus every kernel's fixed time (kernel_fixed_time.py: 32 layers of 4 GEMMs, the
    attention and 5 small kernels), plus vLLM V1's engine loop of the step in series
    (engine/serving/engine_step_host.py). Llama 3.1 8B's table is untied (meta-llama/Llama-3.1-8B config.json:
    vocab_size 128,256, hidden_size 4,096, tie_word_embeddings false): the step looks up one row of it, not all
    128,256 x 4,096 x 2 bytes."""
    s = _scenario()
    memory = serving_memory(s)
    speed = serving_speed(s, memory, concurrency=1, context=1024)
    kv = 1024 * memory.kv_bytes_per_token
    fixed = decode_fixed_seconds("vllm", resolve_model(s))
    assert s.serving_engine == "vllm" and fixed > 0
    table = 128_256 * 4_096 * 2
    expected = (memory.bytes_of("weights") - table + kv) / hardware_for(s).memory_bytes_per_s + fixed
    expected += engine_step_host_seconds(s, s.serving_engine, 1)
    assert speed.bound == "memory" and speed.tpot_seconds == pytest.approx(expected)
    assert speed.tokens_per_second == pytest.approx(1 / expected)


def test_batching_raises_throughput_until_compute_bound():
    s = _scenario()
    memory = serving_memory(s)
    rates = [serving_speed(s, memory, concurrency=c, context=1024).tokens_per_second for c in (1, 8, 64)]
    assert rates[0] < rates[1] < rates[2]
    assert serving_speed(s, memory, concurrency=4096, context=16).bound == "compute"


def test_time_to_first_token_grows_with_the_prompt():
    """Prefill is compute-bound and its attention grows with prompt^2 / 2: 4x the prompt costs more than 4x."""
    s = _scenario()
    memory = serving_memory(s)
    short = serving_speed(s, memory, concurrency=1, context=8192, prompt_tokens=2048)
    long = serving_speed(s, memory, concurrency=1, context=8192, prompt_tokens=8192)
    assert long.prefill_terms[0].seconds > 4 * short.prefill_terms[0].seconds * 0.99
    assert long.ttft_seconds > short.ttft_seconds


def test_fp8_weights_halve_the_decode_reads():
    """fp8 weights are one byte: a memory-bound step reads about half of bf16's bytes (its kernels' fixed time does
    not halve: the same kernels, and fp8 W8A8 adds each weight GEMM's input quantization, kernel_fixed_time.py)."""
    bf16, fp8 = _scenario(), _scenario(weight_format="fp8")
    fixed16 = decode_fixed_seconds("vllm", resolve_model(bf16))
    fixed8 = decode_fixed_seconds("vllm", resolve_model(fp8), 1, True)
    assert fixed8 > fixed16
    t16 = serving_speed(bf16, serving_memory(bf16), concurrency=1, context=16).tpot_seconds - fixed16
    t8 = serving_speed(fp8, serving_memory(fp8), concurrency=1, context=16).tpot_seconds - fixed8
    assert 0.5 < t8 / t16 < 0.6


def test_a_million_output_tokens_cost_every_rented_gpu_for_the_hours_they_take():
    """Cost = 1e6 / tokens/s seconds, in hours, x the scenario's GPUs x the price per GPU-hour; one H100 at
    batch 1 is memory-bound (test above), so the figure follows from its TPOT. No price: no cost (never invented)."""
    from engine.serving.speed import cost_per_million_output_tokens

    s = _scenario(gpus_per_node=2, tp=2, gpu_hour_price=3.0)
    speed = serving_speed(s, serving_memory(s), concurrency=1, context=1024)
    hours = 1e6 * speed.tpot_seconds / 3600  # one stream: tokens/s = 1 / TPOT
    assert cost_per_million_output_tokens(s, speed) == pytest.approx(hours * 2 * 3.0)
    assert cost_per_million_output_tokens(s.replace(gpu_hour_price=None), speed) is None


def test_a_tied_table_is_read_whole_as_the_lm_head():
    """Qwen2.5-0.5B ties its embeddings (Qwen/Qwen2.5-0.5B config.json tie_word_embeddings true): the LM head
    projects every token onto the whole table, so a decode step reads it all; untied Llama 3.1 8B leaves its
    embedding table (all but one row per token) unread."""
    from engine.models.presets import model_spec_for
    from engine.serving.weights import decode_unread_bytes, shard
    tied = model_spec_for("qwen2.5-0.5b")
    assert tied.tied_embeddings and decode_unread_bytes(tied, "bf16") == 0.0
    untied = model_spec_for("llama-3.1-8b")
    assert decode_unread_bytes(untied, "bf16", 2) == shard(untied, "bf16", 2).embeddings == 128_256 * 4_096 * 2 / 2


def test_under_a_pipeline_the_stage_that_reads_the_most_bounds_the_decode_reads():
    """Under a pipeline the first stage holds the embedding table and the vision tower, which a decode step does not
    read, and the last the LM head, which it reads whole. Qwen2.5-VL-7B (untied, a 0.68B vision tower) at pp 4: the
    first stage holds the most (7 layers + table + tower), the last reads the most (7 layers + head + final norm),
    so the bytes left unread are the busiest stage's held bytes less the last stage's whole weights; at pp 1 they
    are the table and the tower, as before. Gemma 3 27B ties its table: under a pipeline the first stage's table is
    a lookup and the last stage's head a copy of its own, read whole."""
    from engine.models.presets import model_spec_for
    from engine.serving.weights import decode_unread_bytes, shard, stage_shards
    vl = model_spec_for("qwen2.5-vl-7b")
    stages = stage_shards(vl, "bf16", 1, 4)
    assert max(stages, key=lambda w: w.total) is stages[0]
    assert stages[-1].lm_head > 0 and stages[-1].embeddings == 0 == stages[-1].vision
    assert decode_unread_bytes(vl, "bf16", 1, 4) == pytest.approx(stages[0].total - stages[-1].total)
    # the first stage's own reads (its layers) are less than the last stage's
    assert stages[0].total - stages[0].embeddings - stages[0].vision < stages[-1].total
    one = shard(vl, "bf16")
    assert decode_unread_bytes(vl, "bf16") == one.embeddings + one.vision
    gemma = model_spec_for("gemma-3-27b")
    assert gemma.tied_embeddings
    g = stage_shards(gemma, "bf16", 1, 2)
    reads = max(w.total - w.embeddings - w.vision for w in g)
    assert decode_unread_bytes(gemma, "bf16", 1, 2) == pytest.approx(max(w.total for w in g) - reads)


def test_the_touched_experts_rule_is_one_rule():
    """weights.touched_expert_read_fraction: a dense model reads all its weights; Qwen3-30B-A3B (128 experts, top 8,
    its config.json) at one token reads its non-expert weights and 8 / 128 of the experts', and at 256 tokens all but
    (1 - 8/128)^256 of them (about 7e-8). The serving step and the GGUF decode diagnostic read it."""
    from engine.accuracy.gguf_decode_rate import weight_bytes_read_per_token  # noqa: F401  (it imports the rule)
    from engine.models.presets import model_spec_for
    from engine.serving.weights import touched_expert_read_fraction
    assert touched_expert_read_fraction(model_spec_for("llama-3.1-8b"), 1) == 1.0
    moe = model_spec_for("qwen3-30b-a3b")
    assert (moe.n_experts, moe.top_k) == (128, 8)
    share = moe.moe_layers * moe.expert_params_per_layer() / moe.total_params
    assert touched_expert_read_fraction(moe, 1) == pytest.approx(1 - share * (1 - 8 / 128))
    assert touched_expert_read_fraction(moe, 256) == pytest.approx(1 - share * (1 - 8 / 128) ** 256)


def test_a_moe_step_reads_its_held_bytes_less_the_untouched_experts_in_their_own_format():
    """Review h-revd: gpt-oss-120b in MXFP4 keeps its 128 experts in 4.25 bits and the rest (attention, router,
    table, head) in 16 (openai/gpt-oss-120b config.json quantization_config: modules_to_not_convert), so the experts
    are 93.5% of the bytes one GPU holds against 98.2% of the parameters. At one sequence the step reads the held
    bytes less the 124 of 128 experts no token picks (top_k 4) and less the untied table it looks up a row of: the
    untouched share taken by parameters had read about half of that."""
    from engine.models.presets import model_spec_for
    from engine.serving.weights import decode_unread_bytes, expert_byte_share, shard
    s = _scenario(model="gpt-oss-120b", weight_format="mxfp4", max_model_len=4096)
    spec = model_spec_for("gpt-oss-120b")
    assert (spec.n_experts, spec.top_k) == (128, 4)
    held_shard = shard(spec, "mxfp4")
    assert expert_byte_share(spec, "mxfp4") == pytest.approx(held_shard.experts / held_shard.total)
    memory = serving_memory(s)
    held = memory.bytes_of("weights")
    speed = serving_speed(s, memory, concurrency=1, context=100)  # under its 128-token window: every layer caches all
    untouched = held * expert_byte_share(spec, "mxfp4") * (1 - 4 / 128)
    expected = held - untouched - decode_unread_bytes(spec, "mxfp4") + 100 * memory.kv_bytes_per_token
    mem = next(t.seconds for t in speed.decode_terms if t.key == "decode_memory")
    assert mem == pytest.approx(expected / hardware_for(s).memory_bytes_per_s)


def test_an_unset_token_budget_is_the_one_vllm_picks_for_the_gpu():
    """vLLM 0.11.2 (vllm/engine/arg_utils.py lines 1892-1911, engine/serving/defaults.py) gives GPUs under 70 GiB and
    the A100 a max_num_batched_tokens of 2048 and larger GPUs 8192; the prefill is chunked by that budget, so an unset
    budget times the prompt as the engine's own default does (it had taken 8192 everywhere; found by h-revleft18)."""
    def ttft(gpu: str, budget: int | None) -> float:
        # tensor-parallel: each chunk pays its all-reduces' latency per layer, so the chunk count shows in the TTFT
        s = _scenario(gpu=gpu, tp=2, gpus_per_node=2, **({"max_num_batched_tokens": budget} if budget else {}))
        return serving_speed(s, serving_memory(s), concurrency=1, context=8000, prompt_tokens=8000).ttft_seconds

    assert ttft("a100-80gb", None) == pytest.approx(ttft("a100-80gb", 2048))
    assert ttft("a100-80gb", None) != pytest.approx(ttft("a100-80gb", 8192))
    assert ttft("h100-sxm-80gb", None) == pytest.approx(ttft("h100-sxm-80gb", 8192))
