"""What each model of a post-training step holds on one GPU: the policy's training states between steps, the frozen
reference and reward models, PPO's critic, and the generation engine's weight copy."""

from __future__ import annotations

from ..frameworks import defaults_for
from ..memory.breakdown import Component, Estimate, Moments
from ..memory.parallelism.fsdp import root_params
from ..memory.states import Dtypes, whole_model_params
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..models.presets import model_spec_for
from ..scenario import CustomModel, Scenario
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.custom_parts import custom_model_spec
from ..serving.profile_run import lora_stack_bytes
from ..serving.vllm_load import vllm_load_extra_bytes
from ..serving.weights import replicated_layer_bytes
from .settings import RLSettings

OPTIMIZER = 3  # index of the optimizer moment in Moments: what the model states hold between steps
WEIGHT_KEYS = ("weights", "frozen_weights")
# what an engine sharing the trainer's weights holds for it: a QLoRA base's packed linears too (unsloth_zoo 2025.3.8
# vllm_utils.py convert_vllm_to_huggingface lines 600-608: the trainer's Linear4bit wraps vLLM's packed tensor,
# Params4bit(data=weight) with vLLM's quant_state)
SHARED_WEIGHT_KEYS = WEIGHT_KEYS + ("quantized_weights",)
# the policy's parameters as resident_states names them: what a phase loads back when offload holds between phases
LOADED_KEYS = ("policy_weights", "policy_frozen_weights", "policy_master_weights")
# PPO's critic is trained by the same estimator as the policy, so its components come with the policy's keys and
# names: in the breakdown and the phase chart they carry "critic_" keys and these names (the rest by category)
CRITIC_NAMES = {
    "weights": QT_TRANSLATE_NOOP("engine", "Critic weights"),
    "frozen_weights": QT_TRANSLATE_NOOP("engine", "Critic frozen weights"),
    "master_weights": QT_TRANSLATE_NOOP("engine", "Critic fp32 master weights"),
    "gradients": QT_TRANSLATE_NOOP("engine", "Critic gradients"),
    "optimizer_states": QT_TRANSLATE_NOOP("engine", "Critic optimizer states"),
    "activations": QT_TRANSLATE_NOOP("engine", "Critic activations (decoder layers)"),
    "logits": QT_TRANSLATE_NOOP("engine", "Critic value head and loss"),
    "head_activations": QT_TRANSLATE_NOOP("engine", "Critic final norm and value head inputs"),
    "inputs": QT_TRANSLATE_NOOP("engine", "Critic input ids and rotary tables"),
    "backward_scratch": QT_TRANSLATE_NOOP("engine", "Critic backward scratch (one layer's gradients)"),
    "optimizer_temp": QT_TRANSLATE_NOOP("engine", "Critic optimizer step temporaries"),
}
CRITIC_BY_CATEGORY = {
    "model states": QT_TRANSLATE_NOOP("engine", "Critic model states (other)"),
    "activations": QT_TRANSLATE_NOOP("engine", "Critic activations (other)"),
}
CRITIC_OTHER = QT_TRANSLATE_NOOP("engine", "Critic temporaries")


def as_critic(c: Component, moments: Moments | None = None) -> Component:
    """One of the critic's components under its own key and name."""
    key = c.key.removeprefix("policy_")
    name = CRITIC_NAMES.get(key) or CRITIC_BY_CATEGORY.get(c.category, CRITIC_OTHER)
    return Component("critic_" + key, name, c.category, c.moments if moments is None else moments, c.formula,
                     c.inputs)


def model_spec(value: str | CustomModel) -> ModelSpec:
    """The architecture of a reward or critic model written like `model`."""
    return custom_model_spec(value) if isinstance(value, CustomModel) else model_spec_for(value)


def weight_shards(s: Scenario) -> int:
    """How many GPUs share one frozen copy: tensor parallelism, and ZeRO-3/FSDP's data-parallel sharding (TRL
    prepares its reference and reward models with the trainer's DeepSpeed or FSDP plugin: prepare_deepspeed /
    prepare_fsdp in trl/trainer/grpo_trainer.py)."""
    return s.tp * s.pp * (s.dp if s.effective_zero == 3 else 1)


def resident_states(est: Estimate, shares_weights: bool, grads_persistent: bool = False) -> tuple[Component, ...]:
    """The policy's training states alive between optimizer steps (weights, master weights, optimizer states; the
    gradients are freed by zero_grad(set_to_none=True), the Trainer's default). With shared weights the engine holds
    the only weight copy, so the trainer's is not counted twice. grads_persistent: the gradient shards live in one
    buffer allocated when the optimizer is built and never freed (DeepSpeed ZeRO-3, zero3_grads_persistent)."""
    out = []
    for c in est.components:
        if c.category != "model states" or c.moments[OPTIMIZER] <= 0:
            continue
        if (c.key == "gradients" and not grads_persistent) or (shares_weights and c.key in SHARED_WEIGHT_KEYS):
            continue
        out.append(Component("policy_" + c.key, c.name, c.category, Moments.whole_step(c.moments[OPTIMIZER]),
                             c.formula, c.inputs))
    return tuple(out)


