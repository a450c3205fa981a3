"""Post-training launch settings (issue 22): a TRL GRPOConfig / DPOConfig YAML with its `trl <trainer>` launch line,
and verl's `python3 -m verl.trainer.main_ppo` command with its dotted overrides. The names are the ones the importers
read (engine/configs/trl.py, rl_common.py, verl_rl.py), so importing an export gives the plan back."""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..memory.states import dtypes_for
from ..messages import QT_TRANSLATE_NOOP
from ..posttraining.estimate import step_sequences
from ..posttraining.longest_completion import longest_completion_len
from ..posttraining.rank_imbalance import by_token_count
from ..posttraining.settings import critic_offload, reference_for, rl_settings
from ..scenario import Scenario
from ..scenario.behaviour import adapter_dtype_bytes, fsdp1_wrap, fsdp_shards
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from .export_common import ExportError, half_precision, header, lora_target_list, model_name, yaml_config
from .verl_batch import batch_args

# objective -> TRL trainer with a `trl` CLI subcommand (trl/scripts/: dpo, grpo, kto, reward, rloo) and its loss_type
_TRL_TRAINERS = {"grpo": ("grpo", None), "rloo": ("rloo", None), "dpo": ("dpo", None), "ipo": ("dpo", "ipo"),
                 "kto": ("kto", None), "reward": ("reward", None)}
# the first TRL release whose trainer casts a quantised model's LoRA adapters to bf16 (the trl row's source,
# engine/frameworks/defaults.py _TRL_QLORA_BF16: huggingface/trl 2af35fb0d #4577 v0.26.0 GRPO and reward, 00da0462b
# #4685 v0.27.0 RLOO, e3b7897c8 #3906 v0.29.0 DPO, 9516563e3 #5661 v1.4.0 KTO)
_TRL_BF16_ADAPTERS_SINCE = {"grpo": "0.26", "reward": "0.26", "rloo": "0.27", "dpo": "0.29", "kto": "1.4"}
_ONLINE = ("grpo", "rloo")
# algorithm.adv_estimator of each objective verl trains (verl/trainer/ppo/core_algos.py AdvantageEstimator)
_VERL_ESTIMATORS = {"ppo": "gae", "grpo": "grpo", "rloo": "rloo"}


def trl_config(s: Scenario) -> str:
    if s.training_objective not in _TRL_TRAINERS:
        raise ExportError(QT_TRANSLATE_NOOP("engine", "TRL's command line has no trainer for the objective "
                                                      "'{objective}'; pick grpo, rloo, dpo, ipo, kto or reward, or "
                                                      "another format."), objective=s.training_objective)
    trainer, loss_type = _TRL_TRAINERS[s.training_objective]
    data: dict[str, Any] = {"model_name_or_path": model_name(s), "per_device_train_batch_size": s.micro_batch,
                            "gradient_accumulation_steps": s.grad_accum,
                            "gradient_checkpointing": s.checkpointing != "none"}
    half = half_precision(s)
    if s.precision in ("bf16", "fp16"):  # the model loaded in 16 bits
        data["torch_dtype"] = {"bf16": "bfloat16", "fp16": "float16"}[s.precision]
    elif half:
        data[half] = True
    note = ""
    if s.method in ADAPTER_METHODS:
        data.update(use_peft=True, lora_r=s.lora_rank, lora_alpha=s.lora_alpha,
                    lora_target_modules="all-linear" if s.lora_targets == "all-linear" else lora_target_list(s))
        if s.method == "qlora":
            data[f"load_in_{s.qlora_bits}bit"] = True
            note = _qlora_adapter_note(s, _TRL_BF16_ADAPTERS_SINCE[trainer])
    if loss_type:
        data["loss_type"] = loss_type
    data["max_prompt_length"] = s.prompt_len
    data["max_completion_length"] = s.completion_len
    if s.training_objective in _ONLINE:  # the cap is the longest completion (completion_len is then the mean)
        data["max_completion_length"] = longest_completion_len(s)
        data.update(_trl_generation(s))
    else:
        data["max_length"] = s.prompt_len + s.completion_len
        if s.reference_model == "precomputed":
            data["precompute_ref_log_probs"] = True
    if profile := _trl_accelerate_profile(s):
        data["accelerate_config"] = profile
    launch = f"# Launch: trl {trainer} --config trl_config.yaml --num_processes {s.world_size}"
    launch += f" --num_machines {s.nodes}\n" if s.nodes > 1 else "\n"
    return launch + _trl_server_line(s) + note + yaml_config(s, "trl", data)


