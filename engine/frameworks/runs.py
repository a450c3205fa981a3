"""Which activation-checkpointing modes and training methods each framework runs, each fact with where it is written,
at the release its row of engine/frameworks/defaults.py describes (issue 23 item 5: plans experts would choose).

The scenario's `checkpointing` is none, full, selective (what the framework calls selective: FrameworkDefaults.
selective, Megatron's attention-core recompute or a per-op policy) or op-selective (torchtitan's per-op policy); its
`method` is full, freeze, lora or qlora. A fact that was not read stays permissive (the setting is allowed) and says so
in its source: a setting is refused only where the framework's own code has no such thing or refuses it. The searches
(engine/planning/) do not propose what a framework cannot run; the estimate warns about it
(engine/scenario/framework_support.py) and engine/scenario/runnable.py gives the nearest setting it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

# the scenario format's modes and methods (engine/scenario/choices.py CHECKPOINTINGS, METHODS, ADAPTER_METHODS; engine/
# scenario imports this package, so the names are repeated here and tests/test_framework_runs.py holds them equal)
ALL_CHECKPOINTINGS = ("none", "full", "selective", "op-selective")
ALL_METHODS = ("full", "freeze", "lora", "qlora")
ADAPTERS = ("lora", "qlora")  # the methods that train adapters over a frozen base
WHOLE_LAYERS = ("none", "full")  # a framework that recomputes whole layers only


@dataclass(frozen=True, slots=True)
class Runs:
    checkpointings: tuple[str, ...] = ALL_CHECKPOINTINGS  # the checkpointing modes it runs
    lacks: tuple[str, ...] = ()  # the training methods it has no code for
    one_gpu: tuple[str, ...] = ()  # the training methods it runs on a single GPU only
    sources: tuple[tuple[str, str], ...] = ()  # (fact, where it is written); "not read" for the permissive ones
    # full checkpointing of only some layers (scenario keys recompute_num_layers, recompute_method: engine/scenario/
    # recompute_layers.py): the methods it runs, "block" (the first or every n-th layers) and "uniform" (groups)
    recompute_methods: tuple[str, ...] = ("block", "uniform")
    # the fp8 scaling recipes it has (scenario key fp8_recipe, with precision fp8); () : not read, every one allowed
    fp8_recipes: tuple[str, ...] = ()
    # the AdamW it builds when its config names none (the scenario's optimizer where the file leaves it out): "adamw",
    # PyTorch's default foreach AdamW or the framework's own Adam (FrameworkDefaults.adam_fused), where not read
    optimizer: str = "adamw"
    # the setting of its config that builds a fused AdamW (torch.optim.AdamW(fused=True) or its own fused Adam), whose
    # step updates in place with no foreach temporaries: Make it fit offers it (engine/planning/fused_adamw.py); "":
    # not read, or its "adamw" is fused already (FrameworkDefaults.adam_fused)
    fused_adamw: str = ""
    # the scenario's optimizers (engine/scenario/choices.py OPTIMIZERS) and attention kernels (ATTENTIONS) it has; ():
    # not read, every one allowed (a framework on PyTorch builds any torch optimizer and runs any SDPA backend)
    optimizers: tuple[str, ...] = ()
    attentions: tuple[str, ...] = ()
    # (key, value, its name in this framework): the form's and the text's words for an optimizer or attention kernel
    # it runs its own way (MLX's mlx.optimizers, mx.fast.scaled_dot_product_attention); translated in context "engine"
    own_names: tuple[tuple[str, str, str], ...] = ()
    # whether its LoRA can put adapters on chosen decoder layers only (scenario key lora_layers: the top N; PEFT's
    # layers_to_transform, mlx-lm's --num-layers); True where not read, or where it trains a PEFT model it is given
    lora_layer_choice: bool = True

    def runs_lora_layers(self, method: str, lora_layers: int) -> bool:
        """Whether it runs s's adapters on the top lora_layers layers only (0: every layer, which any LoRA runs)."""
        return method not in ADAPTERS or not lora_layers or self.lora_layer_choice

    def has_choice(self, key: str, value: str) -> bool:
        """Whether it has the optimizer or attention kernel (key "optimizer" or "attention"); "auto", its own
        optimizer, always."""
        offered = {"optimizer": self.optimizers, "attention": self.attentions}[key]
        return not offered or value == "auto" or value in offered

    def own_name(self, key: str, value: str) -> str:
        """What it calls the optimizer or attention kernel ("" where it runs it as PyTorch does)."""
        return next((name for k, v, name in self.own_names if k == key and v == value), "")

    def runs_fp8_recipe(self, precision: str, fp8_recipe: str) -> bool:
        """Whether it runs the fp8 recipe (its own default, "auto", always; any recipe where it trains no fp8)."""
        return precision != "fp8" or fp8_recipe == "auto" or not self.fp8_recipes or fp8_recipe in self.fp8_recipes

    def cannot_run(self, checkpointing: str, method: str, gpus: int) -> tuple[str, ...]:
        """The settings it cannot run, by name: "checkpointing", "method" (a method it lacks, or one it runs on a
        single GPU only, on several)."""
        out: tuple[str, ...] = ()
        if checkpointing not in self.checkpointings:
            out += ("checkpointing",)
        if method in self.lacks or (method in self.one_gpu and gpus > 1):
            out += ("method",)
        return out

    def runs_recompute(self, checkpointing: str, recompute_num_layers: int, recompute_method: str) -> bool:
        """Whether it runs full checkpointing of only some layers (or in groups) as the scenario's keys ask."""
        return checkpointing != "full" or not recompute_num_layers or recompute_method in self.recompute_methods

    def nearest_checkpointing(self, checkpointing: str) -> str:
        """The mode it runs nearest to one it does not: op-selective and selective stand for each other (a framework's
        own selective recomputation), else it recomputes whole layers (full, which every framework runs)."""
        other = {"op-selective": "selective", "selective": "op-selective"}.get(checkpointing)
        return other if other in self.checkpointings else "full"

    def nearest_method(self, method: str, gpus: int) -> str:
        """The method it runs nearest to one it does not: QLoRA's adapters without the 4-bit base (LoRA), else every
        weight trained (full)."""
        lora = "lora" not in self.lacks and not ("lora" in self.one_gpu and gpus > 1)
        return "lora" if method == "qlora" and lora else "full"


