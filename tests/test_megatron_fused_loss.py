"""Megatron's fused vocab-parallel cross-entropy (cross_entropy_loss_fusion, impl "native"), ms-swift's Megatron
default, and the reference model of ms-swift's Megatron trainers built like the policy (docs/posttraining.md,
h-swiftgap)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.configs import import_texts
from engine.frameworks import defaults_for
from engine.models.presets import model_spec_for
from engine.posttraining.estimate import training_scenario
from engine.posttraining.settings import rl_settings

SFT = {"gpu": "a100-80gb", "framework": "megatron", "precision": "mixed-bf16", "method": "full",
       "optimizer": "adamw-fused", "checkpointing": "full", "attention": "flash", "micro_batch": 1,
       "seq_len": 8192, "sequence_parallel": True, "model": "qwen3-4b", "gpus_per_node": 4, "tp": 4}
DPO = {k: v for k, v in SFT.items() if k != "seq_len"} | {
    "training_objective": "dpo", "reference_model": "separate", "prompt_len": 2048, "completion_len": 2048}


def _logits(s: dict):
    return next(c for c in estimate(scenario_from_dict(s)).stages[0].components if c.key == "logits")


def test_fused_native_loss_holds_ten_bytes_per_logit_in_backward():
    # megatron/core/fusions/fused_cross_entropy.py (core_v0.13.0 = core_v0.18.0): jit_fuser is torch.compile
    # (megatron/core/jit.py). Forward: the in-place steps of _VocabParallelCrossEntropy, the bf16 logits and one fp32
    # copy. Backward, calculate_gradients: Inductor's generated code (torch 2.13.0) clones the saved fp32 softmax into
    # a fresh fp32 buffer for the index_put, and writes the product back into the softmax and into a bf16 output:
    # softmax 4 + clone 4 + bf16 gradient 2 bytes per logit of this rank's vocabulary slice
    tv = 8192 * model_spec_for("qwen3-4b").vocab / 4
    fused = _logits(dict(SFT, cross_entropy="megatron-fused"))
    assert fused.moments.forward == (2 + 4) * tv
    assert fused.moments.backward_start == (4 + 4 + 2) * tv
    # Megatron-LM's own default (no fusion): the eager path writes the gradient into the softmax in place
    plain = _logits(SFT)
    assert plain.moments.forward == fused.moments.forward
    assert plain.moments.backward_start == (4 + 2) * tv


def test_ms_swift_megatron_model_loss_is_the_fused_loss():
    # swift/megatron/arguments/megatron_args.py:496-497 at 3602360a: cross_entropy_loss_fusion True,
    # cross_entropy_fusion_impl 'native'; Megatron-LM's --cross-entropy-loss-fusion is off unless given
    assert defaults_for("megatron").posttraining.model_loss == "megatron-fused"
    assert defaults_for("megatron").cross_entropy == "standard"
    s = scenario_from_dict(DPO)
    assert training_scenario(s, rl_settings(s, 2)).cross_entropy == "megatron-fused"
    # a scenario that names Megatron's unfused loss keeps it (the log-probs are still the model's own loss)
    plain = scenario_from_dict(dict(DPO, cross_entropy="standard"))
    assert training_scenario(plain, rl_settings(plain, 2)).cross_entropy == "standard"
    named = scenario_from_dict(dict(DPO, framework="trl", cross_entropy="megatron-fused"))
    assert rl_settings(named, 2).logprob_path == "model-loss"
    # ms-swift's Megatron GRPO pops the labels and log-softmaxes the logits itself (swift/megatron/trainers/
    # grpo_trainer.py forward_step at 3602360a): the online objectives keep the framework row's loss
    grpo = scenario_from_dict(dict(DPO, training_objective="grpo", reference_model="auto", num_generations=4))
    assert training_scenario(grpo, rl_settings(grpo, 2)).cross_entropy == "auto"


def _imported_loss(flags: str) -> str:
    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 30 "
              "--hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --micro-batch-size 1 --bf16 " + flags + "\n")
    return import_texts([("train.sh", script)]).scenario.get("cross_entropy", "auto")


def test_megatron_launch_with_the_native_fusion_imports_it():
    # Megatron-LM megatron/training/arguments.py:1897-1900 (core_v0.13.0): --cross-entropy-loss-fusion store_true,
    # --cross-entropy-fusion-impl default "native"
    assert _imported_loss("--cross-entropy-loss-fusion") == "megatron-fused"
    assert _imported_loss("--cross-entropy-loss-fusion --cross-entropy-fusion-impl te") == "te"
    assert _imported_loss("") == "megatron-unfused"  # the flag off (tests/test_megatron_rope_keys.py)


def test_megatron_reference_keeps_the_whole_vision_tower():
    # swift/megatron/trainers/rlhf_mixin.py prepare_model (3602360a): the reference is get_mcore_model(args, ...),
    # built like the policy, so mcore-bridge's HuggingFaceVit is whole on every TP rank in it too; the language model
    # splits over TP as the policy's does
    spec = model_spec_for("qwen2.5-vl-7b")
    s = dict(DPO, model="qwen2.5-vl-7b", vision_tower="frozen", images_per_sample=1, image_resolution=980)
    ref = next(c for c in estimate(scenario_from_dict(s)).stages[0].components if c.key == "reference_weights")
    assert ref.peak_bytes == (spec.text_params / 4 + spec.vision_params) * 2
    # a framework that splits the tower over TP splits the reference's too
    trl = next(c for c in estimate(scenario_from_dict(dict(s, framework="trl", tp=1, gpus_per_node=1)))
               .stages[0].components if c.key == "reference_weights")
    assert trl.peak_bytes == spec.total_params * 2
