"""vision_tower frozen-backward: a frozen image encoder that the framework still back-propagates for its input
gradients. ms-swift's vit_gradient_checkpointing calls gradient_checkpointing_enable() and
enable_input_require_grads() on the vision tower whatever freeze_vit says (modelscope/ms-swift a161d54d4
swift/megatron/trainers/base.py lines 266-275; 3602360a5 swift/trainers/mixin.py lines 949-952), and the hook makes
the patch embedding's output require grad (swift/llm/model/model/qwen.py line 663 patches get_input_embeddings to
patch_embed): autograd then runs every block's input gradient, each checkpointed block forward again first, and no
weight gradient (engine/timing/vision_time.py, engine/memory/detailed.py)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.configs import import_texts
from engine.memory.estimate import estimate
from engine.scenario import resolve_model
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for
from engine.timing.vision_time import FLASH_BACKWARD_FACTOR, linears_seconds, outside_linears, vision_seconds

# ms-swift's Megatron Qwen2.5-VL-7B DPO example as tests/data/published/posttraining_time.json enters it (TP 4, one
# 980-pixel image a sequence), as a training step of two sequences (a pair)
VL = {"model": "qwen2.5-vl-7b", "gpu": "a100-80gb", "gpus_per_node": 4, "tp": 4, "sequence_parallel": True,
      "framework": "megatron", "method": "full", "precision": "mixed-bf16", "checkpointing": "full",
      "attention": "flash", "micro_batch": 2, "seq_len": 4096, "images_per_sample": 1, "image_resolution": 980,
      "distributed_optimizer": True}


def _tower(vision_tower: str):
    s = scenario_from_dict({**VL, "vision_tower": vision_tower})
    spec = resolve_model(s)
    rates = rates_for(s, hardware_for(s), framework_profile(s.framework))
    return s, spec.vision, rates, vision_seconds(s, spec.vision, rates, 1)


def test_a_frozen_backward_tower_runs_its_input_gradients_and_its_blocks_again_but_no_weight_gradient() -> None:
    s, v, rates, frozen = _tower("frozen")
    *_, back = _tower("frozen-backward")
    *_, trained = _tower("trained")
    assert (frozen.gemm_bwd, frozen.attn_bwd, frozen.recompute) == (0.0, 0.0, 0.0)  # forward only
    assert back[:3] == frozen[:3]  # the same forward
    images = s.micro_batch * s.images_per_sample
    embed, _ = linears_seconds(outside_linears(v, images * v.patches_per_image(980), images)[:1], rates)
    # the gradient stops at the hooked patch embedding's output: every other linear's input gradient, no wgrad
    assert back.wgrad == 0.0 and abs(back.gemm_bwd - (back.gemm_fwd - embed)) < 1e-12
    assert back.attn_bwd == FLASH_BACKWARD_FACTOR * back.attn_fwd and back.elem_bwd == 2 * back.elem_fwd
    # the checkpointed blocks run forward again, as a trained tower's under full checkpointing
    assert back.recompute == trained.recompute > 0.0
    # a trained tower adds its weight gradients, the patch embedding's among them (one forward GEMM's work)
    assert trained.wgrad == trained.gemm_fwd and abs(trained.gemm_bwd - (back.gemm_bwd + trained.wgrad)) < 1e-12


def test_the_frozen_backward_tower_keeps_each_blocks_input_and_makes_no_gradient_of_its_own() -> None:
    def vision_components(vision_tower: str) -> dict:
        est = estimate(scenario_from_dict({**VL, "vision_tower": vision_tower}))
        return {c.key: c for c in est.stages[0].components if c.key.startswith("vision")}

    frozen, back, trained = (vision_components(t) for t in ("frozen", "frozen-backward", "trained"))
    assert set(frozen) == {"vision_forward"}  # nothing saved for a backward
    # the checkpointed tower keeps one input per block whether or not it trains (tower_activation_bytes)
    assert set(back) == set(trained) == {"vision_activations"}
    assert back["vision_activations"].moments.forward == trained["vision_activations"].moments.forward > 0
    # at the end of the backward the trained tower's own gradients stand where its rebuilt block stood; the frozen
    # one makes none, so its rebuilt block is what the moment holds beyond the decoder's
    assert back["vision_activations"].moments.backward_end > trained["vision_activations"].moments.backward_end


def test_ms_swift_scripts_vit_gradient_checkpointing_on_a_frozen_tower_imports_as_frozen_backward() -> None:
    # examples/megatron/multimodal/dense/dpo.sh at a161d54d4: --freeze_vit true ... --vit_gradient_checkpointing true
    script = ("NPROC_PER_NODE=4 megatron rlhf --rlhf_type dpo --model Qwen/Qwen2.5-VL-7B-Instruct "
              "--tensor_model_parallel_size 4 --freeze_vit true --freeze_aligner true {flag}\n")
    on = import_texts([("dpo.sh", script.format(flag="--vit_gradient_checkpointing true"))]).scenario
    off = import_texts([("dpo.sh", script.format(flag="--vit_gradient_checkpointing false"))]).scenario
    unset = import_texts([("dpo.sh", script.format(flag=""))]).scenario
    assert on["vision_tower"] == "frozen-backward"
    # stated off, or not stated (the default differs by release: True until d7c7db3ad, `not freeze_vit` since)
    assert off.get("vision_tower", "frozen") == "frozen" and unset.get("vision_tower", "frozen") == "frozen"
    hf = import_texts([("sft.sh", "swift sft --model Qwen/Qwen2.5-VL-7B-Instruct --freeze_vit false "
                                  "--vit_gradient_checkpointing true\n")]).scenario
    assert hf["vision_tower"] == "trained"  # a trained tower keeps its own mode
