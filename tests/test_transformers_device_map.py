"""transformers on several GPUs (user audit 5: 2 GPUs at tp 1 held the whole model on each). from_pretrained(
device_map="auto") spreads the layers evenly over the visible GPUs ('"auto" and "balanced" evenly split the model on
all available GPUs', huggingface/accelerate docs/source/usage_guides/big_modeling.md), which then run one after
another (engine/serving/layer_split.py): per GPU its share of the weights and KV cache, and a decode step reads
every share at one GPU's bandwidth, as llama.cpp's layer split."""

import pytest

from engine import scenario_from_dict
from engine.serving.layer_split import layer_split_gpus
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.serving.users_curve import instances

ONE = {"model": "llama-3.1-8b", "gpu": "rtx-4090", "gpus_per_node": 1, "workload": "inference",
       "serving_engine": "transformers", "max_model_len": 4096, "max_num_seqs": 4}


def test_two_gpus_hold_half_the_weights_and_cache_each() -> None:
    one, two = (scenario_from_dict({**ONE, "gpus_per_node": n}) for n in (1, 2))
    assert layer_split_gpus(one) == 1 and layer_split_gpus(two) == 2
    m1, m2 = serving_memory(one), serving_memory(two)
    assert m2.bytes_of("weights") == pytest.approx(m1.bytes_of("weights") / 2)
    assert m2.bytes_of("kv_cache") == pytest.approx(m1.bytes_of("kv_cache") / 2)
    assert m2.bytes_of("cuda_context") == m1.bytes_of("cuda_context")  # one CUDA context on each GPU
    assert instances(two) == 1  # one model over both GPUs, not two replicas
    assert instances(scenario_from_dict({**ONE, "gpus_per_node": 2, "nodes": 2})) == 2  # one on each node


def test_the_split_runs_in_series_so_one_sequence_decodes_no_faster() -> None:
    # the layers run one GPU after the other: one sequence's step reads all the weights at one GPU's bandwidth
    one, two = (scenario_from_dict({**ONE, "gpus_per_node": n}) for n in (1, 2))
    s1 = serving_speed(one, serving_memory(one), concurrency=1, context=1024)
    s2 = serving_speed(two, serving_memory(two), concurrency=1, context=1024)
    reads = {t.key: t.seconds for t in s1.decode_terms}["decode_memory"]
    assert {t.key: t.seconds for t in s2.decode_terms}["decode_memory"] == pytest.approx(reads)
    assert s2.tpot_seconds == pytest.approx(s1.tpot_seconds)


def test_tensor_parallel_transformers_is_not_a_device_map() -> None:
    s = scenario_from_dict({**ONE, "gpus_per_node": 2, "tp": 2})
    assert layer_split_gpus(s) == 1