ANY = Runs(sources=(("checkpointing, methods", "not read: every mode and method is allowed"),))
_NOT_READ = ("methods", "not read (allowed)")

# transformers' gradient_checkpointing wraps each decoder layer's whole __call__: no selective or per-op mode
_TRANSFORMERS_LAYERS = ("huggingface/transformers at 00029cfa0ed7 src/transformers/modeling_layers.py "
                        "GradientCheckpointingLayer.__call__: with gradient_checkpointing on, the whole decoder layer "
                        "runs under self._gradient_checkpointing_func (torch.utils.checkpoint); "
                        "TrainingArguments.gradient_checkpointing has no other mode")
# transformers' Trainer: TrainingArguments(optim="adamw_torch_fused")
_HF_FUSED = ("fused AdamW", "transformers src/transformers/trainer.py Trainer.get_optimizer_cls_and_kwargs: optim in "
             "[ADAMW_TORCH, ADAMW_TORCH_FUSED] builds torch.optim.AdamW, with fused=True for adamw_torch_fused; "
             "training_args.py: '--optim adamw_torch_fused requires PyTorch 2.0 or higher' (read in the transformers "
             "Trainer, commit not pinned here)")
# PEFT's LoraConfig adapts only the layer indices it is given (axolotl's peft_layers_to_transform, LLaMA-Factory's and
# TRL's LoraConfig, Unsloth's get_peft_model pass it on)
_PEFT_LAYERS = ("lora layers", "huggingface/peft at 5d602fdbff04 src/peft/tuners/lora/config.py lines 703-709 "
                "LoraConfig.layers_to_transform: 'PEFT will transform only the layers indexes that are specified' "
                "(with target_modules a list)")
