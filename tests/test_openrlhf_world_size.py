"""OpenRLHF's accumulation divides the global batch by the world size (openrlhf/utils/deepspeed/deepspeed.py at
3c3be62 lines 110-116: train_batch_size x ring_attn_size x ds.tensor_parallel_size / micro_train_batch_size /
world_size); the reader hands that world to the accumulation explicitly: --actor.num_gpus_per_node x --actor.num_nodes
where the script says them, else the deepspeed launcher's --num_gpus x --num_nodes (deepspeed/launcher/runner.py at
048b0d5: --num_gpus GPUs on each of the first --num_nodes hosts)."""

from __future__ import annotations

from engine.configs import import_texts

_SFT = ("deepspeed {launcher} --module openrlhf.cli.train_sft --pretrain meta-llama/Meta-Llama-3-8B "
        "--train_batch_size 64 --micro_train_batch_size 2 --zero_stage 2 --bf16 {actor}\n")


def _read(launcher: str, actor: str = "") -> dict:
    return import_texts([("train_sft.sh", _SFT.format(launcher=launcher, actor=actor))]).scenario


def test_the_launchers_gpus_times_nodes_is_the_world():
    # 64 / (2 x 4 x 2) = 4 micro-batches a step
    s = _read("--num_gpus 4 --num_nodes 2")
    assert (s["gpus_per_node"], s["nodes"], s["grad_accum"]) == (4, 2, 4)


def test_the_actor_flags_win_over_the_launcher():
    # --actor_num_gpus_per_node 8 x --actor_num_nodes 1: 64 / (2 x 8) = 4, the launcher's --num_gpus 2 not counted
    s = _read("--num_gpus 2", "--actor_num_gpus_per_node 8 --actor_num_nodes 1")
    assert (s["gpus_per_node"], s["grad_accum"]) == (8, 4)


def test_a_hostfile_leaves_the_nodes_to_the_actor_flag():
    # --num_gpus 4 with a hostfile: the hosts are the hostfile's, so --actor_num_nodes 2 stays: 64 / (2 x 4 x 2) = 4
    s = _read("--num_gpus 4 --hostfile hosts", "--actor_num_nodes 2")
    assert (s["gpus_per_node"], s["nodes"], s["grad_accum"]) == (4, 2, 4)