def zero3_grads_persistent(s: Scenario) -> bool:
    """DeepSpeed ZeRO-3 (zero_stage 3 without FSDP) keeps every gradient partition in grad_partitions_flat_buffer,
    torch.zeros(sum of the partitions' numel, gradient_accumulation_dtype) built in DeepSpeedZeroOptimizer_Stage3's
    __init__ (deepspeed/runtime/zero/stage3.py:498 at v0.14.5, the version ms-swift's PPO example pins; the same
    buffer at later releases); zero_grad(set_to_none) drops only the parameters' .grad, so the buffer outlives the
    step. On the GPU unless the optimizer is offloaded (then it is pinned CPU memory)."""
    return s.zero_stage == 3 and not s.fsdp and s.offload == "none"


def frozen_models(s: Scenario, spec: ModelSpec, rs: RLSettings, dt: Dtypes, est: Estimate,
                  critic: Estimate | None) -> tuple[Component, ...]:
    """The frozen models resident through the whole step, and PPO's critic states."""
    out = []
    shards = weight_shards(s)
    # verl builds its reference and reward models with parameter CPU offload (FSDP1 CPUOffload(offload_params=True),
    # FSDP2 CPUOffloadPolicy): nothing of them waits on the GPU between their forwards (offloaded_units_bytes)
    if rs.reference == "separate" and not rs.reference_params_offloaded:
        qlora = s.method == "qlora"
        # the reference is built like the policy: a vision tower the framework keeps whole on every tensor-parallel
        # rank is whole in the reference too (ms-swift's Megatron reference comes from the same get_mcore_model,
        # swift/megatron/trainers/rlhf_mixin.py prepare_model at 3602360a)
        vision_shards = shards // s.tp if defaults_for(s.framework).vision_tower_replicated else shards
        # a QLoRA policy's reference is built like its base: the packed 4-bit linears with their constants and the
        # 16-bit rest, as the trainer holds them on one GPU (the frozen_weights component alone missed the packed base,
        # as engine_weight_bytes did before)
        ref = (packed_base_bytes(est) + _component_bytes(est, "frozen_weights") if qlora
               else (spec.text_params / shards + spec.vision_params / vision_shards) * dt.compute)
        out.append(Component(
            "reference_weights", QT_TRANSLATE_NOOP("engine", "Reference model (frozen copy)"), "model states",
            Moments.whole_step(ref), QT_TRANSLATE_NOOP(
                "engine", "(language-model parameters / (tp x pp x ZeRO-3 data-parallel shards) + vision tower / "
                "its shards) x compute bytes; a QLoRA policy's reference is quantised like its base"),
            (("params", spec.total_params), ("vision_params", spec.vision_params), ("bytes_per_param", dt.compute),
             ("shards", shards), ("vision_shards", vision_shards), ("quantised", qlora))))
    if s.reward_model is not None and rs.online and not rs.reference_params_offloaded:
        reward = model_spec(s.reward_model)
        out.append(Component(
            "reward_weights", QT_TRANSLATE_NOOP("engine", "Reward model"), "model states",
            Moments.whole_step(reward.total_params * dt.compute / shards),
            QT_TRANSLATE_NOOP("engine", "reward model parameters x compute bytes / shards"),
            (("model", reward.name), ("params", reward.total_params), ("bytes_per_param", dt.compute),
             ("shards", shards))))
    if critic is not None:
        out += [as_critic(c) for c in resident_states(critic, False, zero3_grads_persistent(s))]
    return tuple(out)


def _component_bytes(est: Estimate, key: str) -> float:
    return sum(c.moments[OPTIMIZER] for c in est.components if c.key == key)


def packed_base_bytes(est: Estimate) -> float:
    """A QLoRA policy's packed 4-bit base on one training GPU: the packed linears with their quantisation constants
    (the trainer's quantized_weights component); 0 for a 16-bit policy. Both the engine's copy (engine_weight_bytes)
    and a separate reference model (frozen_models) hold it."""
    return _component_bytes(est, "quantized_weights")