# PEFT's target_modules as a list matches a module's whole name or its suffix, as a string a regular expression: a
# layer-qualified name adapts that layer only
_PEFT_SUFFIX = ("huggingface/peft at 5d602fdbff04 src/peft/tuners/tuners_utils.py lines 2326-2332 "
                "check_target_module_exists matches as key in target_modules or key.endswith(f'.{target_key}') (a "
                "string: a regular expression over the whole name): that layer's module only")
HUGGINGFACE = Runs(WHOLE_LAYERS, fused_adamw='optim="adamw_torch_fused"', sources=(
    ("checkpointing", _TRANSFORMERS_LAYERS), _NOT_READ, _HF_FUSED,
                                          ("recompute layers", "every decoder layer or none: " + _TRANSFORMERS_LAYERS),
    _PEFT_LAYERS), recompute_methods=())
UNSLOTH = Runs(WHOLE_LAYERS, fused_adamw='optim="adamw_torch_fused"', sources=(_HF_FUSED,
    ("checkpointing", "unslothai/unsloth at 015bdef0d94a unsloth/models/llama.py: use_gradient_checkpointing True or "
     "'unsloth' (offloaded) checkpoints transformers' decoder layers whole: " + _TRANSFORMERS_LAYERS),
    _NOT_READ,
    ("recompute layers", "every decoder layer or none (transformers' gradient_checkpointing)"),
    ("lora layers", "Unsloth FastLanguageModel.get_peft_model(..., layers_to_transform=None, layers_pattern=None) "
     "hands them to peft's LoraConfig: " + _PEFT_LAYERS[1]),
), recompute_methods=())
# LoRA on every decoder layer or none: the builders and converters below adapt each layer alike
_TORCHTUNE_EVERY_LAYER = ("lora layers", "pytorch/torchtune at bd2a0fc7c314 torchtune/models/llama3/_component_builders.py "
                          "lines 225-265 lora_llama3: `for _ in range(num_layers)` builds every layer with the same "
                          "lora_attn_modules, apply_lora_to_mlp; no layer index or filter (the other models' builders "
                          "alike): no layer choice")
