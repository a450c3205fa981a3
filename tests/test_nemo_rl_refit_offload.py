"""NeMo-RL's copies around the colocated weight sync (engine/posttraining/refit_offload.py) and its Megatron-backend
row (engine/frameworks/nemo_rl_megatron.py), each fact from NVIDIA-NeMo/RL v0.5.0 (6c708930):

- grpo.py refit_policy_generation (lines 904-977): offload_before_refit (the optimizer's states to CPU), the sync,
  offload_after_refit (the model to CPU), timed under prepare_for_generation; prepare_for_lp_inference loads the model
  back, prepare_for_training the optimizer's states;
- move_optimizer / move_optimizer_to_device: `state[k] = v.to(device)`, blocking, pageable CPU memory (both
  workers); the Megatron worker's model through each DDP buffer's pinned CPU copy (Megatron-Core
  param_and_grad_buffer.py offload_to_cpu: `param_data.cpu().pin_memory()`, gradients freed), the DTensor worker's
  through `model.to("cpu")` (pageable);
- use_reference_model: the policy's state dict to pinned CPU memory, the reference's pinned copy in, the policy's
  back: three parameter-sized pinned copies.
Bytes are the memory estimate's resident states per GPU; rates the host link's pinned rate and that rate /
presets/efficiency.json pcie pageable_pinned_speedup (node: 4.5).
"""

import pytest

from engine.accuracy import posttraining_time as ptt
from engine.frameworks import defaults_for
from engine.posttraining.estimate import step_parts
from engine.posttraining.refit_offload import refit_offload_by_phase
from engine.scenario import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import efficiency
from engine.workloads import step_time


def _row(row_id: str) -> dict:
    return dict(next(r for r in ptt.read_rows() if r["id"] == row_id)["scenario"])


def _resident(s) -> dict[str, float]:
    out: dict[str, float] = {}
    for c in step_parts(s).resident:
        out[c.key] = out.get(c.key, 0.0) + c.peak_bytes
    return out


def test_the_copies_are_the_resident_states_over_the_host_link() -> None:
    sc = _row("nemo-rl-perf-grpo-llama3.1-8b-16xh100")  # the Megatron backend, PP 2, distributed optimizer
    s = scenario_from_dict(sc)
    hw = hardware_for(s)
    pinned = hw.host_bytes_per_s
    pageable = pinned / efficiency()["pcie"]["pageable_pinned_speedup"]["node"]
    b = _resident(s)
    optimizer = (b["policy_optimizer_states"] + b.get("policy_master_weights", 0.0)) / pageable
    params = b["policy_weights"] / pinned  # Megatron's DDP buffers: pinned
    got = refit_offload_by_phase(step_parts(s), s, hw)
    assert got["generation"] == pytest.approx(optimizer + params)
    assert got["scoring"] == pytest.approx(params + 3 * b["policy_weights"] / pinned)  # load + the reference's swap
    assert got["update"] == pytest.approx(optimizer)
    parts = dict(step_time(s).rl_seconds)
    assert parts["refit_offload"] == pytest.approx(sum(got.values()) * step_time(s).calibration_factor)
    # the DTensor worker's model.to("cpu") copies the parameters through pageable memory
    dtensor = scenario_from_dict(dict(sc, framework="nemo-rl", distributed_optimizer=False))
    got = refit_offload_by_phase(step_parts(dtensor), dtensor, hw)
    b = _resident(dtensor)
    assert got["scoring"] == pytest.approx(b["policy_weights"] / pageable + 3 * b["policy_weights"] / pinned)


def test_only_nemo_rl_with_a_colocated_engine_moves_its_states() -> None:
    sc = _row("nemo-rl-perf-grpo-llama3.1-8b-16xh100")
    apart = scenario_from_dict(dict(sc, rollout_placement="separate", rollout_gpus=8))
    assert "refit_offload" not in dict(step_time(apart).rl_seconds)
    verl = scenario_from_dict(dict(sc, framework="verl-megatron"))
    assert "refit_offload" not in dict(step_time(verl).rl_seconds)
    no_kl = scenario_from_dict(dict(sc, reference_model="none"))  # no reference pass: no swap
    got = refit_offload_by_phase(step_parts(no_kl), no_kl, hardware_for(no_kl))
    assert got["scoring"] == pytest.approx(_resident(no_kl)["policy_weights"] / hardware_for(no_kl).host_bytes_per_s)


def test_the_phases_hold_the_copies_where_nemo_rls_timers_do() -> None:
    sc = _row("nemo-rl-perf-grpo-qwen3-30b-a3b-32xh100")
    s = scenario_from_dict(sc)
    total = dict(step_time(s).rl_seconds)["refit_offload"]
    split = ptt.refit_by_phase(s, total)
    assert sum(split.values()) == pytest.approx(total)
    by_phase = refit_offload_by_phase(step_parts(s), s, hardware_for(s))
    assert split["update"] / total == pytest.approx(by_phase["update"] / sum(by_phase.values()))
    phases, _ = ptt.estimated_phases(sc)
    assert phases["generation"] + phases["scoring"] + phases["update"] == pytest.approx(phases["step"])


