"""The scoring forward's collectives (engine/posttraining/scoring_collectives.py): a Megatron log-prob pass runs each
MoE layer's dispatch and combine all-to-alls and each tensor-parallel linear's collectives, as the training forward
does (NeMo-RL's get_logprobs: Megatron-Core's forward_backward_func with forward_only=True). The layout is NeMo-RL
v0.3's Qwen3-30B-A3B run (examples/configs/grpo_math_qwen30ba3b_megatron.yaml at v0.3.0: TP 2 with sequence
parallelism, EP 8, 8 nodes of 8 H100; benchmarks/nemo_rl_v03_phases.py)."""

from benchmarks import nemo_rl_v03_phases as v03
from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.scoring_collectives import forward_collective_seconds
from engine.posttraining.scoring_time import policy_forward_seconds
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.links import dispatch_seconds, ep_ranks, link, nvlink_domain
from engine.timing.model import rates_for, stage_time_per_micro_batch


def _train(run: str):
    keys = dict(v03.COMMON)
    keys.update(v03.RUNS[run][0])
    s = scenario_from_dict(keys)
    return training_scenario(s, step_parts(s).rs)


def _stage(train):
    spec, hw = resolve_model(train), hardware_for(train)
    prof = framework_profile(train.framework)
    return stage_time_per_micro_batch(train, spec, hw, prof, rates_for(train, hw, prof), 0, range(spec.layers))


def test_a_forward_runs_two_of_a_trained_moe_layers_four_all_to_alls() -> None:
    # Megatron-Core's MoELayer.forward: dispatch -> experts -> combine, one all-to-all each way
    # (megatron/core/transformer/moe/moe_layer.py); the backward runs both again, so the training stage's 4 per layer
    train = _train("qwen3-30b-a3b-64xh100")
    spec, hw = resolve_model(train), hardware_for(train)
    tokens = train.micro_batch * train.seq_len  # Qwen3-30B-A3B: 48 MoE layers, hidden 2,048, bf16 rows
    node = nvlink_domain(train, hw)
    one = dispatch_seconds(tokens * spec.hidden * 2, spec, train, hw) + link(hw, ep_ranks(train)[0], node,
                                                                             ep_ranks(train)[1])[1]
    stage = _stage(train)
    assert abs(stage.ep - spec.layers * 4 * one) < 1e-9 * stage.ep
    assert abs(forward_collective_seconds(0.0, 0.0, stage.ep) - spec.layers * 2 * one) < 1e-9 * stage.ep


def test_the_scoring_forward_adds_its_collectives_to_its_kernels() -> None:
    # one pass: every micro-batch's forward kernels and the forward's share of the all-to-alls and the
    # sequence-parallel gathers; one stage (PP 1), no FSDP1 gathers under Megatron
    train = _train("qwen3-30b-a3b-64xh100")
    stage = _stage(train)
    expected = train.grad_accum * (stage.fwd + (stage.tp + stage.cp + stage.ep) / 2)
    assert abs(policy_forward_seconds(train) - expected) < 1e-9 * expected
    # the collectives are most of this pass: two all-to-alls a layer over the two nodes an EP 8 x TP 2 group spans
    assert (stage.tp + stage.ep) / 2 > stage.fwd


def test_a_data_parallel_forward_has_no_collective() -> None:
    # Llama-3.1-8B at TP 1, PP 2 (grpo_math_8B_megatron.yaml at v0.3.0): no tensor-, context- or expert-parallel
    # group, so the pass is its kernels alone, through the pipeline's fill
    train = _train("llama-3.1-8b-8xh100")
    spec, hw = resolve_model(train), hardware_for(train)
    prof = framework_profile(train.framework)
    rates = rates_for(train, hw, prof)
    half = spec.layers // 2
    stages = [stage_time_per_micro_batch(train, spec, hw, prof, rates, i, r)
              for i, r in enumerate((range(0, half), range(half, spec.layers)))]
    assert all(st.tp == st.cp == st.ep == 0.0 for st in stages)
