"""A MoE rollout's decode reads the experts its running sequences' tokens pick, as the serving step reads them
(engine/serving/weights.py touched_expert_read_fraction): NeMo-RL's Qwen3-30B-A3B GRPO row (posttraining_time.json),
its engine running one sequence (rollout_max_num_seqs 1, with CUDA graphs) reads the non-expert weights and 8 of 128
experts a step, not all 128."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.engine_output import in_process_output_seconds
from engine.posttraining.estimate import step_parts
from engine.posttraining.settings import rl_settings
from engine.scenario import resolve_model
from engine.serving.engine_step_host import engine_step_host_seconds
from engine.serving.fused_moe_rate import expert_read_share
from engine.serving.kernel_fixed_time import decode_fixed_seconds
from engine.serving.weights import decode_unread_bytes, expert_byte_share, touched_expert_read_fraction
from engine.timing import hardware_for
from engine.workloads import step_time


def test_one_running_sequence_reads_its_top_k_experts() -> None:
    row = next(r for r in ptt.read_rows() if r["id"] == "nemo-rl-perf-grpo-qwen3-30b-a3b-32xh100")
    s = scenario_from_dict(row["scenario"]).with_unchecked(rollout_max_num_seqs=1)
    spec, hw, e = resolve_model(s), hardware_for(s), step_parts(s).engine
    detail = dict(step_time(s).generation)
    assert detail["concurrent_sequences"] == 1 and detail["eager_host_seconds_per_step"] == 0.0
    assert touched_expert_read_fraction(spec, 1) < 0.2  # 8 of 128 experts: most of the bytes are not read
    rs = rl_settings(s, 2)
    unread = decode_unread_bytes(spec, "bf16", rs.rollout_tp)  # bf16 engine: table at 2 bytes
    context = s.prompt_len + s.completion_len / 2
    # the untouched experts come off the bytes held, then the unread table (h-revd: as serving's _weights_per_step;
    # the share had been taken of the bytes already less the table)
    # the experts' share of the held bytes, each tensor in the engine's format (h-revleft: weights.expert_byte_share,
    # as serving; bf16 throughout here, so near the parameters' share but the embeddings' vocabulary padding counts)
    share = expert_byte_share(spec, "bf16", rs.rollout_tp)
    # vLLM runs the bf16 experts in its triton fused_moe, which reads them at its tile share of the achieved rate
    # (h-fusedmoe: engine/serving/fused_moe_rate.py; Qwen3-30B-A3B's 768-wide experts split rollout_tp ways)
    rate_share = expert_read_share(spec, "vllm", "bf16", rs.rollout_tp)
    assert rate_share < 1
    read = (e.weight_bytes * touched_expert_read_fraction(spec, 1, share, rate_share) - unread
            + context * e.kv_bytes_per_token)
    memory = read / hw.memory_bytes_per_s
    # memory-bound at one sequence: the matmuls of 3B active parameters take far less than the read
    # + the engine's two tensor-parallel all-reduces a layer (rollout_collectives.py, rollout_tp 2 here)
    assert detail["tp_all_reduce_seconds_per_step"] > 0
    # + NeMo-RL's engine core in the trainer's process (VLLM_ENABLE_V1_MULTIPROCESSING=0): V1's output processing of
    # the one request each step, in series (engine/posttraining/engine_output.py, h-rlgen: log-probs, detokenised)
    assert detail["in_process_output_seconds_per_step"] == pytest.approx(in_process_output_seconds(s, 1, True, True))
    expected = (memory + decode_fixed_seconds("vllm", spec) + detail["tp_all_reduce_seconds_per_step"]
                + engine_step_host_seconds(s, "vllm", 1) + detail["in_process_output_seconds_per_step"])
    assert detail["decode_step_seconds"] == pytest.approx(expected, rel=1e-9)