def _trl_server_line(s: Scenario) -> str:
    """The engine's own command where it runs on GPUs of its own (vllm_mode server): GRPOConfig's
    vllm_gpu_memory_utilization and vllm_tensor_parallel_size apply in colocate mode only, "If you are using
    vllm_mode='server', this parameter must be passed separately when launching the vLLM server" (trl/trainer/
    grpo_config.py help), and `trl vllm-serve` takes them as --gpu_memory_utilization (default 0.9),
    --tensor_parallel_size and --data_parallel_size (huggingface/trl@01bd4a59 trl/scripts/vllm_serve.py
    ScriptArguments). On one node the server takes the GPUs after the trainer's: "vLLM server and TRL trainer must
    use different CUDA devices" (docs/source/vllm_integration.md). The file said vllm_mode server and a share the
    server never reads, and no server command (user audit 13). The model's name is one shell word of the comment's
    command (h-fuzz12: it was written raw, so "$(...)" ran when the line was pasted and a line break ended the
    comment, the rest of the name read as the YAML's keys); `trl vllm-serve` parses with argparse (TrlParser), which
    takes a word starting with "-" after --model for an option, so such a name is one --model=NAME word."""
    if s.rollout_engine != "vllm" or s.rollout_placement != "separate" or not s.rollout_gpus:
        return ""
    name = model_name(s)
    if not name.isprintable():  # a line break or control character would leave the comment and the quoted word
        raise ExportError(QT_TRANSLATE_NOOP("engine", "The model's name holds characters a command line cannot "
                                                      "carry; rename the model before exporting for TRL's vLLM "
                                                      "server (trl vllm-serve)."))
    model = shlex.quote(f"--model={name}") if name.startswith("-") else f"--model {shlex.quote(name)}"
    devices = (f"CUDA_VISIBLE_DEVICES={','.join(str(s.gpus_per_node + i) for i in range(s.rollout_gpus))} "
               if s.nodes == 1 else "")
    # the share the plan sized the engine with, "auto" (the framework's) included: the server's own default differs
    share = f" --gpu_memory_utilization {rl_settings(s, dtypes_for(s).compute).utilization:g}"
    engines = s.rollout_gpus // s.rollout_tp
    return (f"# Start the generation engine first, on GPUs of its own: {devices}trl vllm-serve {model}"
            f" --tensor_parallel_size {s.rollout_tp}" + (f" --data_parallel_size {engines}" if engines > 1 else "")
            + share + "\n")


def _qlora_adapter_note(s: Scenario, since: str) -> str:
    """Every trainer the export names casts a quantised model's LoRA adapters to bf16 from TRL `since` on (the trl
    row's quantized_adapters_bf16, engine/frameworks/defaults.py), with no setting to keep peft's fp32: a plan that
    sized them otherwise says so, since its adapters, their gradients and AdamW states (and, in fp32, the casts of
    each adapted linear's input) are not what the launched run keeps."""
    if adapter_dtype_bytes(s, dtypes_for(s).compute) == 2:
        return ""
    return (f"# TRL {since} and later cast the quantised model's LoRA adapters to bf16; this plan sized them in "
            f"{adapter_dtype_bytes(s, dtypes_for(s).compute) * 8}-bit (framework trl-2025, lora_adapter_dtype fp32 or "
            "another framework), so the run keeps less than planned.\n")


def _trl_accelerate_profile(s: Scenario) -> str | None:
    """The sharding, as one of TRL's predefined accelerate configs the `trl` command takes as accelerate_config
    (huggingface/trl 02fcdef docs/source/clis.md "Predefined Config Profiles": zero1, zero2, zero3, fsdp1, fsdp2;
    trl/accelerate_configs/zero3.yaml at 1132199 and fsdp2.yaml at 9ce14f8 offload nothing). Without it the launch
    line started plain data parallelism: a ZeRO-3 plan's whole states on every GPU. None: nothing sharded."""
    if s.effective_zero == 0:
        return None
    if s.offload != "none" or s.dp_shard:
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "TRL's predefined accelerate configs (zero1-3, fsdp1, fsdp2) shard over every GPU and offload "
            "nothing; export an accelerate config (--to accelerate) for this plan and pass its path as "
            "accelerate_config."))
    if fsdp_shards(s):
        return "fsdp1" if fsdp1_wrap(s) else "fsdp2"
    return f"zero{s.effective_zero}"


