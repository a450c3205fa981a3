"""A post-training rollout engine with CUDA graphs replays decode batches up to the largest it captured; a larger
batch runs without a graph, so the host launches every layer's kernels (engine/posttraining/eager_decode.py), the
same rule as the serving step's (engine/serving/host_iteration.py runs_without_graph). vLLM captures up to
min(2 x max_num_seqs, 512) sequences (engine/serving/profile_run.py vllm_max_capture_size, vllm/config/
compilation.py)."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.eager_decode import eager_decode_host_seconds
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model
from engine.serving.host_iteration import launches_from_python, runs_without_graph
from engine.serving.scenario_estimate import serving_memory
from engine.workloads import step_time


def _rollout(max_num_seqs: int, grad_accum: int):
    # verl-data's Qwen2.5-0.5B GRPO row on 2 GPUs (posttraining_time.json), as the newest vLLM with CUDA graphs:
    # 64 prompts x 5 completions x grad_accum / 5 sequences a step, on one engine a GPU
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    return scenario_from_dict(row["scenario"]).with_unchecked(
        rollout_enforce_eager=False, rollout_engine_release="latest", rollout_max_num_seqs=max_num_seqs,
        grad_accum=grad_accum)


def test_a_batch_beyond_the_captured_size_is_launched_layer_by_layer() -> None:
    s = _rollout(1024, 15)  # 960 sequences an engine; the pool runs 555 at once, beyond the 512 captured
    engine = step_parts(s).engine
    assert engine.graph_capture_size == 512
    detail = dict(step_time(s).generation)
    running = detail["concurrent_sequences"]
    assert running > 512
    # the layers' launches and, the engine serving the LoRA adapters, their punica kernels' (engine_adapters.py)
    launches = eager_decode_host_seconds(s, resolve_model(s), s.rollout_tp) + detail["adapter_host_seconds_per_step"]
    assert detail["adapter_host_seconds_per_step"] > 0
    assert detail["eager_host_seconds_per_step"] == launches > 0
    assert detail["decode_step_seconds"] >= launches + detail["engine_loop_host_seconds_per_step"]


def test_a_batch_within_the_captured_size_is_replayed() -> None:
    s = _rollout(256, 15)  # at most 256 running: within the 512 captured
    detail = dict(step_time(s).generation)
    assert detail["concurrent_sequences"] <= 256 and detail["eager_host_seconds_per_step"] == 0.0


def test_serving_and_the_rollout_take_the_same_rule() -> None:
    served = scenario_from_dict({"gpu": "h100-sxm-80gb", "workload": "inference", "model": "llama-3.1-8b",
                                 "serving_engine": "vllm", "max_model_len": 4096})
    memory = serving_memory(served)
    for batch in (512, 513):
        assert launches_from_python(served, memory, batch) == runs_without_graph(False, 512, batch) == (batch > 512)
    assert runs_without_graph(True, None, 1)


def test_without_an_engine_the_unread_table_splits_as_the_trainers_weights() -> None:
    """rollout_engine none: the trainer's model generates, its weights over the training tp (estimate.generation_tp;
    rollout_tp is the engine's and there is none); the embedding table it does not read splits the same way (it had
    been taken over rollout_tp, 1 here: the whole table off half the weights), and the two tp ranks generate the same
    sequences, so one group generates all of the step's. Llama 3.1 8B (untied) on 2 GPUs at tp 2: the decode step is
    memory-bound, so it is (parameters x 2 bytes / 2 - the table's shard) / bandwidth, and the trainer's two
    tensor-parallel all-reduces a layer (rollout_collectives.py)."""
    import json
    from pathlib import Path

    from engine.serving.weights import decode_unread_bytes
    from engine.timing import hardware_for
    example = Path(__file__).resolve().parent.parent / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json"
    s = scenario_from_dict({**json.loads(example.read_text()), "model": "llama-3.1-8b", "rollout_engine": "none",
                            "tp": 2, "gpus_per_node": 2})
    spec = resolve_model(s)
    assert not spec.tied_embeddings and s.rollout_tp == 1
    read = spec.total_params * 2 / 2 - decode_unread_bytes(spec, "bf16", 2)
    detail = dict(step_time(s).generation)
    assert detail["tp_all_reduce_seconds_per_step"] > 0
    # the GPU's side; TRL's own generate() launches transformers' eager layers from Python each step
    # (eager_decode.trainer_generate_host_seconds), and the iteration takes the longer of the two
    gpu = read / hardware_for(s).memory_bytes_per_s + detail["tp_all_reduce_seconds_per_step"]
    assert detail["decode_step_seconds"] == pytest.approx(max(gpu, detail["eager_host_seconds_per_step"]), rel=1e-12)
    from engine.posttraining.estimate import step_sequences
    assert detail["sequences"] == step_sequences(s)
