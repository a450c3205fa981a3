"""The last review's three leftovers (kg-revd "Open"; branch h-revleft), each against the rule it now shares:

1. a QLoRA MoE rollout's decode takes the untouched experts off at their share of the engine's *bytes*, each tensor
   in the format the engine holds it (weights.expert_byte_share), as the serving step does, not at their share of
   the parameters: the planner packs a QLoRA layer's experts with its other frozen linears (memory/states.py
   stage_params) while embeddings, head and norms stay 16-bit (engine_weight_bytes);
2. a llama.cpp MoE's expert share is of the bytes on the GPU: token_embd stays in CPU memory (llama_cpp.py);
3. the rollout's prefill all-reduces run once per max_num_batched_tokens chunk and layer, as serving's prefill counts
   them (speed.py chunked_all_reduce_seconds).

Expected values come from the functions' definitions (shard's tensor families, the engine's settings) and the rows in
tests/data/published/ (posttraining_time.json, serving_speed.json), not from recorded outputs."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.accuracy.gguf_decode_rate import weight_bytes_read_per_token
from engine.accuracy.serving_speed import read_rows as serving_rows
from engine.posttraining import timing
from engine.posttraining.estimate import step_parts
from engine.posttraining.models import engine_weight_format
from engine.posttraining.rollout_collectives import (
    all_reduce_seconds,
    forward_all_reduce_seconds,
    prefill_all_reduce_seconds,
)
from engine.posttraining.settings import rl_settings
from engine.scenario import resolve_model
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import chunked_all_reduce_seconds
from engine.serving.weights import expert_byte_share, shard, touched_expert_read_fraction
from engine.timing import hardware_for
from engine.workloads import step_time


def _qlora_moe_rollout() -> dict:
    """Unsloth's Llama-3.1-8B QLoRA GRPO notebook row with Qwen3-30B-A3B (128 experts, top 8) on an H100."""
    row = next(r for r in ptt.read_rows() if r["id"] == "unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    return dict(row["scenario"], model="qwen3-30b-a3b", gpu="h100-sxm-80gb", precision="bf16",
                rollout_gpu_memory_utilization=0.6)


def test_a_qlora_moe_rollout_takes_its_experts_off_at_their_share_of_the_engines_bytes(monkeypatch) -> None:
    s = scenario_from_dict(_qlora_moe_rollout())
    spec, e = resolve_model(s), step_parts(s).engine
    assert e is not None and e.refusal is None
    assert engine_weight_format(s) == "bnb-nf4"  # packed 4-bit linears and experts, 16-bit embeddings and head
    tp = rl_settings(s, 2).rollout_tp
    by_bytes = expert_byte_share(spec, "bnb-nf4", tp)
    by_params = spec.moe_layers * spec.expert_params_per_layer() / spec.total_params
    # the 16-bit embeddings and head weigh more beside 4-bit experts than their parameter count says
    assert by_bytes < by_params - 0.02
    seen: list[float | None] = []
    real = timing.touched_expert_read_fraction

    def recording(spec_, tokens: int, expert_share: float | None = None, rate_share: float = 1.0) -> float:
        seen.append(expert_share)
        return real(spec_, tokens, expert_share, rate_share)

    monkeypatch.setattr(timing, "touched_expert_read_fraction", recording)
    step_time(s)
    assert seen and all(share == pytest.approx(by_bytes, rel=1e-12) for share in seen)


def test_the_engine_format_follows_the_policys_storage() -> None:
    base = _qlora_moe_rollout()
    assert engine_weight_format(scenario_from_dict(dict(base, qlora_bits=8))) == "int8"  # LLM.int8: a scale a row
    assert engine_weight_format(scenario_from_dict(dict(base, method="lora"))) == "bf16"


def test_a_llama_cpp_moe_share_is_of_the_gpu_held_bytes() -> None:
    """M3 Ultra DeepSeek-R1 Q4_K_M (serving_speed.json): token_embd stays in CPU memory, so the experts' share is of
    the offloaded layers and the output layer, which the decode diagnostic reads with."""
    row = next(r for r in serving_rows() if r["scenario"].get("model") == "deepseek-r1"
               and r["scenario"].get("serving_engine") in ("llama.cpp", "ollama"))
    s = scenario_from_dict(row["scenario"])
    spec = resolve_model(s)
    held = shard(spec, s.weight_format, s.tp, s.pp, s.ep)
    on_gpu = expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep, embeddings_held=False)
    assert on_gpu == pytest.approx(held.experts / (held.total - held.embeddings), rel=1e-12)
    assert on_gpu > expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep)
    weights = serving_memory(s).bytes_of("weights")
    assert weight_bytes_read_per_token(row) == pytest.approx(
        weights * touched_expert_read_fraction(spec, 1, on_gpu), rel=1e-12)


def test_the_rollout_prefill_runs_one_all_reduce_a_chunk_and_layer() -> None:
    """NeMo-RL's Qwen3-30B-A3B GRPO row: its engine (rollout_tp 2, vLLM's custom all-reduce) prefills the batch's
    prompts in chunks of max_num_batched_tokens, each layer's two all-reduces once per chunk."""
    row = next(r for r in ptt.read_rows() if r["id"] == "nemo-rl-perf-grpo-qwen3-30b-a3b-32xh100")
    s = scenario_from_dict(row["scenario"])
    spec, hw, e = resolve_model(s), hardware_for(s), step_parts(s).engine
    tp = rl_settings(s, 2).rollout_tp
    tokens = 3 * e.batched_tokens + 100  # three whole chunks and a part one
    hidden_bytes = spec.hidden * 2

    def one(message: float) -> float:
        return all_reduce_seconds(s, hw, tp, message)

    expected = 2 * spec.layers * (3 * one(e.batched_tokens * hidden_bytes) + one(100 * hidden_bytes))
    assert prefill_all_reduce_seconds(s, hw, spec, tp, tokens, e.batched_tokens) == pytest.approx(expected, rel=1e-12)
    # one forward over all of it (no engine: the trainer's generate()) is the old one-latency-a-layer figure
    assert prefill_all_reduce_seconds(s, hw, spec, tp, tokens, 0) == pytest.approx(
        forward_all_reduce_seconds(s, hw, spec, tp, tokens), rel=1e-12)
    assert expected > forward_all_reduce_seconds(s, hw, spec, tp, tokens)


def test_serving_chunks_give_its_closed_form() -> None:
    """The shared rule, with serving's intra-node all-reduce (latency + ring bytes / bus), is serving's former closed
    form: the ring of every prompt token plus one latency per chunk and layer."""
    latency, bus, layers, hidden_bytes, tp = 5e-6, 4e11, 48, 4096.0, 4

    def one(message: float) -> float:
        return latency + 2 * (tp - 1) / tp * message / bus

    prompt, chunk = 20000, 8192
    closed = 2 * layers * (3 * latency + 2 * (tp - 1) / tp * prompt * hidden_bytes / bus)
    assert chunked_all_reduce_seconds(one, layers, prompt, chunk, hidden_bytes) == pytest.approx(closed, rel=1e-12)
