"""An ms-swift argument file imported on its own (issue 23 leftovers4 item 5) is read as ms-swift reads it, as the
file a script names already was (engine/configs/swift_config.py read_arguments): modelscope/ms-swift at 3602360a
swift/cli/main.py parse_yaml_args lines 53-59 pops the file's ENV block and sets each variable the environment does
not set (none, for a file given alone), and get_torchrun_args (lines 75-85) hands NPROC_PER_NODE and NNODES to
torchrun: the GPUs a node and the nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.configs import import_files, import_texts

SWIFT_YAML = Path(__file__).parent / "data" / "configs" / "ms-swift" / "yaml_deepspeed"
MEGATRON_YAML = Path(__file__).parent / "data" / "configs" / "ms-swift" / "megatron_yaml_sft.yaml"


@pytest.mark.parametrize("extra", ["tuner_type: full\n", "tuner_type: lora\ntensor_model_parallel_size: 2\n"])
def test_the_env_block_of_a_file_alone_sets_the_gpus(tmp_path, extra):
    # the second is Megatron-SWIFT's (tensor_model_parallel_size is one of its keys): the same ENV rule
    path = tmp_path / "args.yaml"
    path.write_text("model: Qwen/Qwen2.5-7B-Instruct\n" + extra + "ENV:\n  NPROC_PER_NODE: 4\n  NNODES: 2\n",
                    encoding="utf-8")
    result = import_files([path])
    assert (result.scenario["gpus_per_node"], result.scenario["nodes"]) == (4, 2)
    assert {m.source.split(": ", 1)[-1] for m in result.mapped} >= {"ENV.NPROC_PER_NODE", "ENV.NNODES"}


def test_the_same_file_reads_the_same_alone_and_through_its_script():
    # sft.yaml (ms-swift 3602360a examples/yaml/deepspeed/sft.yaml): its ENV holds only allocator and image
    # variables, no setting the planner has; read alone or as `swift sft sft.yaml` names it, the same settings
    alone = import_files([SWIFT_YAML / "sft.yaml"])
    named = import_texts([("run.sh", "swift sft sft.yaml")], SWIFT_YAML)
    keys = ("method", "lora_rank", "lora_alpha", "seq_len", "micro_batch", "grad_accum", "zero_stage", "model")
    assert {k: alone.scenario[k] for k in keys} == {k: named.scenario[k] for k in keys}
    assert not [u for u in alone.unmapped if "ENV" in u.key]  # the launch environment: read, nothing to set
    megatron = import_files([MEGATRON_YAML])
    assert megatron.scenario["framework"] == "megatron"