def engine_weight_bytes(s: Scenario, spec: ModelSpec, rs: RLSettings, dt: Dtypes, est: Estimate) -> float:
    """The engine's own weight copy on one engine GPU: the merged policy in the compute dtype over rollout_tp GPUs;
    a QLoRA policy's engine loads the 4-bit base (TRL passes quantization="bitsandbytes" when the model holds
    bnb Linear4bit layers, vllm_generation.py): the packed linears with their constants (the trainer's
    quantized_weights) and the rest of the model (embeddings, head, norms) in the engine's 16-bit dtype. Checked:
    unslothai/notebooks at bdda2efc nb/Llama3.1_(8B)-GRPO.ipynb logs 'Loading model weights took 5.5976 GB' (GiB)
    for the 4-bit Llama-3.1-8B on a T4; this gives 5.31 GiB, the rest being the one MLP Unsloth's dynamic
    checkpoint keeps in 16 bits (llm_int8_skip_modules 'model.layers.1.mlp', 0.26 GB more), which no key states."""
    # vLLM's and SGLang's ranks each hold the routers, norms and an MLA layer's down-projections to the latents whole
    # (serving/weights.py: ReplicatedLinear, disable_tp), not a 1 / rollout_tp share: DeepSeek-V3 at rollout_tp 32
    # 1.9 GB a GPU more; a QLoRA engine's too, in their own format (the latents' projections packed, routers and
    # norms 16-bit: engine_weight_format)
    if s.method == "qlora":
        packed = packed_base_bytes(est) * s.tp * s.pp
        whole = replicated_layer_bytes(spec, engine_weight_format(s))
        return (packed + whole_model_params(s, spec).frozen * dt.compute) / rs.rollout_tp + whole * (1 - 1 / rs.rollout_tp)
    whole = replicated_layer_bytes(spec, "bf16") * dt.compute / 2
    return spec.total_params * dt.compute / rs.rollout_tp + whole * (1 - 1 / rs.rollout_tp)


def engine_weight_format(s: Scenario) -> str:
    """The weight format (engine/serving/weights.py) each tensor of the engine's copy is held in, as
    engine_weight_bytes counts it: a QLoRA policy's packed linears, its routed experts among them as the trainer
    packs them (memory/states.py stage_params: every frozen linear and expert of a QLoRA layer is quantized), in
    bitsandbytes' NF4 (4 bits and an fp32 absmax per 64 values) or LLM.int8 (8 bits and an fp32 scale per output
    row), embeddings, head and norms in 16 bits; any other policy 16-bit throughout."""
    if s.method != "qlora":
        return "bf16"
    return "bnb-nf4" if s.qlora_bits == 4 else "int8"


def engine_lora_bytes(s: Scenario, spec: ModelSpec, rs: RLSettings, compute_bytes: int) -> float:
    """The engine's LoRA stacks on one engine GPU when the framework serves a LoRA policy's adapters through the
    engine's LoRA support (PostTrainingDefaults.rollout_serves_adapters; verl: max_loras 1, max_lora_rank = the
    adapters' rank); 0 when the adapters are merged or the policy is trained whole."""
    if s.method not in ADAPTER_METHODS or not defaults_for(s.framework).posttraining.rollout_serves_adapters:
        return 0.0
    return lora_stack_bytes(spec, s.lora_rank, rs.rollout_tp, 1, compute_bytes)


def engine_load_extra_bytes(s: Scenario, spec: ModelSpec, rs: RLSettings, compute_bytes: int) -> float:
    """What a vLLM engine's weight figure holds beyond its weights' bytes on one engine GPU: the caching allocator's
    rounding of each weight tensor and the rotary cache (engine/serving/vllm_load.py); 0 for a QLoRA policy's 4-bit
    engine (other tensors) and for SGLang (engine/posttraining/rollout_memory.py passes it to vLLM only)."""
    if s.method == "qlora":
        return 0.0
    return vllm_load_extra_bytes(spec, rs.rollout_tp, compute_bytes)


def largest_tensor_bytes(spec: ModelSpec, compute_bytes: int) -> float:
    """The largest single weight tensor (the embedding or lm_head, or an MLP projection), gathered whole."""
    ffn = max(spec.ffn, spec.expert_ffn * max(spec.top_k, 1) if spec.is_moe else 0)
    return max(spec.vocab * spec.hidden, spec.hidden * ffn * spec.fc1_factor) * compute_bytes


def offloaded_units_bytes(spec: ModelSpec, compute_bytes: int, tp: int) -> float:
    """A frozen model built with FSDP1's CPUOffload(offload_params=True) (verl's reference and reward models) during
    its forward: each unit's shard is copied in and all-gathered whole for its forward, and a decoder layer's is freed
    after it (torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard), but the root unit (embeddings, final
    norm, lm_head) is not freed by the post-forward (`free_unsharded_flat_param = not state._is_root and ...`): verl
    frees it only after the pass (fsdp_workers.py compute_ref_log_prob: `self.ref_policy.actor_module._handle
    .reshard(True)` under FSDP1, b4aa2dce8 and b178a3c). So the pass holds the root and one decoder layer, gathered
    in the compute dtype."""
    layer = spec.largest_layer_params  # the unit gathered at the peak: the largest layer kind's (a hybrid's block)
    return (root_params(spec, True, True, tp) + layer / tp) * compute_bytes