# torchtune's recipes: enable_activation_checkpointing wraps each TransformerSelfAttentionLayer; ac_mode selective is
# every n-th layer (whole layers too), and its 'op' option cannot run (int('op'))
TORCHTUNE = Runs(WHOLE_LAYERS, fused_adamw="optimizer: fused: True", sources=(
    ("fused AdamW", "pytorch/torchtune at bd2a0fc7c recipes/configs/llama3_1/8B_full.yaml lines 66-69: optimizer "
     "_component_ torch.optim.AdamW with fused: True (its kwargs go to torch.optim.AdamW; engine/configs/torchtune.py "
     "reads it as adamw-fused)"),
    ("checkpointing", "pytorch/torchtune at bd2a0fc7c314 recipes/full_finetune_distributed.py lines 667-670: "
     "enable_activation_checkpointing wraps each TransformerSelfAttentionLayer (lora_finetune_*.py have only that "
     "switch); torchtune/training/activations.py checkpoint_wrapper: ac_mode 'selective' checkpoints every "
     "int(ac_option)-th layer whole (line 37), so the docstring's ac_option 'op' raises ValueError: no per-op or "
     "attention-only recomputation"),
    _NOT_READ,
    ("recompute layers", "training/activations.py checkpoint_wrapper's ac_mode 'selective' with an integer "
     "ac_option checkpoints every n-th layer whole (block with floor(layers / n)); whether bd2a0fc7c314's recipes "
     "reach it was not read (allowed); no groups"),
    _TORCHTUNE_EVERY_LAYER,
), recompute_methods=("block",), lora_layer_choice=False)
# torchtitan: activation_checkpoint none | full | selective (per-op SAC) | memory-budget
TORCHTITAN = Runs(lacks=("qlora",), recompute_methods=("block",), fused_adamw='optimizer.implementation = "fused"',
                  sources=(
    ("checkpointing", "pytorch/torchtitan at b5bcd76c66d0 torchtitan/distributed/activation_checkpoint.py "
     "ActivationCheckpointingConfig: none, full (FullAC), selective (SelectiveAC, per-op: saves matmul, attention "
     "and collective outputs, recomputes every second matmul), memory-budget: selective and op-selective are its "
     "SelectiveAC"),
    ("recompute layers", "torchtitan activation_checkpoint.py (b5bcd76c66d0 and the 2024 releases): "
     "selective_ac_option a whole number N wraps every N-th transformer block in its own checkpoint "
     "(_apply_layer_sac, `_count % ac_freq == 0`): block with floor(layers / N) layers; no groups"),
    ("methods", "torchtitan at b5bcd76c66d0: torchtitan/components/lora.py LoRA over the bf16 base; no 4-bit base "
     "(no NF4 or bitsandbytes under torchtitan/): no QLoRA"),
    ("optimizer", "torchtitan at b5bcd76c66d0 torchtitan/components/optimizer/optimizer.py lines 109-111: "
     "implementation 'for-loop' | 'foreach' | 'fused' | 'fused_opt_states_bf16', default 'fused' (adamw-fused; "
     "engine/configs/torchtitan.py reads it so); its 2024 releases had --optimizer.fused, default False (foreach: "
     "torchtitan/config_manager.py at 3faaa1a0 lines 185-189 and 9dec370 lines 194-197), which their rows state"),
    ("fused AdamW", "torchtitan at b5bcd76c66d0 torchtitan/components/optimizer/optimizer.py lines 109-111: "
     "[optimizer] implementation = 'fused' (its default; the 2024 releases' --optimizer.fused true)"),
    ("lora layers", "torchtitan at b5bcd76c66d0 torchtitan/components/lora.py lines 162-164 LoRAConverter.Config "
     "target_modules 'matched against the last segment of the FQN' (lines 209-212: fqn.rsplit('.', 1)[-1] in "
     "target_modules), None for every Linear: a name such as wq adapts it in every layer, no layer choice"),
), optimizer="adamw-fused", lora_layer_choice=False)
LITGPT = Runs(WHOLE_LAYERS, one_gpu=("qlora",), sources=(
    ("checkpointing", "Lightning-AI/litgpt at 26857050fe3f finetune/full.py line 110 (and adapter.py, lora_legacy.py) "
     "FSDPStrategy(activation_checkpointing_policy={Block}), finetune/lora.py parallelize_fn (line 522) "
     "checkpoint_wrapper on each transformer.h block: whole blocks only"),
    ("methods", "litgpt 26857050fe3f finetune/lora.py lines 152-156: --quantize with devices * num_nodes > 1 raises "
     "NotImplementedError('Quantization is currently not supported for multi-GPU training'): QLoRA on one GPU"),
    ("recompute layers", "every Block or none (activation_checkpointing_policy={Block})"),
    ("lora layers", "litgpt 26857050fe3f litgpt/lora.py lines 470-475 Config lora_query ... lora_mlp, lora_head: "
     "model-wide switches; line 499 builds Block(config, block_idx) for every block_idx and line 541 gives each "
     "the same enable_lora=(config.lora_query, config.lora_key, config.lora_value): no layer choice"),
), recompute_methods=(), lora_layer_choice=False)
OLMO_CORE = Runs(sources=(
    ("checkpointing", "allenai/OLMo-core at fa6c5014c9f6 src/olmo_core/nn/transformer/config.py "
     "TransformerActivationCheckpointingMode: full, selected_blocks, selected_modules (any module by name, the "
     "attention's included), selected_ops (per-op SAC), budget: every mode is allowed"),
    _NOT_READ,
))
_MEGATRON_SELECTIVE = ("NVIDIA/Megatron-LM at d98e8a64ddf3 megatron/core/transformer/transformer_config.py line 532 "
                       "recompute_granularity: Literal['full', 'selective'] (selective: the modules of "
                       "recompute_modules, core_attn by default); no per-op policy")
_MEGATRON_RECOMPUTE = ("recompute layers", "NVIDIA/Megatron-LM at d98e8a64ddf3 megatron/core/recompute.py lines "
                       "157-183: --recompute-method uniform (groups of --recompute-num-layers layers, each one "
                       "checkpoint) or block (the first --recompute-num-layers layers of each chunk); "
                       "transformer_config.py lines 543-555")
