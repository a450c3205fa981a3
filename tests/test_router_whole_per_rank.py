"""The MoE router's weight is whole on every tensor-parallel rank in memory, as its GEMM is timed (Linear.split keeps
the router whole): Megatron-Core's TopKRouter builds one [num_experts, hidden] weight per rank
(megatron/core/transformer/moe/router.py Router.__init__), not a tensor-parallel linear (found by h-mladup)."""

from engine.scenario import resolve_model, scenario_from_dict


def test_the_router_is_not_split_by_tensor_parallelism():
    spec = resolve_model(scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb"}))
    # Qwen/Qwen3-30B-A3B config.json: 128 experts, hidden_size 2048: a 128 x 2048 router weight, no bias
    router = 128 * 2048
    assert spec.n_experts == 128 and spec.hidden == 2048
    whole = spec.tp_linear_params(True, False, "", 1, False)
    assert spec.tp_linear_params(True, False, "", 2, False) == (whole - router) / 2 + router
    assert spec.tp_linear_params(True, False, "", 8, False) == (whole - router) / 8 + router
