"""The post-training part of the set-up (issue 22): the objective picker in the set-up form and, below it, only the
rows the chosen objective uses (progressive disclosure):

- preference objectives (dpo, ipo, kto): the reference; every post-training objective: prompt and completion
  lengths, which replace the sequence length;
- online objectives (ppo, grpo, rloo, online-dpo): completions per prompt, the reward model and the generation
  engine's rows (its share of each GPU, sleep mode, placement, tensor parallelism, KV format, sequences at once,
  the longest request it accepts) and, where the engine is vLLM, the release whose start-up accounting it follows;
- ppo: the critic;
- policy-gradient objectives (ppo, grpo, rloo) under a framework whose update computes the entropy bonus (verl), or
  with a bonus set: its weight (entropy_coeff);
- preference objectives whose framework takes the chosen sequences' NLL from the logits (TRL's DPO/IPO/CPO/SimPO,
  ms-swift's CPO/SimPO), or with a weight set: its weight (rpo_alpha).

Which objectives keep a reference follows the engine (engine/posttraining/settings.py REFERENCE_FREE)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QWidget

from engine import Scenario, model_presets
from engine.frameworks import TABLE
from engine.posttraining.settings import ONLINE_OBJECTIVES, POLICY_GRADIENT, REFERENCE_FREE, rollout_engine_for

from .choices import choice_items, declared_count_range, declared_range
from .widgets import ValueCombo, committed_spin, set_form_tooltips, show_value


def rows_for(s: Scenario) -> set[str]:
    """The keys whose rows the objective of `s` uses (sft: none; seq_len is shown only then)."""
    objective = s.training_objective
    if objective == "sft":
        return {"seq_len"}
    keys = {"prompt_len", "completion_len"}
    if objective not in REFERENCE_FREE:
        keys.add("reference_model")
    if objective in ONLINE_OBJECTIVES:
        keys |= {"num_generations", "max_completion_len", "reward_model", "rollout_engine"}
        if s.rollout_engine != "none":
            keys |= {"rollout_placement", "rollout_tp", "rollout_gpu_memory_utilization", "rollout_sleep",
                     "rollout_kv_cache_dtype", "rollout_max_num_seqs"}
            if s.rollout_placement == "separate":
                keys.add("rollout_gpus")
            # the newer rows follow the engine that runs (auto resolved as engine/posttraining/settings.py
            # rollout_engine_for): the longest request counts for vLLM and SGLang, the release for vLLM only
            # (applies_to "rollout_engine vllm"); a value set elsewhere stays visible, so it can be seen and reset
            engine = rollout_engine_for(s)
            if engine != "none" or s.rollout_max_model_len is not None:
                keys.add("rollout_max_model_len")
            if engine == "vllm" or s.rollout_engine_release != "latest":
                keys.add("rollout_engine_release")
            # the engine's loop (engine/posttraining/settings.py): CUDA graphs wherever an engine runs; AsyncLLM where
            # the framework runs vLLM in its own process (NeMo-RL); a value set elsewhere stays visible (imported
            # configs set them: OpenRLHF's enforce_eager, NeMo-RL's async_engine, user audit 7)
            if engine != "none" or s.rollout_enforce_eager != "auto":
                keys.add("rollout_enforce_eager")
            if TABLE[s.framework].posttraining.rollout_engine_in_process or s.rollout_async_engine != "auto":
                keys.add("rollout_async_engine")
    if objective in ONLINE_OBJECTIVES:
        keys.add("prompt_len_mean")  # the prompts' mean without their padding (verl's left padding stripped)
    if objective == "ppo":
        keys.add("critic_model")
        # the critic's own offload and layout (verl's critic.model.*) matter only where there is a critic
        keys |= {k for k in ("critic_offload", "critic_packing") if s.critic_model is not None or getattr(s, k) != "auto"}
    # the bonus costs memory only where the framework's update computes it (engine/frameworks/posttraining.py
    # update_entropy); a value set elsewhere stays visible, so it can be seen and reset
    if objective in POLICY_GRADIENT and (TABLE[s.framework].posttraining.update_entropy != "none"
                                         or s.entropy_coeff != 0):
        keys.add("entropy_coeff")
    # the NLL term costs memory only where the framework computes it from the logits (engine/frameworks/
    # posttraining.py chosen_nll_from_logits); a value set elsewhere stays visible
    if objective in TABLE[s.framework].posttraining.chosen_nll_from_logits or s.rpo_alpha != 0:
        keys.add("rpo_alpha")
    return keys


class RLRows(QObject):
    """The objective combo and the post-training rows below it, shown as `rows_for` says."""

    def __init__(self, form: QFormLayout, edit: Callable[[dict[str, Any]], None], seq_len: QWidget, after: QWidget,
                 parent: QObject | None = None) -> None:
        """Rows go right below `after`'s row (gradient accumulation: the rows above it must show without scrolling
        on a 1280x720 screen, tests/test_gui_small_screens.py)."""
        super().__init__(parent)
        self._form = form
        row = form.getWidgetPosition(after)[0] + 1
        self.objective = ValueCombo(choice_items("training_objective", {
            "sft": self.tr("Pre-training or supervised fine-tuning (SFT)"),  # a pre-training plan read "fine-tuning"
            "dpo": self.tr("Preference pairs: DPO"),
            "ipo": self.tr("Preference pairs: IPO"),
            "kto": self.tr("Liked / disliked answers: KTO"),
            "orpo": self.tr("Preference pairs, no reference: ORPO"),
            "simpo": self.tr("Preference pairs, no reference: SimPO"),
            "cpo": self.tr("Preference pairs, no reference: CPO"),
            "reward": self.tr("Train a reward model on pairs"),
            "ppo": self.tr("Reinforcement learning: PPO (with a critic)"),
            "grpo": self.tr("Reinforcement learning: GRPO (groups of completions)"),
            "rloo": self.tr("Reinforcement learning: RLOO"),
            "online-dpo": self.tr("Online DPO (generated pairs)"),
        }))
        form.insertRow(row, self.tr("Objective (training objective)"), self.objective)
        self.reference = ValueCombo(choice_items("reference_model", {
            "auto": self.tr("as the objective and framework do it (auto)"),
            "separate": self.tr("a frozen copy on the GPU (separate)"),
            "adapter-off": self.tr("the base with adapters switched off (LoRA)"),
            "precomputed": self.tr("log-probs computed before training (precomputed)"),
            "none": self.tr("none"),
        }))
        self.prompt_len = committed_spin(1, 10_000_000)
        self.completion_len = committed_spin(1, 10_000_000)
        self.num_generations = committed_spin(1, 100_000)
        # 0 stands for null: every completion as long as completion_len (the special text shows it)
        self.max_completion_len = committed_spin(0, int(declared_count_range("max_completion_len")[1]))
        self.reward_model = ValueCombo()
        self.critic_model = ValueCombo()
        self.critic_offload = ValueCombo(choice_items("critic_offload", {
            "auto": self.tr("as the policy's offload (auto)"), "none": self.tr("none"),
            "optimizer": self.tr("optimizer states"), "optimizer+params": self.tr("optimizer states and weights")}))
        self.critic_packing = ValueCombo(choice_items("critic_packing", {
            "auto": self.tr("as the policy's packing (auto)"),
            "none": self.tr("padded to the batch's longest (none)"),
            "padding-free": self.tr("each sequence at its own length (padding-free)")}))
        # 0 stands for null: the prompts are prompt_len long (the special text shows it)
        self.prompt_len_mean = committed_spin(0, int(declared_count_range("prompt_len_mean")[1]))
        self.entropy_coeff = QDoubleSpinBox()
        self.entropy_coeff.setRange(*declared_range("entropy_coeff"))
        self.entropy_coeff.setDecimals(4)
        self.entropy_coeff.setSingleStep(0.001)  # published verl runs use 0.001 (the MATH rows' logs)
        self.entropy_coeff.setKeyboardTracking(False)
        self.entropy_coeff.setSpecialValueText(self.tr("no entropy bonus (0)"))
        self.rpo_alpha = QDoubleSpinBox()
        self.rpo_alpha.setRange(*declared_range("rpo_alpha"))
        self.rpo_alpha.setDecimals(3)
        self.rpo_alpha.setSingleStep(0.1)
        self.rpo_alpha.setKeyboardTracking(False)
        self.rpo_alpha.setSpecialValueText(self.tr("no NLL term (0)"))
        self.rollout_engine = ValueCombo(choice_items("rollout_engine", {
            "auto": self.tr("the framework's default (auto)"),
            "vllm": "vLLM",
            "sglang": "SGLang",
            "none": self.tr("the trainer's own generate (none)"),
        }))
        self.utilization = QDoubleSpinBox()
        self.utilization.setRange(*declared_range("rollout_gpu_memory_utilization"))  # 0 shows auto
        self.utilization.setSingleStep(0.05)
        self.utilization.setDecimals(2)
        self.utilization.setKeyboardTracking(False)
        self.utilization.setSpecialValueText(self.tr("the framework's default (auto)"))  # 0 stands for "auto"
        self.sleep = ValueCombo(choice_items("rollout_sleep", {
            "auto": self.tr("the framework's default (auto)"),
            "none": self.tr("stays resident (none)"),
            "level-1": self.tr("weights to CPU memory, KV cache freed (level 1)"),
            "level-2": self.tr("weights and KV cache freed (level 2)"),
        }))
        self.placement = ValueCombo(choice_items("rollout_placement", {
            "colocate": self.tr("on the training GPUs (colocate)"),
            "separate": self.tr("on GPUs of its own (separate)"),
        }))
        self.rollout_gpus = committed_spin(1, 1_000_000)
        self.rollout_tp = committed_spin(1, 4096)
        self.kv_dtype = ValueCombo(choice_items("rollout_kv_cache_dtype", {
            "auto": self.tr("the model's number format (auto)"), "bf16": self.tr("bf16: 2 bytes a value"),
            "fp16": self.tr("fp16: 2 bytes a value"), "fp8": self.tr("fp8: 1 byte a value, twice the tokens")}))
        self.max_num_seqs = committed_spin(1, 1_000_000)
        # 0 stands for null: prompt_len + completion_len, as verl passes it (the special text shows that sum)
        self.max_model_len = committed_spin(0, int(declared_count_range("rollout_max_model_len")[1]))
        self.release = ValueCombo(choice_items("rollout_engine_release", {
            "latest": self.tr("the newest vLLM (latest)"),
            "vllm-0.8-v0": self.tr("vLLM 0.8, V0 engine"),
            "vllm-0.8-v1": self.tr("vLLM 0.8, V1 engine"),
        }))
        self.enforce_eager = ValueCombo(choice_items("rollout_enforce_eager", {
            "auto": self.tr("the framework's default (auto)"), False: self.tr("captures CUDA graphs"),
            True: self.tr("no CUDA graphs (enforce_eager)")}))
        self.async_engine = ValueCombo(choice_items("rollout_async_engine", {
            "auto": self.tr("the framework's default (auto)"), False: self.tr("in the trainer's process (vllm.LLM)"),
            True: self.tr("a process of its own (AsyncLLM)")}))
        self.seq_len = seq_len
        self._shown: set[str] | None = None
        self.widgets: dict[str, QWidget] = {
            "reference_model": self.reference, "prompt_len": self.prompt_len, "prompt_len_mean": self.prompt_len_mean,
            "completion_len": self.completion_len,
            "max_completion_len": self.max_completion_len, "num_generations": self.num_generations,
            "reward_model": self.reward_model,
            "critic_model": self.critic_model, "critic_offload": self.critic_offload,
            "critic_packing": self.critic_packing, "entropy_coeff": self.entropy_coeff, "rpo_alpha": self.rpo_alpha,
            "rollout_engine": self.rollout_engine,
            "rollout_gpu_memory_utilization": self.utilization, "rollout_sleep": self.sleep,
            "rollout_placement": self.placement, "rollout_gpus": self.rollout_gpus, "rollout_tp": self.rollout_tp,
            "rollout_kv_cache_dtype": self.kv_dtype, "rollout_max_num_seqs": self.max_num_seqs,
            "rollout_max_model_len": self.max_model_len, "rollout_engine_release": self.release,
            "rollout_enforce_eager": self.enforce_eager, "rollout_async_engine": self.async_engine,
        }
        labels = {
            "reference_model": self.tr("Reference (reference model)"),
            "prompt_len": self.tr("Tokens per prompt (prompt length)"),
            "prompt_len_mean": self.tr("Mean prompt without padding (prompt_len_mean)"),
            "completion_len": self.tr("Tokens per completion (completion length)"),
            "max_completion_len": self.tr("Longest completion (max_completion_len)"),
            "num_generations": self.tr("Completions per prompt (generations)"),
            "reward_model": self.tr("Reward model"),
            "critic_model": self.tr("Critic (value model)"),
            "critic_offload": self.tr("Critic offloaded to CPU memory (critic_offload)"),
            "critic_packing": self.tr("Critic's sequences (critic_packing)"),
            "entropy_coeff": self.tr("Entropy bonus weight (entropy_coeff)"),
            "rpo_alpha": self.tr("Chosen answers' NLL weight (rpo_alpha)"),
            "rollout_engine": self.tr("Generation engine (rollout engine)"),
            "rollout_gpu_memory_utilization": self.tr("Engine's share of each GPU (gpu_memory_utilization)"),
            "rollout_sleep": self.tr("Engine while training (sleep mode)"),
            "rollout_placement": self.tr("Engine placement"),
            "rollout_gpus": self.tr("GPUs of the engine (rollout GPUs)"),
            "rollout_tp": self.tr("Engine tensor parallel (rollout TP)"),
            "rollout_kv_cache_dtype": self.tr("Engine KV cache format"),
            "rollout_max_num_seqs": self.tr("Sequences generated at once (max_num_seqs)"),
            "rollout_max_model_len": self.tr("Longest request (max_model_len)"),
            "rollout_engine_release": self.tr("vLLM release (start-up accounting)"),
            "rollout_enforce_eager": self.tr("Engine without CUDA graphs (enforce_eager)"),
            "rollout_async_engine": self.tr("Engine as vLLM's AsyncLLM (async_engine)"),
        }
        for offset, (key, widget) in enumerate(self.widgets.items(), start=1):
            form.insertRow(row + offset, labels[key], widget)
        self._set_tooltips()
        self._connect(edit)

    def _set_tooltips(self) -> None:
        tips = {
            self.objective: self.tr("What the step optimises. Preference objectives run a chosen and a rejected "
                                    "answer through the model; reinforcement learning also generates completions "
                                    "every step, usually with a generation engine (vLLM) sharing the GPUs."),
            self.reference: self.tr("The frozen model the loss compares against. A separate copy costs a second set "
                                    "of weights; with LoRA the base with adapters off costs nothing extra; "
                                    "precomputed log-probs cost one pass over the data before training."),
            self.prompt_len: self.tr("Tokens in each prompt. With the completion they make each sequence."),
            self.completion_len: self.tr("Tokens in each completion (generated, or stored for preference data). "
                                         "The engine's KV cache and the log-prob tensors grow with it."),
            self.max_completion_len: self.tr("Tokens of the longest completion a step generates (verl "
                                             "data.max_response_length, TRL max_completion_length). The engine "
                                             "decodes until the batch's longest completion ends, one token an "
                                             "iteration; the tokens generated and trained on follow the completion "
                                             "length, which is then the mean. Unset, every completion is as long as "
                                             "the completion length."),
            self.num_generations: self.tr("Completions generated for each prompt (GRPO's group size). More "
                                          "completions: more sequences to generate, score and train on."),
            self.reward_model: self.tr("What scores the completions: rule or verifier rewards need no model; a "
                                       "reward model adds its weights and a forward pass over every completion."),
            self.critic_model: self.tr("PPO's value model: its weights, gradients and optimizer states sit beside "
                                       "the policy's."),
            self.critic_offload: self.tr("What of the critic goes to CPU memory between its uses (verl "
                                         "critic.model.fsdp_config param_offload / optimizer_offload), when it is "
                                         "set apart from the policy's offload."),
            self.critic_packing: self.tr("How the critic lays out its sequences (verl critic.model."
                                         "use_remove_padding, off by default): padded, every sequence is as long as "
                                         "the batch's longest prompt plus completion; padding-free, each runs at its "
                                         "own length, which costs less memory and time."),
            self.prompt_len_mean: self.tr("Tokens of the average prompt before padding, where the prompt length is "
                                          "the cap every prompt is padded to (verl data.max_prompt_length). The "
                                          "engine generates after the real prompt, and padding-free passes run "
                                          "its real tokens. Unset, every prompt is as long as the prompt length."),
            self.entropy_coeff: self.tr("Weight of the entropy bonus in the policy loss (verl actor.entropy_coeff). "
                                        "Any value but 0 makes verl's update compute every token's entropy over "
                                        "the vocabulary with gradients: one more fp32 buffer the size of the "
                                        "logits (tokens × vocabulary × 4 bytes) in the forward and one more "
                                        "logits-sized gradient in the backward. How large the weight is does not "
                                        "change the memory."),
            self.rpo_alpha: self.tr("Weight of the chosen answers' negative log-likelihood added to the preference "
                                    "loss (TRL's rpo_alpha; CPO/SimPO's cpo_alpha, 1.0 by default). Where the "
                                    "framework computes it from the logits, the step keeps a second log-softmax "
                                    "of the chosen half (half the logits' size) until the backward pass, which "
                                    "then holds one more logits-sized gradient. How large the weight is does not "
                                    "change the memory."),
            self.rollout_engine: self.tr("What generates the completions. vLLM and SGLang keep their own copy of "
                                         "the weights and a KV cache; the trainer's own generate is much slower."),
            self.utilization: self.tr("The share of each GPU's memory the engine may take for its weights, "
                                      "activations and KV cache (vLLM's gpu_memory_utilization). Colocated with "
                                      "training, whatever it takes is missing for the training step."),
            self.sleep: self.tr("Whether the engine gives its memory back while the model trains (vLLM sleep "
                                "mode): level 1 moves its weights to CPU memory and frees the KV cache; level 2 "
                                "frees both. Waking it costs a little time every step."),
            self.placement: self.tr("Colocated, the engine shares the training GPUs; on GPUs of its own it needs "
                                    "more GPUs but leaves the training GPUs alone."),
            self.rollout_gpus: self.tr("How many GPUs run the engine when it has GPUs of its own."),
            self.rollout_tp: self.tr("Split the engine's weights over this many GPUs."),
            self.kv_dtype: self.tr("Number format of the engine's KV cache: fp8 holds twice the tokens of bf16."),
            self.max_num_seqs: self.tr("The most sequences the engine decodes at once (vLLM max_num_seqs)."),
            self.max_model_len: self.tr("The longest request, prompt and completion together, the engine accepts "
                                        "(vLLM max_model_len; verl rollout.max_model_len). vLLM refuses to start "
                                        "when its KV cache cannot hold one request this long, and counts how many "
                                        "requests fit in the cache at once at this length; the engine still takes "
                                        "its whole share of the GPU. Unset, it is the prompt plus the completion, "
                                        "as verl passes it."),
            self.release: self.tr("Which vLLM release's start-up arithmetic sizes the KV cache. The newest vLLM "
                                  "and vLLM 0.8's V0 engine take from the engine's share only what the engine uses "
                                  "itself: its weights, the peak of its trial forward pass and a little non-torch "
                                  "memory. vLLM 0.8's V1 engine also takes what is already on the GPU, a colocated "
                                  "trainer's weights and the CUDA context, so its KV cache is smaller."),
            self.enforce_eager: self.tr("Whether the engine decodes without CUDA graphs (vLLM enforce_eager, "
                                        "SGLang --disable-cuda-graph): no graph memory beside its share, but every "
                                        "decode step launches its kernels one by one, slower for small batches."),
            self.async_engine: self.tr("Whether vLLM runs as its AsyncLLM (NeMo-RL vllm_cfg.async_engine): its "
                                       "engine core is then a process of its own, so turning the last step's "
                                       "output into tokens overlaps the next decode step instead of adding to it."),
        }
        set_form_tooltips(self._form, tips)

    def _connect(self, edit: Callable[[dict[str, Any]], None]) -> None:
        for key, combo in (("training_objective", self.objective), ("reference_model", self.reference),
                           ("reward_model", self.reward_model), ("critic_model", self.critic_model),
                           ("critic_offload", self.critic_offload), ("critic_packing", self.critic_packing),
                           ("rollout_engine", self.rollout_engine), ("rollout_sleep", self.sleep),
                           ("rollout_kv_cache_dtype", self.kv_dtype), ("rollout_engine_release", self.release),
                           ("rollout_enforce_eager", self.enforce_eager), ("rollout_async_engine", self.async_engine)):
            combo.valueChosen.connect(lambda v, k=key: edit({k: v}))
        self.placement.valueChosen.connect(self._placement_chosen(edit))
        for key, spin in (("prompt_len", self.prompt_len), ("completion_len", self.completion_len),
                          ("num_generations", self.num_generations), ("rollout_gpus", self.rollout_gpus),
                          ("rollout_tp", self.rollout_tp), ("rollout_max_num_seqs", self.max_num_seqs)):
            spin.valueChanged.connect(lambda v, k=key: edit({k: v}))
        self.utilization.valueChanged.connect(
            lambda v: edit({"rollout_gpu_memory_utilization": "auto" if v <= 0 else round(v, 2)}))
        self.entropy_coeff.valueChanged.connect(lambda v: edit({"entropy_coeff": round(v, 4)}))
        self.rpo_alpha.valueChanged.connect(lambda v: edit({"rpo_alpha": round(v, 3)}))
        self.max_model_len.valueChanged.connect(lambda v: edit({"rollout_max_model_len": v or None}))
        self.max_completion_len.valueChanged.connect(lambda v: edit({"max_completion_len": v or None}))
        self.prompt_len_mean.valueChanged.connect(lambda v: edit({"prompt_len_mean": v or None}))

    def _placement_chosen(self, edit: Callable[[dict[str, Any]], None]) -> Callable[[str], None]:
        def chosen(value: str) -> None:
            # rollout GPUs of its own need a count (engine/scenario/posttraining_checks.py): one node's worth
            changes: dict[str, Any] = {"rollout_placement": value}
            if value == "separate" and self.rollout_gpus.value() < 1:
                changes["rollout_gpus"] = 1
            elif value == "separate":
                changes["rollout_gpus"] = self.rollout_gpus.value()
            edit(changes)
        return chosen

    def combos(self) -> dict[str, ValueCombo]:
        """key -> combo, for the undo entry's words."""
        return {"training_objective": self.objective, "reference_model": self.reference,
                "reward_model": self.reward_model, "critic_model": self.critic_model,
                "critic_offload": self.critic_offload, "critic_packing": self.critic_packing,
                "rollout_engine": self.rollout_engine, "rollout_sleep": self.sleep,
                "rollout_placement": self.placement, "rollout_kv_cache_dtype": self.kv_dtype,
                "rollout_engine_release": self.release, "rollout_enforce_eager": self.enforce_eager,
                "rollout_async_engine": self.async_engine}

    def show(self, s: Scenario) -> None:
        """The values of `s`, and only the rows its objective uses."""
        self._model_items(self.reward_model, s.reward_model, s, [(None, self.tr("rule or verifier rewards (none)"))])
        self._model_items(self.critic_model, s.critic_model, s, [(None, self.tr("none")),
                                                                 ("same", self.tr("a copy of the policy (same)"))])
        for combo, value in ((self.objective, s.training_objective), (self.reference, s.reference_model),
                             (self.rollout_engine, s.rollout_engine), (self.sleep, s.rollout_sleep),
                             (self.placement, s.rollout_placement), (self.kv_dtype, s.rollout_kv_cache_dtype),
                             (self.release, s.rollout_engine_release), (self.enforce_eager, s.rollout_enforce_eager),
                             (self.async_engine, s.rollout_async_engine), (self.critic_offload, s.critic_offload),
                             (self.critic_packing, s.critic_packing)):
            combo.set_value(value)
        utilization = 0.0 if s.rollout_gpu_memory_utilization == "auto" else float(s.rollout_gpu_memory_utilization)
        for spin, value in ((self.prompt_len, s.prompt_len), (self.completion_len, s.completion_len),
                            (self.num_generations, s.num_generations), (self.rollout_gpus, s.rollout_gpus or 1),
                            (self.rollout_tp, s.rollout_tp), (self.max_num_seqs, s.rollout_max_num_seqs),
                            (self.utilization, utilization), (self.entropy_coeff, s.entropy_coeff),
                            (self.rpo_alpha, s.rpo_alpha),
                            (self.max_model_len, s.rollout_max_model_len or 0),
                            (self.max_completion_len, s.max_completion_len or 0)):
            show_value(spin, value)
        unset = self.tr("prompt + completion (%1)").replace("%1", f"{s.prompt_len + s.completion_len:,}")
        if self.max_model_len.specialValueText() != unset:  # a new text lays the form out again: only on a change
            self.max_model_len.setSpecialValueText(unset)
        self.prompt_len_mean.blockSignals(True)  # the mean cannot pass the cap (posttraining_checks.py)
        self.prompt_len_mean.setMaximum(s.prompt_len)
        self.prompt_len_mean.blockSignals(False)
        show_value(self.prompt_len_mean, s.prompt_len_mean or 0)
        padded = self.tr("as prompt (%1)").replace("%1", f"{s.prompt_len:,}")
        if self.prompt_len_mean.specialValueText() != padded:
            self.prompt_len_mean.setSpecialValueText(padded)
        every = self.tr("as completion (%1)").replace("%1", f"{s.completion_len:,}")
        if self.max_completion_len.specialValueText() != every:
            self.max_completion_len.setSpecialValueText(every)
        shown = rows_for(s)
        if shown != self._shown:  # showing or hiding a row lays the form out again: only on a change
            self._shown = shown
            for key, widget in self.widgets.items():
                self._form.setRowVisible(widget, key in shown)
            self._form.setRowVisible(self.seq_len, "seq_len" in shown)

    def _model_items(self, combo: ValueCombo, value: Any, s: Scenario, first: list[tuple[Any, str]]) -> None:
        """The choices of a model key: none (and "same"), the policy's own preset, every preset, and the scenario's
        value when it is a model written inline (shown by its name, kept as it is)."""
        presets = model_presets()
        items = list(first) + [(key, spec.name) for key, spec in presets.items()]
        if value is not None and not (isinstance(value, str) and (value == "same" or value in presets)):
            items.insert(len(first), (value, getattr(value, "name", str(value))))
        if items != getattr(combo, "_items_shown", None):  # rebuilding a 70-item combo is slow: only on a change
            combo._items_shown = items
            combo.set_items(items)
        combo.set_value(value)