MEGATRON = Runs(("none", "full", "selective"), lacks=("qlora",),
                fp8_recipes=("delayed", "tensorwise", "mxfp8", "blockwise"), sources=(
    ("checkpointing", _MEGATRON_SELECTIVE), _MEGATRON_RECOMPUTE,
    ("fp8 recipes", "NVIDIA/Megatron-LM at d98e8a64ddf3 megatron/core/enums.py lines 12-19: Fp8Recipe delayed, "
     "tensorwise, mxfp8, blockwise (and custom, a user's own); torchao's rowwise recipes are not Transformer Engine's"),
    ("methods", "NVIDIA-NeMo/Megatron-Bridge at 067f987df03b has no QLoRA (src/megatron/bridge/peft: LoRA, canonical "
     "LoRA, DoRA; models/README.md line 314 lists 'PEFT model support (LoRA, QLoRA)' under Future Enhancements)"),
    ("lora layers", "Megatron-Bridge 067f987df03b src/megatron/bridge/peft/module_matcher.py lines 59-61: target_modules "
     "'can also contain wildcards', e.g. ['*.layers.0.*.linear_qkv'] adapts that layer only (line 144: name == "
     "pattern or wildcard_match(pattern, full_name)); under pipeline parallelism the index is the stage's own"),
))
MEGATRON_2022 = Runs(("none", "full", "selective"), lacks=ADAPTERS, sources=(
    ("checkpointing", "NVIDIA/Megatron-LM megatron/arguments.py at 285068c8 (2023-01-11) lines 593-595: "
     "--recompute-granularity full | selective ('core attention part of the transformer layer is recomputed', "
     "arXiv:2205.05198); no per-op policy"),
    ("recompute layers", "megatron/arguments.py at 285068c8 lines 605-614: --recompute-method uniform | block, "
     "--recompute-num-layers"),
    ("methods", "megatron/arguments.py at 285068c8: no LoRA or other adapter arguments (no peft package); frozen "
     "layers not read (allowed)"),
))
MEGATRON_2021 = Runs(WHOLE_LAYERS, lacks=ADAPTERS, recompute_methods=("uniform",), sources=(
    ("checkpointing", "NVIDIA/Megatron-LM megatron/arguments.py at de7dc40f88 (2021-08-10) lines 393-401: "
     "--checkpoint-activations with --checkpoint-num-layers (whole layers) is its only recomputation; "
     "--recompute-granularity selective came in 2022 with arXiv:2205.05198"),
    ("recompute layers", "de7dc40f88 megatron/arguments.py lines 400-401 --checkpoint-num-layers: 'chunk size "
     "(number of layers) for checkpointing', megatron/model/transformer.py lines 617-619 custom(l, l + "
     "checkpoint_num_layers): each chunk one checkpoint (uniform); no block method"),
    ("methods", "megatron/arguments.py at de7dc40f88: no LoRA or other adapter arguments; frozen layers not read "
     "(allowed)"),
))
_MEGATRON_DEEPSPEED = ("the Megatron layers hand DeepSpeed whole layers: deepspeedai/DeepSpeed at 112ebff6e86a "
                       "deepspeed/runtime/activation_checkpointing/checkpointing.py checkpoint(function, *args) "
                       "recomputes the function it is given")
# DeepSpeed's FusedAdam updates every tensor in place in multi_tensor_applier(multi_tensor_adam, ...) launches
_FUSED_ADAM_STEP = ("deepspeed/ops/adam/fused_adam.py step (edaa72212 lines 179-191, 112ebff6e86a lines 152-177): "
                    "multi_tensor_applier(self.multi_tensor_adam, ...) over [g, p, m, v], in place, no temporaries")