def _trl_generation(s: Scenario) -> dict[str, Any]:
    data: dict[str, Any] = {"num_generations": s.num_generations}
    if s.reference_model == "none":
        data["beta"] = 0.0  # grpo_trainer.py: beta 0.0 loads no reference model
    elif s.reference_model != "auto" and reference_for(s) != "none":
        # a reference the plan keeps needs a KL term: TRL's GRPOConfig beta defaults to 0.0 from v0.19.0 (no reference
        # model, grpo_config.py lines 671-672 at f2cd577), so the file says 0.04, the default up to v0.18.0
        data["beta"] = 0.04
    if s.rollout_engine == "sglang":
        raise ExportError(QT_TRANSLATE_NOOP("engine", "TRL generates with vLLM or the model's own generate, not "
                                                      "SGLang; choose rollout_engine vllm or none."))
    if s.rollout_engine in ("vllm", "none"):
        data["use_vllm"] = s.rollout_engine == "vllm"
    if s.rollout_engine == "none":
        return data
    data["vllm_mode"] = "server" if s.rollout_placement == "separate" else "colocate"
    # colocated only: in server mode the trainer never reads it (huggingface/trl@f2cd577 grpo_trainer.py:767 "only
    # applies to colocation mode", trl/generation/vllm_generation.py:315-354 passes it to LLM(...) in the colocate
    # branch alone); `trl vllm-serve --gpu_memory_utilization` (_trl_server_line) carries the engine's share
    if s.rollout_gpu_memory_utilization != "auto" and s.rollout_placement != "separate":
        data["vllm_gpu_memory_utilization"] = s.rollout_gpu_memory_utilization
    if s.rollout_tp > 1:
        data["vllm_tensor_parallel_size"] = s.rollout_tp
    if s.rollout_sleep == "level-1":
        raise ExportError(QT_TRANSLATE_NOOP("engine", "TRL's vLLM sleeps at level 2 only; choose rollout_sleep "
                                                      "level-2 or none."))
    if s.rollout_sleep in ("none", "level-2"):
        data["vllm_enable_sleep_mode"] = s.rollout_sleep == "level-2"
    return data


