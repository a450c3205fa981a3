"""Host work of MLA attention, shared experts and selective recompute in Megatron's TE layers
(engine/timing/mla_shared_host.py, te_module_host.py; presets/host_overhead.json te_modules mla, shared_experts,
recompute_calls). The counts are read from NVIDIA/Megatron-LM at 24bad8e6 (the Megatron-Core of Megatron-Bridge's
Moonlight-16B recompute card): gpt_layer_specs.py's unfused MLA branch, multi_latent_attention.py,
moe/shared_experts.py and tensor_parallel/random.py; each expected number below is that count, restated."""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.host import host_figures
from engine.timing.mla_shared_host import mla_extra, shared_expert_extra
from engine.timing.model import step_time
from engine.timing.te_module_host import recompute_calls, te_module_calls

ROWS = {r["id"]: r for r in load_rows()}
MOONLIGHT = "mbridge-skill-moonlight_16b-h100-bf16-8-recompute-"
TABLE = host_figures()["te_modules"]


def _moonlight(modules: str = "none", **keys):
    return scenario_from_dict({**ROWS[MOONLIGHT + modules]["scenario"], **keys})


def _dsv3(**keys):
    return scenario_from_dict({"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32,
                               "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 4096,
                               "tp": 1, "pp": 16, "ep": 16, **keys})


def test_mla_without_a_query_low_rank_under_sequence_parallelism():
    """Moonlight (q_lora_rank None) at TP 2 with sequence parallelism: +1 launch forward and +4 backward over the
    standard attention (input norm, kv_down and a second up projection for the q / k norms; the two down projections'
    input gradients added), +2 each way for the k_pos_emb gather and kv_up's gathered input; calls +1 each way and
    the gather Function +1."""
    s = _moonlight()
    assert mla_extra(s, resolve_model(s), TABLE) == ((3, 6), (2, 2))


def test_mla_with_a_query_low_rank_and_no_tensor_parallelism():
    """DeepSeek-V3 (q_lora_rank 1536) at TP 1: linear_q_down_proj and linear_q_up_proj replace linear_q_proj (+2
    launches forward, +3 backward, +1 call each way); no sequence-parallel gathers."""
    s = _dsv3()
    assert resolve_model(s).q_lora_rank
    assert mla_extra(s, resolve_model(s), TABLE) == ((3, 7), (2, 2))


def test_standard_attention_and_routed_only_experts_add_nothing():
    s = scenario_from_dict({**ROWS[MOONLIGHT + "none"]["scenario"], "model": "qwen3-30b-a3b"})
    spec = resolve_model(s)
    assert mla_extra(s, spec, TABLE) == ((0, 0), (0, 0))
    assert shared_expert_extra(s, spec, TABLE) == ((0, 0), (0, 0))


def test_shared_experts_with_their_sequence_parallel_functions():
    """Moonlight's two shared experts (one SharedExpertMLP) at TP 2 with sequence parallelism: fc1, SwiGLU, fc2
    launches (3) and the all-gather and reduce-scatter (2) forward; 6 + 2 backward; calls fc1, the SwiGLU Function,
    the stream-wait Function, fc2 and the gather and reduce-scatter Functions, 6 each way."""
    s = _moonlight()
    assert shared_expert_extra(s, resolve_model(s), TABLE) == ((5, 8), (6, 6))


def test_the_extras_follow_the_eager_parts_only():
    """An MoE layer of Moonlight eager: te_modules attention + moe_router + moe_experts (9 + 8 + 9 forward, 7 + 6 + 7
    backward) plus MLA (2, 2) and the shared experts (6, 6), the shared experts' forward in the experts' part; a
    per-layer CUDA graph ('layers') runs none of it."""
    s = _moonlight()
    assert te_module_calls(s, True, True, frozenset(), TABLE) == (26 + 2 + 6, 20 + 2 + 6, 9 + 6)
    whole = frozenset({"attention", "mlp", "moe_router", "moe_experts"})
    assert te_module_calls(s, True, True, whole, TABLE) == (0, 0, 0)


def test_selective_recompute_calls_per_checkpointed_site():
    """layernorm + moe_act in an MoE layer of Moonlight: two stand-alone norms (MLA's input norm, the pre-MLP norm)
    and the experts' activation, (2, 3) each; the empty list adds none; mlp counts in the dense layer only (1, 5)."""
    assert recompute_calls(_moonlight("layernorm-moe_act"), True, frozenset(), TABLE) == ((6, 9), 2)
    assert recompute_calls(_moonlight(), True, frozenset(), TABLE) == ((0, 0), 0)
    mlp = _moonlight("mla_up_proj-mlp")
    assert recompute_calls(mlp, False, frozenset(), TABLE) == ((2 + 1, 6 + 5), 0)
    assert recompute_calls(mlp, True, frozenset(), TABLE) == ((2, 6), 0)


def test_moonlights_recompute_variants_cost_in_the_measured_order():
    """The card's matched control (NVIDIA-NeMo/Megatron-Bridge skills/nemo-mbridge-perf-activation-recompute/card.yaml
    at 067f987d): no recompute 457.18 ms < moe_act 466.26 < mla_up_proj 480.89 < mla_up_proj + mlp 496.73 <
    layernorm + moe_act 506.53; the model orders these five as measured."""
    order = ["none", "moe_act", "mla_up_proj", "mla_up_proj-mlp", "layernorm-moe_act"]
    steps = [step_time(_moonlight(m)).step_seconds for m in order]
    assert steps == sorted(steps)