DEEPSPEED_2022 = Runs(WHOLE_LAYERS, sources=(
    ("optimizer", "deepspeedai/DeepSpeed at 2151c787a (2022-02-18) deepspeed/runtime/engine.py lines 1175-1208: a "
     "config Adam or AdamW without torch_adam builds FusedAdam (DeepSpeedCPUAdam under ZeRO offload); Megatron-"
     "DeepSpeed builds its own Adam, apex's FusedAdam, or DeepSpeed's with --ds-fused-adam (deepspeedai/Megatron-"
     "DeepSpeed at 4efb479d5317 megatron/optimizer/__init__.py lines 5 and 96-105; the bigscience-workshop fork's "
     "commits not read); " + _FUSED_ADAM_STEP),
    ("checkpointing", "bigscience-workshop/Megatron-DeepSpeed megatron/arguments.py at 8387ae17c470 (line 512) and "
     "49d21af2d2f3 (line 504): --checkpoint-activations (with --partition-activations, --checkpoint-in-cpu for "
     "deepspeed.checkpointing) is its only recomputation, no --recompute-granularity; " + _MEGATRON_DEEPSPEED),
    _NOT_READ,
))
DEEPSPEED_2021 = Runs(WHOLE_LAYERS, sources=(
    ("optimizer", "deepspeedai/DeepSpeed at 112ebff6e86a (2021-04-08) deepspeed/runtime/engine.py lines 653-678: a "
     "config Adam or AdamW without torch_adam builds FusedAdam (DeepSpeedCPUAdam under ZeRO-Offload); " + _FUSED_ADAM_STEP),
    ("checkpointing", "SC21's ZeRO-3 baseline (April 2021) ran Megatron's layers, whose only recomputation was "
     "--checkpoint-activations (NVIDIA/Megatron-LM de7dc40f88 megatron/arguments.py line 393; selective came with "
     "arXiv:2205.05198, 2022); " + _MEGATRON_DEEPSPEED),
    _NOT_READ,
))
INTERNEVO = Runs(WHOLE_LAYERS, lacks=ADAPTERS, recompute_methods=("block",), sources=(
    ("checkpointing", "InternLM/InternEvo at c18bec9 internlm/model/modeling_internlm.py: model.checkpoint (a fraction "
     "of the layers, checkpoint_fraction, lines 279-317) runs each checkpointed PackedFlashBaseLayer1D whole under "
     "activation_checkpoint (lines 162-165); dropout_selective_checkpoint recomputes only dropout and norm, with "
     "checkpointing off"),
    ("recompute layers", "c18bec9 modeling_internlm.py lines 279-317: checkpoint_fraction checkpoints the layers "
     "lid < num_layers x checkpoint_fraction, the first ones (block); no groups"),
    ("methods", "InternEvo c18bec9: no adapters under internlm/ (LoRA appears only in tools/transformers/"
     "intern_moss_example.py, a transformers script); frozen layers not read (allowed)"),
))
ALEPH_ALPHA_SCALING = Runs(WHOLE_LAYERS, lacks=("qlora",), sources=(
    ("checkpointing", "Aleph-Alpha/scaling at 78489292be src/scaling/core/topology/topology_config.py "
     "ActivationCheckpointingType: every_pipe_stage, every_layer, disabled (whole layers or stages; "
     "nn/parallel_module/parallel_module.py lines 250-261)"),
    ("methods", "scaling at 78489292be: src/scaling/core/nn/lora.py (LoRaConfig, LoRA on query, key, value, dense); "
     "no 4-bit base (no bitsandbytes or quantisation under src/): no QLoRA"),
))
# DeepSpeed (the current row): its activation checkpointing recomputes whatever function it is handed, so the model
# decides the granularity: transformers' decoder layers whole, or Megatron-DeepSpeed's attention core
_DS_CHECKPOINT = ("deepspeedai/DeepSpeed at edaa7221 deepspeed/runtime/activation_checkpointing/checkpointing.py line "
                  "1058 checkpoint(function, *args) recomputes the function it is given (config.py lines 27-43: "
                  "partition_activations, number_checkpoints, contiguous_memory_optimization, cpu_checkpointing, no "
                  "granularity or per-op policy)")
