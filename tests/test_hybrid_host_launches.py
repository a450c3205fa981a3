"""Host launches and module calls of a hybrid stack's blocks and of gated DeltaNet layers (issue 23 item 2).

engine/timing/layer_parts.py gives each layer kind its own parts: a Nemotron-H / Nemotron 3 Nano block runs one of
Mamba-2 mixer, attention, MLP or MoE router + experts (Megatron-LM megatron/core/models/mamba/mamba_layer_specs.py at
2edffadb), a Qwen3-Next DeltaNet layer its gated DeltaNet in the attention's place. Before, every one was launched as a
whole transformer layer (attention + MLP, or attention + router + experts). The per-part counts are
presets/host_overhead.json's, counted there from Megatron-LM 2edffadb mamba_mixer.py / gated_delta_net.py with
state-spaces/mamba's ssd_combined.py and flash-linear-attention's chunk.py; the expected values below are sums of
those table entries by the block structure, no engine output copied in.
"""

from __future__ import annotations

from engine import scenario_from_dict
from engine.timing.host import host_figures, launches
from engine.timing.layer_parts import layer_parts
from engine.timing.te_module_host import te_module_calls

MAMBA, ATTENTION, MOE_BLOCK = (False, False, "mamba"), (False, False, "attention"), (True, False, "moe")
DELTANET_MOE = (True, True, "")


def _scenario(model: str, **over: object):
    base = {"model": model, "gpu": "h100-sxm-80gb", "nodes": 1, "gpus_per_node": 8, "micro_batch": 1,
            "seq_len": 8192, "precision": "mixed-bf16", "framework": "megatron", "ep": 8}
    return scenario_from_dict(base | over)


def test_each_block_launches_its_own_part_only():
    stack = host_figures()["stacks"]["fused"]
    s = _scenario("nemotron-3-nano-30b-a3b")
    assert launches(s, True, False, "", MAMBA) == tuple(stack["mamba"])
    assert launches(s, True, False, "", ATTENTION) == tuple(stack["attention"])  # no MLP in an attention block
    # an MoE block: a transformer MoE layer's launches (its shared expert's among them) less the attention's
    layer = launches(s, True, True)
    assert launches(s, True, True, "", MOE_BLOCK) == (layer[0] - stack["attention"][0], layer[1] - stack["attention"][1])


def test_the_mamba_mixer_counts_are_the_sources_lists():
    """15 forward / 36 backward launches and 6 / 4 module calls: the sums the _source text lists term by term."""
    fig = host_figures()
    combined_fn_backward = 1 + 4 + 7 + 1 + 2 + 1 + 3 + 1 + 2 + 1 + 1  # MambaSplitConv1dScanCombinedFn.backward
    assert fig["stacks"]["fused"]["mamba"] == [2 + 1 + 2 + 1 + 5 + 1 + 1 + 1 + 1,
                                               2 + 2 + 2 + combined_fn_backward + 2 + 3 + 1]
    assert fig["te_modules"]["calls"]["mamba"] == [6, 4]
    assert "mamba_mixer.py" in fig["stacks"]["_source"] and "ssd_combined.py" in fig["stacks"]["_source"]
    assert fig["stacks"]["fused"]["gated_deltanet"] == [2 + 1 + 1 + 4 + 2 + 4 + 6 + 1 + 6 + 2 + 1 + 1 + 1,
                                                        1 + 2 + 1 + 3 + 9 + 1 + 7 + 2 + 2 + 2 + 1 + 1 + 3]


def test_a_deltanet_layer_runs_its_linear_attention_in_the_attention_s_place():
    stack, calls = host_figures()["stacks"]["fused"], host_figures()["te_modules"]["calls"]
    s = _scenario("qwen3-next-80b-a3b")
    parts = ("gated_deltanet", "moe_router", "moe_experts")
    assert layer_parts(DELTANET_MOE, True, stack) == parts
    layer = launches(s, True, True)  # a softmax-attention layer of the same model, shared expert included
    assert launches(s, True, True, "", DELTANET_MOE)[0] == layer[0] - stack["attention"][0] + stack["gated_deltanet"][0]
    table = host_figures()["te_modules"]
    fwd, bwd, _experts = te_module_calls(s, True, True, frozenset(), table, DELTANET_MOE)
    assert fwd >= sum(calls[p][0] for p in parts) and bwd >= sum(calls[p][1] for p in parts)
    # Megatron's attn graph scope captures the layer's self_attention, the DeltaNet: one graph launch for it and
    # the router (transformer_layer.py at 2edffadb lines 1013-1020), as it captures a softmax-attention layer's
    graphed = _scenario("qwen3-next-80b-a3b", cuda_graphs="attention")
    assert launches(graphed, True, True, "", DELTANET_MOE) == launches(graphed, True, True)


def test_a_stack_without_the_part_times_a_transformer_layer():
    """The eager stacks (Hugging Face code) hold no Mamba-2 count: the block keeps a transformer layer's parts."""
    eager = host_figures()["stacks"]["eager"]
    assert "mamba" not in eager
    assert layer_parts(MAMBA, False, eager) == ("attention", "mlp")
    assert layer_parts(None, True, eager) == ("attention", "moe_router", "moe_experts")


def test_module_calls_of_a_mamba_block():
    table = host_figures()["te_modules"]
    s = _scenario("nemotron-3-nano-30b-a3b")
    assert te_module_calls(s, True, False, frozenset(), table, MAMBA) == (*table["calls"]["mamba"], 0)