def verl_args(s: Scenario) -> str:
    if s.training_objective not in _VERL_ESTIMATORS:
        raise ExportError(QT_TRANSLATE_NOOP("engine", "verl's main_ppo trains ppo, grpo and rloo, not "
                                                      "'{objective}'; pick one of them or another format."),
                          objective=s.training_objective)
    if s.rollout_engine == "none" or s.rollout_placement == "separate":
        raise ExportError(QT_TRANSLATE_NOOP("engine", "verl's hybrid engine generates with vLLM or SGLang on the "
                                                      "training GPUs; choose one and rollout_placement colocate."))
    name = model_name(s)
    # a line break or control character would leave the quoted word; "???" is OmegaConf's missing value
    # (omry/omegaconf@63b63041 omegaconf/_utils.py:780-782), which no quoting makes a string
    if not name.isprintable() or name == "???":
        raise ExportError(QT_TRANSLATE_NOOP("engine", "The model's name holds characters a command line cannot "
                                                      "carry; rename the model before exporting for verl."))
    a, r = "actor_rollout_ref.actor.", "actor_rollout_ref.rollout."
    args: list[tuple[str, Any]] = [
        ("algorithm.adv_estimator", _VERL_ESTIMATORS[s.training_objective]),
        ("data.max_prompt_length", s.prompt_len), ("data.max_response_length", longest_completion_len(s)),
        ("actor_rollout_ref.model.path", _HydraText(name)),
        ("actor_rollout_ref.model.enable_gradient_checkpointing", s.checkpointing != "none"),
        # by token count (use_dynamic_bsz) verl cuts each mini-batch into micro-batches of at most the budget's tokens
        # and reads no micro-batch size (verl_batch.py read_dynamic_batch: micro_batch the rank's mini-batch)
        *([(a + "use_dynamic_bsz", True), (a + "ppo_max_token_len_per_gpu", s.max_tokens_per_micro_batch)]
          if by_token_count(s) else [(a + "ppo_micro_batch_size_per_gpu", s.micro_batch)]),
        # the plan's optimizer step in prompts: verl multiplies by n and divides by the data-parallel ranks
        # (verl_batch.py), giving micro_batch x grad_accum a rank
        *batch_args(step_sequences(s), s.num_generations, s.grad_accum if by_token_count(s) else 1),
        (a + "fsdp_config.param_offload", s.offload == "optimizer+params"),
        (a + "fsdp_config.optimizer_offload", s.offload != "none"),
        *_verl_optimizer(s),
        ("algorithm.use_kl_in_reward", False),
        (r + "name", "vllm" if s.rollout_engine == "auto" else s.rollout_engine),
        (r + "n", s.num_generations), (r + "tensor_model_parallel_size", s.rollout_tp),
        (r + "max_num_seqs", s.rollout_max_num_seqs),
    ]
    # verl builds a reference only for a KL term (need_reference_policy: use_kl_in_reward or use_kl_loss, both false
    # by default: engine/frameworks/posttraining.py VERL "kl default"); the plan's reference (its own, or what "auto"
    # resolves to for the plan's framework and objective) is scored for the actor's KL loss, none in the reward. An
    # "auto" that resolves to none is verl's own default and is left unwritten, so importing the command gives "auto"
    reference = reference_for(s)
    if s.reference_model != "auto" or reference != "none":
        args.append((a + "use_kl_loss", reference != "none"))
    if s.rollout_gpu_memory_utilization != "auto":
        args.append((r + "gpu_memory_utilization", s.rollout_gpu_memory_utilization))
    if s.rollout_max_model_len is not None:  # unset, verl passes prompt_length + response_length
        args.append((r + "max_model_len", s.rollout_max_model_len))
    if s.rollout_enforce_eager != "auto":  # verl's default moved from True to False at ff6978c14 (2025-08)
        args.append((r + "enforce_eager", bool(s.rollout_enforce_eager)))
    if s.entropy_coeff:  # verl's default is 0 (actor.yaml); any other value adds the entropy to the update
        args.append((a + "entropy_coeff", s.entropy_coeff))
    if s.ulysses_sequence_parallel_size > 1:  # verl requires remove-padding with sequence parallelism
        args.append((a + "ulysses_sequence_parallel_size", s.ulysses_sequence_parallel_size))
    if s.ulysses_sequence_parallel_size > 1 or s.packing == "padding-free":  # verl's default pads (use_remove_padding)
        args.append(("actor_rollout_ref.model.use_remove_padding", True))
    args += _verl_critic(s)
    if s.method == "lora":
        args += [("actor_rollout_ref.model.lora_rank", s.lora_rank),
                 ("actor_rollout_ref.model.lora_alpha", s.lora_alpha)]
    args += [("trainer.n_gpus_per_node", s.gpus_per_node), ("trainer.nnodes", s.nodes)]
    body = [f"    {shlex.quote(f'{k}={_hydra(v)}')}" for k, v in args]
    out = ["#!/bin/bash", header(s, "verl").rstrip(), "", "python3 -m verl.trainer.main_ppo \\"]
    out += [line + " \\" for line in body[:-1]] + [body[-1]]
    return "\n".join(out) + "\n"