DEEPSPEED = Runs(("none", "full", "selective"), fused_adamw='"optimizer": {"type": "AdamW"} (no torch_adam)',
                 optimizer="adamw-fused", sources=(
    ("optimizer", "deepspeedai/DeepSpeed at edaa72212 deepspeed/runtime/engine.py lines 2095-2139: a config "
     "optimizer of type Adam or AdamW without torch_adam builds deepspeed.ops.adam.FusedAdam (DeepSpeedCPUAdam "
     "under ZeRO offload), torch.optim.AdamW only with torch_adam true; " + _FUSED_ADAM_STEP + ": adamw-fused, "
     "what engine/configs/deepspeed.py reads such a config as. A config with no optimizer section trains the "
     "client's optimizer (transformers' Trainer: its own torch AdamW, integrations/deepspeed.py "
     "deepspeed_optim_sched), the scenario's \"adamw\""),
    ("fused AdamW", "the config optimizer AdamW without torch_adam (the optimizer fact's lines)"),
    ("checkpointing", _DS_CHECKPOINT + "; transformers models hand it whole decoder layers (" + _TRANSFORMERS_LAYERS
     + "); deepspeedai/Megatron-DeepSpeed at 4efb479d5317 megatron/arguments.py line 830 --recompute-granularity "
     "full | selective, model/transformer.py line 629 checkpoint_core_attention (the attention core): selective "
     "runs, op-selective (per-op) nowhere"),
    ("methods", "DeepSpeed edaa7221 trains the model it is given: peft's LoRA and QLoRA under ZeRO-3 (huggingface/peft "
     "at 5d602fdbff04 docs/source/accelerate/deepspeed.md line 241; the published peft-docs-deepspeed-z3-* runs), and "
     "its own deepspeed/linear/config.py LoRAConfig and QuantizationConfig (OptimizedLinear): every method allowed"),
))
# The post-training frameworks as their rows plan them (engine/frameworks/parallelism.py POST_TRAINING): the trainers
# that train transformers models (verl's and NeMo-RL's Megatron workers and ms-swift's `megatron` trainers are other
# backends, the megatron row's), so their recomputation is transformers' whole decoder layers
_VERL = ("volcengine/verl at b178a3cd56f5 verl/workers/fsdp_workers.py lines 439-440 (critic 1351-1352): "
         "enable_gradient_checkpointing (verl/trainer/config/model/hf_model.yaml line 34) calls "
         "actor_module.gradient_checkpointing_enable, transformers' whole layers: ")
_OPENRLHF = ("OpenRLHF/OpenRLHF at 3c3be6234e0c openrlhf/models/actor.py lines 298-299: "
             "--actor.gradient_checkpointing_enable (cli/train_ppo_ray.py line 309) calls the transformers model's "
             "gradient_checkpointing_enable: ")
_SWIFT = ("modelscope/ms-swift at 3602360a5623 swift/trainers/mixin.py lines 930-941 _prepare_gradient_checkpointing: "
          "model.gradient_checkpointing_enable, or for models without it swift/trainers/utils.py lines 206-232 "
          "dynamic_gradient_checkpointing, _gradient_checkpointing_func over each layer of the longest ModuleList "
          "(whole layers): ")
_NEMO_RL = ("NVIDIA-NeMo/RL at 7ea279abfbeb nemo_rl/models/automodel/setup.py line 763 passes the boolean "
            "dtensor_cfg.activation_checkpointing to NVIDIA-NeMo/Automodel (its submodule at 24b47e856263) "
            "nemo_automodel/components/distributed/parallelizer.py lines 218-275: transformers' "
            "gradient_checkpointing_enable (whole layers) or checkpoint_wrapper around each layer's self_attn, mlp and "
            "norms (the layer's every activation recomputed); no selective or per-op mode")
