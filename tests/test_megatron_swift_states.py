"""Two Megatron facts read from the source for ms-swift's published `megatron` rows (docs/posttraining.md,
h-rlswift): the optimizer reads the fp32 main_grad buffer itself (no fp32 gradient copy at the step), and a
vision-language model's vision tower is the Hugging Face module, whole on every tensor-parallel rank."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.models.presets import model_spec_for

BASE = {"gpu": "a100-80gb", "framework": "megatron", "precision": "mixed-bf16", "method": "full",
        "optimizer": "adamw-fused", "checkpointing": "full", "attention": "flash", "micro_batch": 1,
        "seq_len": 4096, "sequence_parallel": True}


def _components(s: dict) -> dict:
    return {c.key: c for c in estimate(scenario_from_dict(s)).stages[0].components}


def test_megatron_optimizer_reads_the_fp32_main_grad_buffer():
    # megatron/core/optimizer/distrib_optimizer.py _copy_model_grads_to_main_grads: shard_main_param.grad =
    # shard_model_grad.float(); Tensor.float() returns the tensor itself when it is already fp32, so with fp32
    # main grads (Megatron's default for bf16) the step holds no gradient copy; with bf16 main grads it is a copy:
    # one fp32 value per parameter whose optimizer state this GPU holds
    s = dict(BASE, model="qwen2.5-7b", gpus_per_node=4, tp=4)
    assert "optimizer_temp" not in _components(s)
    bf16_grads = _components(dict(s, main_grads_fp32=False))
    master_params = bf16_grads["master_weights"].peak_bytes / 4
    assert bf16_grads["optimizer_temp"].peak_bytes == master_params * 4


def test_megatron_keeps_the_whole_vision_tower_on_every_tp_rank():
    # mcore-bridge src/mcore_bridge/model/mm_gpts/utils.py (05925cf9) HuggingFaceVit: the Hugging Face vision module,
    # moved whole to the GPU, no tensor parallelism; frozen (ms-swift's freeze_vit / freeze_aligner default true)
    # it holds its bf16 weights on every rank, whatever the TP size
    vision = model_spec_for("qwen2.5-vl-7b").vision_params
    for tp in (2, 4):
        c = _components(dict(BASE, model="qwen2.5-vl-7b", gpus_per_node=tp, tp=tp, vision_tower="frozen",
                             images_per_sample=1))
        assert dict(c["frozen_weights"].inputs)["params"] == vision
        assert c["frozen_weights"].peak_bytes == vision * 2