def _verl_critic(s: Scenario) -> list[tuple[str, Any]]:
    """PPO's critic as the plan has it (user audit 8: the command left it to verl's defaults). verl's critic has its
    own model path (default ~/models/deepseek-llm-7b-chat), padding, offload and micro-batch, none following the
    actor's (volcengine/verl@ed498f9f verl/trainer/config/ppo_trainer.yaml:130-158), and main_ppo refuses a critic
    without a micro-batch size ("[critic] Please set at least one of ...", verl/trainer/ppo/ray_trainer.py:336-350,
    380). The estimate runs the critic at the actor's micro-batch (engine/posttraining/estimate.py critic_scenario)."""
    if s.training_objective != "ppo" or s.critic_model is None:
        return []
    critic = model_name(s if s.critic_model == "same" else s.with_unchecked(model=s.critic_model))
    if not critic.isprintable() or critic == "???":
        raise ExportError(QT_TRANSLATE_NOOP("engine", "The model's name holds characters a command line cannot "
                                                      "carry; rename the model before exporting for verl."))
    offload = critic_offload(s)
    unpadded = (s.packing if s.critic_packing == "auto" else s.critic_packing) == "padding-free"
    c = "critic.model."
    return [(c + "path", _HydraText(critic)), (c + "use_remove_padding", unpadded),
            (c + "fsdp_config.param_offload", offload == "optimizer+params"),
            (c + "fsdp_config.optimizer_offload", offload != "none"),
            ("critic.ppo_micro_batch_size_per_gpu", s.micro_batch),
            # by token count the critic cuts at its own budget (its use_dynamic_bsz follows the actor's)
            *([("critic.ppo_max_token_len_per_gpu", s.critic_max_tokens_per_micro_batch)] if by_token_count(s) else [])]


# bitsandbytes' 8-bit AdamW by the class verl's FSDP actor imports: build_optimizer imports optim.optimizer_impl and
# takes optim.optimizer from it (volcengine/verl@f9c855f7 (v0.7.0) verl/workers/config/optimizer.py:146-198, its
# docstring's own example "bitsandbytes.optim" / "AdamW8bit"; fsdp_workers.py:569 builds the actor's with it)
VERL_BNB_OPTIMIZERS = {"adamw-8bit": "AdamW8bit", "adamw-8bit-paged": "PagedAdamW8bit"}


def _verl_optimizer(s: Scenario) -> tuple[tuple[str, Any], ...]:
    """The 8-bit AdamW a plan proposes, as verl's optim overrides (verl's default is torch.optim.AdamW)."""
    name = VERL_BNB_OPTIMIZERS.get(optimizer_used(s))
    if name is None:
        return ()
    a = "actor_rollout_ref.actor.optim."
    return ((a + "optimizer_impl", "bitsandbytes.optim"), (a + "optimizer", name))


def _hydra(value: Any) -> str:
    if isinstance(value, _HydraText):
        return hydra_string(value)
    return ("True" if value else "False") if isinstance(value, bool) else str(value)


class _HydraText(str):
    """Text from the user (the model's name or path) in an override: written by hydra_string, not as it is."""


# A Hub id or a path of these characters holds a "/", so Hydra reads it as several tokens joined into one string
# (facebookresearch/hydra@2c03d1b9 hydra/core/override_parser/overrides_visitor.py:283-299); verl's own examples pass
# model paths this way (volcengine/verl@3f388066 examples/grpo_trainer/run_qwen2-7b.sh:14). Anything else is quoted.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_.\-]*/[A-Za-z0-9_./\-]*")
# each run of backslashes before "${", and each run before a double quote or the end
_BEFORE_INTERPOLATION = re.compile(r"(\\*)\$\{")
_BEFORE_QUOTE = re.compile(r'(\\*)("|$)')


def hydra_string(text: str) -> str:
    """`text` as the value of a Hydra override that verl reads back as exactly that string, never as an
    interpolation, a number, a list, a dict or a sweep. Unquoted, Hydra's grammar takes only letters, digits and
    /-\\+.$%*@?|: (hydra@2c03d1b9 hydra/grammar/OverrideLexer.g4:62-68): a space or a comma splits or sweeps the value,
    brackets make a list, and a word alone may read as a number, a bool or null. So other text is double-quoted as
    Hydra's QuotedString.with_quotes writes it (hydra/core/override_parser/types.py:30-70: a quote escaped, a run of
    backslashes before a quote or the closing quote doubled). OmegaConf still resolves "${...}" inside a quoted
    string (oc.env reads the environment), so each "${" is first escaped as OmegaConf un-escapes it: k backslashes
    before it become 2k, then \\${ (omry/omegaconf@63b63041 omegaconf/grammar/OmegaConfGrammarLexer.g4:24,
    omegaconf/grammar_visitor.py:366-370)."""
    if _PLAIN_PATH.fullmatch(text):
        return text
    text = _BEFORE_INTERPOLATION.sub(lambda m: m.group(1) * 2 + "\\${", text)
    return '"' + _BEFORE_QUOTE.sub(lambda m: m.group(1) * 2 + ('\\"' if m.group(2) else ""), text) + '"'