POST_TRAINING = {
    "trl": HUGGINGFACE,
    "verl": Runs(WHOLE_LAYERS, lacks=("qlora",), sources=(
        ("checkpointing", _VERL + _TRANSFORMERS_LAYERS),
        ("methods", "verl b178a3cd56f5 fsdp_workers.py lines 406-412 from_pretrained(torch_dtype, config, "
         "attn_implementation), no quantization_config (no bitsandbytes or 4-bit option under verl/workers; "
         "hf_model.yaml lines 43-49 lora_rank, target_modules: LoRA through peft, line 471), then line 437 "
         "actor_module.to(torch_dtype), which transformers' PreTrainedModel.to refuses for a bitsandbytes model "
         "('You cannot cast a bitsandbytes model in a new `dtype`'): no QLoRA; freezing not read (allowed)"),
        ("lora layers", "verl b178a3cd56f5 verl/workers/fsdp_workers.py lines 463-471 LoraConfig(target_modules="
         "model.target_modules) for peft's get_peft_model (hf_model.yaml line 49, all-linear by default): a list of "
         "layer-qualified names or a regular expression, which " + _PEFT_SUFFIX),
    )),
    "openrlhf": Runs(WHOLE_LAYERS, optimizer="adamw-fused", sources=(
        ("optimizer", "OpenRLHF 3c3be6234e0c openrlhf/utils/deepspeed/deepspeed.py lines 358-366 hands DeepSpeed a config "
         "optimizer of type AdamW (--optim adam, the default: cli/train_sft.py line 223, train_ppo_ray.py line 448) "
         "and deepspeed_utils.py lines 25-26 and 71-73 offload it only under --ds.adam_offload, so DeepSpeed builds "
         "FusedAdam (DeepSpeedCPUAdam under the offload; the deepspeed row's optimizer fact); before the config "
         "optimizer, 76351db deepspeed.py line 142 built DeepSpeedCPUAdam if adam_offload else FusedAdam itself"),
        ("checkpointing", _OPENRLHF + _TRANSFORMERS_LAYERS),
        ("methods", "OpenRLHF 3c3be6234e0c openrlhf/models/actor.py lines 115-121 --ds.load_in_4bit (nf4 "
         "BitsAndBytesConfig) and lines 177-188 lora_rank (peft LoraConfig): LoRA and QLoRA; freezing not read "
         "(allowed)"),
        ("lora layers", "OpenRLHF 3c3be6234e0c openrlhf/models/actor.py lines 180-187 LoraConfig(task_type, r, "
         "lora_alpha, target_modules, lora_dropout, bias), no layers_to_transform, but cli/train_ppo_ray.py line 367 "
         "--ds.lora.target_modules nargs='*' takes module names such as layers.31.self_attn.q_proj, which " + _PEFT_SUFFIX),
    )),
    "ms-swift": Runs(WHOLE_LAYERS, sources=(
        ("checkpointing", _SWIFT + _TRANSFORMERS_LAYERS),
        ("methods", "ms-swift 3602360a5623 swift/arguments/base_args/quant_args.py lines 51-53 quant_method bnb with "
         "quant_bits 4 (QLoRA's base), tuner_args.py line 116 freeze_parameters, train_type lora / full: every "
         "method"),
        ("lora layers", "ms-swift 3602360a5623 swift/arguments/tuner_args.py lines 127 and 201-202 --target_regex "
         "becomes peft's target_modules, a regular expression over the module's whole name, which " + _PEFT_SUFFIX),
    )),
    "nemo-rl": Runs(WHOLE_LAYERS, sources=(
        ("checkpointing", _NEMO_RL),
        ("methods", "NeMo-RL 7ea279abfbeb nemo_rl/models/automodel/setup.py lines 663-673 dtensor_cfg.lora_cfg (LoRA); "
         "no 4-bit option of its own, but dtensor_cfg.automodel_kwargs reach Automodel's from_pretrained (line 770), "
         "whose quantization_config takes a BitsAndBytesConfig (Automodel 24b47e856263 _transformers/auto_model.py "
         "line 542): QLoRA not tried (allowed); freezing not read (allowed)"),
        ("lora layers", "NeMo-RL's lora_cfg builds NVIDIA-NeMo/Automodel's own LoRA (24b47e856263 "
         "nemo_automodel/components/_peft/module_matcher.py lines 65-69: target_modules with wildcards, "
         "['*.layers.0.*.linear_qkv'] adapts that layer only)"),
    )),
}
