"""Trace the scoring and training phases of DPO, KTO, GRPO and PPO steps on the fake CPU device (issue 22).

Each case builds the policy (and, as the objective needs, a reference model and a critic) like validation/measure.py,
then runs one post-training step twice with PhaseMemTracker and records the second (optimizer states alive):

* TRL (trl 1.16.0, installed, its own code called): ``DPOTrainer._compute_loss`` (trl/trainer/dpo_trainer.py): the
  chosen and rejected sequences concatenated into one batch of 2 x pairs, the policy forward, then under no_grad
  the reference forward (a separate frozen copy, or the policy with its LoRA adapters disabled via
  ``trl.trainer.utils.use_adapter``; none when the reference log-probs were precomputed), sigmoid loss, backward,
  AdamW fused (transformers' default ``adamw_torch_fused``). ``KTOTrainer._compute_loss`` (kto_trainer.py): the
  policy's no-grad pass over the KL batch (the completions cycled by one within the batch), the policy's forward,
  the reference's KL and matched passes under no_grad, the KTO loss. ``GRPOTrainer`` (trl/trainer/grpo_trainer.py):
  ``_generate_and_score_completions`` scores the generation batch without gradients (the old policy when a vLLM
  engine generated it, the reference when beta != 0), then ``_compute_loss`` runs the policy forward with entropy,
  the clipped ratio loss with advantages and the k3 KL term, backward, optimizer. The log-probs come from TRL's fused
  LM head (``trl.trainer.utils.add_fused_lm_head``: tiles of 4,096 tokens x 32,768 vocabulary entries) or, for the
  ``full-logits`` cases, from the full logits and ``trl.trainer.utils.selective_log_softmax`` as TRL computed them
  before the fused head (the trainers' lines at huggingface/trl f2cd577, 2026-07-24: see ``_trl_logps``). On CUDA
  the fused head's tile folds are Triton kernels and its fp32 accumulation is ``torch.addmm(..., out_dtype=float32,
  out=acc)``: both write into buffers the function allocated. The CPU fallbacks (``_forward_tile``,
  ``_backward_tile``, ``_addmm_fp32``) allocate fp32 copies of every tile instead, so they are replaced here by
  functions that allocate nothing (what the CUDA path does); every buffer TRL allocates is still traced.
* verl (validation/verl_losses.py, copied from verl commit b178a3c): ``compute_log_prob`` / ``compute_ref_log_prob``
  / ``compute_values`` under no_grad over micro-batches, then the critic update (PPO) and the actor update with the
  vanilla clipped loss, low-variance KL loss (GRPO) and token-mean aggregation, AdamW (foreach). The actor and the
  critic are fp32 models computing under bf16 autocast (verl's FSDP workers load them in fp32 and compute in bf16),
  the reference is a bf16 model (fsdp_workers.py: actor fp32, others bf16). ``flash-ce`` cases use flash-attn's
  cross-entropy (its allocations), ``torch`` cases verl's fallback ``logprobs_from_logits_v2``.

The generation engine (vLLM/SGLang) is not traced: cases that use one say ``rollout_placement: separate`` (the engine
on other GPUs) or ``rollout_sleep`` that frees it, so the traced GPU holds the training side only.

Each case goes to tests/data/ground_truth/posttraining/<id>.json with the scenario in the issue's key names, the
measured peak of every phase and the versions used.

    /work/valenv/bin/python -m validation.posttraining_traces [--only PATTERN] [--force] [--list]
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import gc
import json
import sys
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation import verl_losses as vl  # noqa: E402
from validation.measure import build_model, versions  # noqa: E402
from validation.posttraining_cases import CASES, Case  # noqa: E402
from validation.scenarios import make_run  # noqa: E402
from validation.tracker import PhaseMemTracker, patch_transformers_tracing, swappable_fake_params  # noqa: E402

OUT = ROOT / "tests" / "data" / "ground_truth" / "posttraining"
TRAINING_PHASES = ("critic_forward", "critic_backward", "critic_optimizer", "forward", "backward", "optimizer")


class RLTracker(PhaseMemTracker):
    """PhaseMemTracker that lets a root module run several forwards in one step (the policy scores, then trains;
    TRL's adapter-off reference is the policy itself): upstream MemTracker takes a second root call for the next
    iteration and refuses it. Only its per-module statistics are restarted; the phase peaks are unaffected."""

    def _pre_fw_hook(self, module: torch.nn.Module, inputs: Any) -> None:
        if module in self.memory_tracking and not self._mod_tracker.is_bw:
            name = self._mod_tracker.get_known_fqn(module)
            if set(self._mod_tracker.parents) - {name} == {"Global"}:
                del self.memory_tracking[module]
        super()._pre_fw_hook(module, inputs)


def _cuda_like_fused_head() -> None:
    """Make TRL's fused LM head allocate on the CPU what it allocates on CUDA (see the module docstring)."""
    import trl.kernels.chunked_logprob as ck

    def no_alloc(*args: Any, **kwargs: Any) -> None:
        return None

    ck._forward_tile = no_alloc
    ck._backward_tile = no_alloc
    ck._addmm_fp32 = no_alloc


def _prepare_with_accelerate(m: dict[str, Any]) -> None:
    """What the HF Trainer and TRL do to the models outside DeepSpeed with bf16=True: Trainer._inner_training_loop
    accelerator.prepare(model), and dpo_trainer.py / kto_trainer.py accelerator.prepare_model(self.ref_model,
    evaluation_mode=True) (trl v0.17.0 dpo_trainer.py:517, f2cd577 :936). accelerate's own prepare_model (1.16.0, CPU:
    native amp for bf16) wraps each forward in convert_outputs_to_fp32(autocast(forward)) in place."""
    from accelerate import Accelerator

    acc = Accelerator(cpu=True, mixed_precision="bf16")
    acc.prepare_model(m["policy"], device_placement=False)
    if "ref" in m:
        acc.prepare_model(m["ref"], device_placement=False, evaluation_mode=True)


def _build(case: Case, fake: FakeTensorMode) -> dict[str, Any]:
    precision = "amp-bf16" if case.framework == "verl" else "bf16"
    run = make_run(case.model_key, precision, method=case.method, lora_rank=16, lora_targets="all-linear",
                   b=case.sequences_per_pass, s=case.prompt_len + case.completion_len, checkpointing=case.checkpointing)
    models: dict[str, Any] = {"run": run, "policy": build_model(run, fake)}
    if case.reference == "separate":
        ref_run = make_run(case.model_key, "bf16", b=case.sequences_per_pass, s=run.seq_len)
        models["ref"] = build_model(ref_run, fake).eval().requires_grad_(False)
    if case.critic:
        models["critic"] = _critic(run, fake)
    return models


def _critic(run: Any, fake: FakeTensorMode) -> Any:
    """verl's critic: AutoModelForTokenClassification with num_labels=1, fp32 (fsdp_workers.py _build_critic_model)."""
    from transformers import AutoConfig, AutoModelForTokenClassification

    cfg_dict = dict(run.hf_config)
    model_type = cfg_dict.pop("model_type")
    cfg = AutoConfig.for_model(model_type, **cfg_dict)
    cfg.num_labels = 1
    cfg.classifier_dropout = 0.0
    with fake, swappable_fake_params(fake):
        critic = AutoModelForTokenClassification.from_config(cfg, attn_implementation="sdpa", dtype=torch.float32)
        critic.train()
    return critic


def _optimizer(module: Any, fused: bool) -> torch.optim.Optimizer:
    params = [p for p in module.parameters() if p.requires_grad]
    return torch.optim.AdamW(params, lr=1e-6, fused=True) if fused else torch.optim.AdamW(params, lr=1e-6,
                                                                                          foreach=True)


def _trl_logps(model: Any, ids: torch.Tensor, mask: torch.Tensor, completion_len: int, fused: bool,
               entropy: bool = False, keep_all: bool = False) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Per-token log-probs of the completion tokens, as TRL 1.16 (fused head) or TRL before it (full logits, as
    huggingface/trl f2cd577 (2026-07-24) computes them: dpo_trainer.py scores every position's logits with
    selective_log_softmax; grpo_trainer.py _get_per_token_logps_and_entropies asks for logits_to_keep = completion + 1,
    divides them by the temperature in place and computes the entropy without gradients unless the entropy bonus is
    on)."""
    from trl.trainer.utils import selective_log_softmax

    if fused:
        labels = ids.masked_fill(mask == 0, -100)
        labels[:, :-completion_len] = -100
        out = model(input_ids=ids, attention_mask=mask, labels=labels, fused_lm_head=True)
        ent = out.entropy[:, -completion_len:] if entropy else None
        return out.log_probs[:, -completion_len:], ent
    keep = 0 if keep_all else completion_len + 1
    logits = model(input_ids=ids, attention_mask=mask, logits_to_keep=keep, use_cache=False).logits
    logits = logits[:, :-1, :]
    if keep_all:  # DPO: every position is scored, the loss mask keeps the completion
        return selective_log_softmax(logits, ids[:, 1:])[:, -completion_len:], None
    logits = logits[:, -completion_len:, :]
    logits.div_(1.0)  # logits.div_(self.temperature): in place
    logps = selective_log_softmax(logits, ids[:, -completion_len:])
    ent = None
    if entropy:  # the entropy bonus is off by default: entropies only feed logging and the entropy mask
        from trl.trainer.utils import entropy_from_logits
        with torch.no_grad():
            ent = entropy_from_logits(logits)
    return logps, ent


def _ref_context(case: Case, policy: Any) -> Any:
    if case.reference == "adapter-off":
        from trl.trainer.utils import use_adapter
        return use_adapter(policy, adapter_name=None)
    return contextlib.nullcontext()


def _step_trl_dpo(case: Case, m: dict[str, Any], mt: PhaseMemTracker, batch: dict[str, torch.Tensor]) -> None:
    policy, ids, mask = m["policy"], batch["ids"], batch["mask"]
    fused = case.logprob == "fused"
    mt.reset_phase("forward")
    logps, _ = _trl_logps(policy, ids, mask, case.completion_len, fused, keep_all=True)
    chosen, rejected = logps.sum(dim=1).chunk(2, dim=0)
    del logps
    if case.reference == "precomputed":
        ref_chosen, ref_rejected = batch["ref_chosen"], batch["ref_rejected"]
    else:
        with torch.no_grad(), _ref_context(case, policy):
            ref_logps, _ = _trl_logps(m.get("ref", policy), ids, mask, case.completion_len, fused, keep_all=True)
        ref_chosen, ref_rejected = ref_logps.sum(dim=1).chunk(2, dim=0)
        del ref_logps
    delta = (chosen - ref_chosen) - (rejected - ref_rejected)
    loss = (-F.logsigmoid(0.1 * delta)).mean()
    del chosen, rejected, ref_chosen, ref_rejected, delta
    _backward_and_step(mt, loss, m["opt"])


def _step_trl_kto(case: Case, m: dict[str, Any], mt: PhaseMemTracker, batch: dict[str, torch.Tensor]) -> None:
    """trl 1.16.0 trainer/kto_trainer.py _compute_loss (loss_type "kto", so calculate_kl): the policy's log-probs of
    the KL (mismatched prompt/completion) batch under no_grad (_compute_kl_logps), the policy's forward, then under
    no_grad the reference's KL and matched forwards (precomputed: both read from the batch), the loss with the
    desirable first half and the undesirable second half of the batch (a fixed split: the labels only select rows)."""
    policy, ids, kl_ids, mask, c = m["policy"], batch["ids"], batch["kl_ids"], batch["mask"], case.completion_len
    fused, n = case.logprob == "fused", case.sequences_per_pass
    mt.reset_phase("scoring")
    with torch.no_grad():
        kl_logps, _ = _trl_logps(policy, kl_ids, mask, c, fused, keep_all=True)
    kl_sum = kl_logps.sum(-1)
    del kl_logps
    mt.reset_phase("forward")
    logps, _ = _trl_logps(policy, ids, mask, c, fused, keep_all=True)
    completion = logps.sum(-1)
    del logps
    if case.reference == "precomputed":
        ref_kl, ref_completion = batch["ref_kl"], batch["ref_logps"]
    else:
        with torch.no_grad(), _ref_context(case, policy):
            ref_model = m.get("ref", policy)
            r, _ = _trl_logps(ref_model, kl_ids, mask, c, fused, keep_all=True)
            ref_kl = r.sum(-1)
            del r
            r, _ = _trl_logps(ref_model, ids, mask, c, fused, keep_all=True)
            ref_completion = r.sum(-1)
            del r
    kl = (kl_sum - ref_kl).mean().detach().clamp(min=0)
    half = n // 2
    chosen = completion[:half] - ref_completion[:half]
    rejected = completion[half:] - ref_completion[half:]
    losses = torch.cat((1 - torch.sigmoid(0.1 * (chosen - kl)), 1 - torch.sigmoid(0.1 * (kl - rejected))))
    loss = losses.mean()
    del kl_sum, completion, ref_kl, ref_completion, chosen, rejected, losses
    _backward_and_step(mt, loss, m["opt"])


def _step_trl_grpo(case: Case, m: dict[str, Any], mt: PhaseMemTracker, batch: dict[str, torch.Tensor]) -> None:
    policy, ids, mask, c = m["policy"], batch["ids"], batch["mask"], case.completion_len
    fused = case.logprob == "fused"
    mt.reset_phase("scoring")
    old = ref = None
    with torch.no_grad():
        if case.rollout_engine != "none":  # TRL always scores the old policy when vLLM generated the batch
            old, _ = _trl_logps(policy, ids, mask, c, fused)
        if case.reference != "none":
            with _ref_context(case, policy):
                ref, _ = _trl_logps(m.get("ref", policy), ids, mask, c, fused)
    mt.reset_phase("forward")
    logps, entropy = _trl_logps(policy, ids, mask, c, fused, entropy=True)
    old = logps.detach() if old is None else old
    coef_1 = torch.exp(logps - old)
    coef_2 = torch.clamp(coef_1, 1 - 0.2, 1 + 0.2)
    adv = batch["advantages"].unsqueeze(1)
    per_token_loss = -torch.min(coef_1 * adv, coef_2 * adv)
    if ref is not None:
        per_token_kl = torch.exp(ref - logps) - (ref - logps) - 1
        per_token_loss = per_token_loss + 0.04 * per_token_kl
    cmask = batch["completion_mask"]
    loss = ((per_token_loss * cmask).sum(-1) / cmask.sum(-1).clamp(min=1.0)).mean()
    del logps, entropy, coef_1, coef_2, per_token_loss, old, ref
    _backward_and_step(mt, loss, m["opt"])


def _step_verl(case: Case, m: dict[str, Any], mt: PhaseMemTracker, batch: dict[str, torch.Tensor]) -> None:
    policy, ids, mask, responses = m["policy"], batch["ids"], batch["mask"], batch["responses"]
    flash, rmask, c = case.logprob == "flash-ce", batch["completion_mask"], case.completion_len
    autocast = torch.autocast(device_type="cpu", dtype=torch.bfloat16)
    mt.reset_phase("scoring")
    with torch.no_grad():
        # fsdp_workers.py compute_log_prob: calculate_entropy = not is_lora, where is_lora is the per-call flag of
        # the reference pass through the actor with its adapters disabled (meta_info "is_lora"); the old-policy pass
        # always computes the entropy, LoRA or not
        with autocast:
            old = vl.actor_forward(policy, ids, mask, responses, True, flash)["log_probs"]
        ref = None
        if case.reference != "none":
            with _ref_context(case, policy), autocast:
                ref = vl.actor_forward(m.get("ref", policy), ids, mask, responses, False, flash)["log_probs"]
        values = None
        if case.critic:
            with autocast:
                values = vl.critic_forward(m["critic"], ids, mask, c)
    if case.critic:
        mt.reset_phase("critic_forward")
        with autocast:
            vpreds = vl.critic_forward(m["critic"], ids, mask, c)
        vf_loss = vl.compute_value_loss(vpreds, batch["returns"], values, rmask)
        del vpreds
        _backward_and_step(mt, vf_loss, m["critic_opt"], prefix="critic_")
    mt.reset_phase("forward")
    with autocast:
        logp = vl.actor_forward(policy, ids, mask, responses, False, flash)["log_probs"]
    loss = vl.compute_policy_loss_vanilla(old, logp, batch["advantages_tok"], rmask)
    if ref is not None and case.objective == "grpo":  # use_kl_loss (GRPO recipes), kl_loss_coef 0.001
        loss = loss + vl.agg_loss(vl.kl_penalty_low_var(logp, ref), rmask) * 0.001
    del logp, old, ref, values
    _backward_and_step(mt, loss, m["opt"])


def _backward_and_step(mt: PhaseMemTracker, loss: torch.Tensor, opt: torch.optim.Optimizer, prefix: str = "") -> None:
    mt.reset_phase(prefix + "backward")
    loss.backward()
    del loss
    mt.reset_phase(prefix + "optimizer")
    opt.step()
    opt.zero_grad(set_to_none=True)
    mt.reset_phase("idle")


def _batch(case: Case, vocab: int) -> dict[str, torch.Tensor]:
    n, s, c = case.sequences_per_pass, case.prompt_len + case.completion_len, case.completion_len
    ids = torch.randint(0, vocab, (n, s))
    batch = {"ids": ids, "mask": torch.ones(n, s, dtype=torch.long), "responses": ids[:, -c:].clone(),
             "completion_mask": torch.ones(n, c, dtype=torch.long), "advantages": torch.randn(n),
             "advantages_tok": torch.randn(n, c), "returns": torch.randn(n, c)}
    if case.reference == "precomputed":
        batch["ref_chosen"], batch["ref_rejected"] = torch.randn(n // 2), torch.randn(n // 2)
        batch["ref_kl"], batch["ref_logps"] = torch.randn(n), torch.randn(n)
    if case.objective == "kto":  # KTODataCollator: the completions cycled by one within the batch, same lengths
        batch["kl_ids"] = torch.cat((ids[:, :-c], ids[:, -c:].roll(1, dims=0)), dim=1)
    return batch


STEPS = {("trl", "dpo"): _step_trl_dpo, ("trl", "kto"): _step_trl_kto, ("trl", "grpo"): _step_trl_grpo,
         ("verl", "grpo"): _step_verl, ("verl", "ppo"): _step_verl}


def measure_case(case: Case) -> dict[str, Any]:
    patch_transformers_tracing()
    _cuda_like_fused_head()
    fake = FakeTensorMode(allow_non_fake_inputs=True)
    m = _build(case, fake)
    run = m["run"]
    with fake:
        if case.framework == "trl":
            from trl.trainer.utils import add_fused_lm_head

            policy = m["policy"]
            if case.logprob == "fused":  # the per-token outputs each trainer asks for (dpo_trainer.py, grpo_trainer.py)
                outputs = {"dpo": ("log_probs", "entropy", "mean_logits", "is_top1"),  # dpo_trainer.py
                           "kto": ("log_probs", "entropy", "mean_logits")}.get(case.objective) or (
                    "log_probs", "entropy")
                add_fused_lm_head(policy.get_base_model() if hasattr(policy, "get_base_model") else policy,
                                  outputs=outputs)
                if "ref" in m:
                    add_fused_lm_head(m["ref"])
        if case.accelerate_amp:
            _prepare_with_accelerate(m)
        m["opt"] = _optimizer(m["policy"], fused=case.framework == "trl")
        trackables = [m["opt"]]
        if case.critic:
            m["critic_opt"] = _optimizer(m["critic"], fused=False)
            trackables.append(m["critic_opt"])
        batch = _batch(case, run.hf_config["vocab_size"])
        mt = RLTracker()
        mt.track_external(*(m[k] for k in ("policy", "ref", "critic") if k in m), *trackables,
                          *batch.values())
        with mt:
            for step in range(2):
                if step:
                    mt.reset_mod_stats()
                    gc.collect()
                base = mt.current_total()
                STEPS[(case.framework, case.objective)](case, m, mt, batch)
    phases = {p: v for p, v in mt.phase_peak.items() if p not in ("setup", "idle")}
    categories = {p: {k: v for k, v in mt.phase_peak_snap[p].items() if v and k != "Total"} for p in phases}
    return _record(case, run, phases, base, categories)


def _record(case: Case, run: Any, phases: dict[str, int], base: int,
            categories: dict[str, dict[str, int]]) -> dict[str, Any]:
    training = max(phases[p] for p in TRAINING_PHASES if p in phases)
    rl_phases = {"training": training}
    if "scoring" in phases and case.scores_before_training:
        rl_phases["scoring"] = phases["scoring"]
    peak_phase = max(phases, key=lambda p: phases[p])
    return {"id": case.id, "description": case.describe(run), "scenario": case.scenario(run),
            "trace": case.trace_facts(), "versions": versions() | _extra_versions(),
            "measured": {"peak_allocated_bytes": phases[peak_phase], "peak_phase": peak_phase, "phases": phases,
                         "rl_phases": rl_phases, "baseline_bytes": base,
                         "peak_by_category": categories}}


def _extra_versions() -> dict[str, str]:
    import trl

    return {"trl": trl.__version__, "verl": "b178a3cd56f58b2d502255daba591e92833930a7 (loss code copied)"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="*")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        if not fnmatch.fnmatch(case.id, args.only):
            continue
        path = OUT / f"{case.id}.json"
        if args.list or (path.exists() and not args.force):
            print(("" if args.list else "skip ") + case.id)
            continue
        data = measure_case(case)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        ph = data["measured"]["rl_phases"]
        print(f"{case.id}: " + ", ".join(f"{k} {v / 2**30:.2f} GiB" for k, v in ph.items()), flush=True)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