def test_the_megatron_backend_row_is_megatrons_facts_with_nemo_rls_post_training() -> None:
    row, megatron, nemo_rl = defaults_for("nemo-rl-megatron"), defaults_for("megatron"), defaults_for("nemo-rl")
    assert row.profile == "megatron" and row.takes_megatron_arguments and row.parallelism == megatron.parallelism
    pt = row.posttraining
    assert pt.refit_offload and pt.refit_params_pinned and not nemo_rl.posttraining.refit_params_pinned
    assert (pt.rollout_engine, pt.rollout_sleep, pt.reference_on_cpu) == ("vllm", "level-1", True)
    # the performance rows train with it and its distributed optimizer (grpo_math_1B.yaml megatron_cfg.optimizer)
    for r in ptt.read_rows():
        if r["source_name"] == "nemo-rl-performance-summary":
            assert (r["scenario"]["framework"], r["scenario"]["distributed_optimizer"]) == ("nemo-rl-megatron", True)


def test_the_megatron_export_gathers_the_whole_model_on_every_rank() -> None:
    # Megatron-Bridge at 1e9a459b model_bridge.py stream_weights_megatron_to_hf: 'All ranks receive the full tensors'
    # (TP all_gather, PP broadcast, EP all_gather): each GPU receives the model less what it holds; Megatron-Core's
    # tp-cp-ep-dp-pp order puts a pipeline rank's peers world / pp ranks apart
    from engine.posttraining.bridge_export import export_gather_bytes, export_gather_seconds

    sc = _row("nemo-rl-perf-grpo-qwen3-32b-32xh100")  # TP 4 x PP 4 on 32 H100s: pipeline peers 8 ranks apart
    s = scenario_from_dict(sc)
    p, hw = step_parts(s), hardware_for(s)
    whole = p.spec.total_params * p.dt.compute
    held = _resident(s)["policy_weights"]
    inside, stages = export_gather_bytes(p, s)
    assert inside == pytest.approx(whole / 4 - held) and stages == pytest.approx(whole * 3 / 4)
    assert export_gather_seconds(p, s, hw) == pytest.approx(inside / hw.intra_bytes_per_s
                                                            + stages / hw.inter_bytes_per_s)
    # on one NVL72 domain (16 GB200s) the pipeline peers share the NVLink fabric
    gb = scenario_from_dict(dict(sc, gpu="gb200", gpus_per_node=4, nodes=8))
    p, hw = step_parts(gb), hardware_for(gb)
    inside, stages = export_gather_bytes(p, gb)
    assert export_gather_seconds(p, gb, hw) == pytest.approx((inside + stages) / hw.intra_bytes_per_s)
    # the DTensor worker's sync is not this export
    dtensor = scenario_from_dict(dict(sc, framework="nemo-rl", distributed_optimizer=False))
    assert export_gather_seconds(step_parts(dtensor), dtensor, hardware_for(dtensor)) == 0.0


def test_packed_micro_batches_are_padded_to_the_longest_under_a_pipeline() -> None:
    # nemo_rl/models/megatron/common.py _get_pack_sequence_parameters_for_megatron: with PP every packed micro-batch
    # is padded to the longest; bins of max_total_sequence_length (the engine's max_model_len, 4,096) hold
    # floor(4096 / mean) mean-length sequences (assumed), the longest bin the whole 4,096 (assumed): an upper bound
    from engine.posttraining.packed_padding import padded_tokens_ratio

    llama = scenario_from_dict(_row("nemo-rl-perf-grpo-llama3.1-8b-16xh100"))  # PP 2, mean 127 + 1,019 tokens
    assert padded_tokens_ratio(llama) == pytest.approx(4096 / (3 * 1146))
    qwen = scenario_from_dict(_row("nemo-rl-perf-grpo-qwen3-32b-32xh100"))  # PP 4, mean 104 + 3,251 tokens
    assert padded_tokens_ratio(qwen) == pytest.approx(4096 / 3355)
    t = step_time(qwen)
    # the update's share: the training step (the step less the post-training terms) x (ratio - 1)
    assert dict(t.rl_seconds)["packed_padding"] == pytest.approx(
        (4096 / 3355 - 1) * (t.step_seconds - sum(v for _, v in t.rl_seconds)), rel=1e-9)
    # no pipeline, or the DTensor worker: nothing padded
    assert padded_tokens_ratio(scenario_from_dict(_row("nemo-rl-perf-grpo-qwen3-32b-16xgb200"))) == 1.0
    dtensor = scenario_from_dict(dict(_row("nemo-rl-perf-grpo-qwen3-32b-32xh100"), framework="nemo-rl",
                                      distributed_optimizer=False))
    assert padded_tokens_ratio(dtensor) == 1.0
