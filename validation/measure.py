"""Build a model inside FakeTensorMode and measure two training steps with PhaseMemTracker."""

from __future__ import annotations

import contextlib
import gc
import platform
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from validation.tracker import PhaseMemTracker, patch_transformers_tracing, swappable_fake_params
from validation.vision_inputs import is_vision_config, tower_modules, vision_inputs, vision_tracing

ATTN_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj"]


@dataclass
class Run:
    """One configuration to measure (mirrors the app's scenario fields)."""

    id: str
    model_key: str
    model_name: str
    hf_config: dict[str, Any]
    precision: str = "bf16"  # fp32 | amp-bf16 | bf16
    attention: str = "sdpa"  # sdpa | eager
    checkpointing: str = "none"  # none | full
    method: str = "full"  # full | freeze | lora
    optimizer: str = "adamw"  # adamw (foreach) | adamw-fused
    micro_batch: int = 1
    seq_len: int = 2048
    lora_rank: int = 8
    lora_targets: list[str] | str = field(default_factory=lambda: ["q_proj", "v_proj"])
    note: str = ""
    grad_accum: int = 1  # micro-steps (forward + backward) per optimizer step
    freeze_from: str = "bottom"  # freeze: bottom half + embeddings, or top half (embeddings train)
    images_per_sample: int = 0  # vision-language models: images in each sequence (their tokens count in seq_len)
    image_resolution: int = 0  # image side in pixels (0: the tower's native size)
    vision_tower: str = "frozen"  # frozen | trained (the tower and its projector/merger)

    def description(self) -> str:
        prec = {"fp32": "fp32", "amp-bf16": "fp32 weights + bf16 autocast", "bf16": "pure bf16"}
        meth = {"full": "full fine-tune", "freeze": "freeze bottom half + embeddings",
                "lora": f"LoRA r={self.lora_rank} targets={self.lora_targets}"}[self.method]
        opt = "AdamW fused" if self.optimizer == "adamw-fused" else "AdamW foreach"
        ck = ", full activation checkpointing" if self.checkpointing == "full" else ""
        images = (f", {self.images_per_sample} image(s) of {self.image_resolution or 'native'} px per sequence, "
                  f"{self.vision_tower} tower") if self.images_per_sample else ""
        return (f"{self.model_name}, {prec[self.precision]}, {self.attention.upper()}, {meth}, "
                f"{opt}{ck}, b={self.micro_batch} s={self.seq_len}{images}"
                + (f" ({self.note})" if self.note else ""))

    def scenario(self) -> dict[str, Any]:
        sc: dict[str, Any] = {
            "schema_version": 1,
            "name": self.id,
            "model": {"name": self.model_name, "hf_config": self.hf_config},
            "gpu": {"name": "fake", "memory_bytes": 1_000_000_000_000},
            "method": self.method,
            "precision": self.precision,
            "optimizer": self.optimizer,
            "micro_batch": self.micro_batch,
            "seq_len": self.seq_len,
            "grad_accum": self.grad_accum,
            "attention": self.attention,
            "checkpointing": self.checkpointing,
        }
        if self.method == "lora":
            sc["lora_rank"] = self.lora_rank
            sc["lora_alpha"] = 2 * self.lora_rank
            sc["lora_targets"] = ATTN_TARGETS if self.lora_targets == "attention" else self.lora_targets
        if self.images_per_sample:
            sc["images_per_sample"] = self.images_per_sample
            sc["image_resolution"] = self.image_resolution
            sc["vision_tower"] = self.vision_tower
        if self.method == "freeze":
            sc["frozen_layers"] = self.hf_config["num_hidden_layers"] // 2
            sc["freeze_embeddings"] = self.freeze_from == "bottom"
            sc["freeze_from"] = self.freeze_from
        return sc


def versions() -> dict[str, str]:
    """Versions of the packages that produced the numbers."""
    import peft
    import transformers

    return {"torch": torch.__version__, "transformers": transformers.__version__,
            "peft": peft.__version__, "python": platform.python_version()}


@contextlib.contextmanager
def _ctx(fake_mode: FakeTensorMode | None) -> Iterator[None]:
    if fake_mode is None:
        yield
        return
    with fake_mode, swappable_fake_params(fake_mode):
        yield


def build_model(run: Run, fake_mode: FakeTensorMode | None) -> torch.nn.Module:
    """Build the model (random init; fake tensors unless fake_mode is None), apply settings."""
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForImageTextToText

    cfg_dict = dict(run.hf_config)
    model_type = cfg_dict.pop("model_type")
    cfg = AutoConfig.for_model(model_type, **cfg_dict)
    auto = AutoModelForImageTextToText if is_vision_config(run.hf_config) else AutoModelForCausalLM
    with _ctx(fake_mode):
        model = auto.from_config(cfg, attn_implementation=run.attention, dtype=torch.float32)
        if run.precision == "bf16":
            model.to(torch.bfloat16)
        if is_vision_config(run.hf_config) and (run.vision_tower == "frozen" or run.method != "full"):
            for tower in tower_modules(model):
                tower.requires_grad_(False)
        if run.checkpointing == "full":
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
            model.config.use_cache = False
        if run.method == "freeze" and run.freeze_from == "top":
            n = run.hf_config["num_hidden_layers"] // 2
            for layer in model.model.layers[-n:]:  # gradients still flow through them to the bottom half
                layer.requires_grad_(False)
        elif run.method == "freeze":
            n = run.hf_config["num_hidden_layers"] // 2
            model.model.embed_tokens.requires_grad_(False)  # tied lm_head freezes with it
            for layer in model.model.layers[:n]:
                layer.requires_grad_(False)
        elif run.method == "lora":
            from peft import LoraConfig, get_peft_model

            targets = ATTN_TARGETS if run.lora_targets == "attention" else run.lora_targets
            lcfg = LoraConfig(r=run.lora_rank, lora_alpha=2 * run.lora_rank, lora_dropout=0.0,
                              target_modules=targets, task_type="CAUSAL_LM")
            model = get_peft_model(model, lcfg)
        model.train()
    return model


def make_optimizer(run: Run, model: torch.nn.Module) -> torch.optim.Optimizer:
    """AdamW over trainable parameters, foreach (CUDA default) or fused."""
    params = [p for p in model.parameters() if p.requires_grad]
    if run.optimizer == "adamw-fused":
        return torch.optim.AdamW(params, lr=1e-5, fused=True)
    if run.optimizer == "sgd":
        return torch.optim.SGD(params, lr=1e-5, foreach=True)
    if run.optimizer == "sgd-momentum":
        return torch.optim.SGD(params, lr=1e-5, momentum=0.9, foreach=True)
    if run.optimizer == "adafactor":
        return torch.optim.Adafactor(params, lr=1e-5, foreach=True)
    return torch.optim.AdamW(params, lr=1e-5, foreach=True)


def _enter(mt: Any, phase: str, fresh: bool) -> None:
    """Start a phase; later micro-steps of the same step continue its peak instead of resetting it."""
    if fresh:
        mt.reset_phase(phase)
    else:
        mt.phase = phase


def _step(run: Run, model: torch.nn.Module, opt: torch.optim.Optimizer, inputs: dict[str, torch.Tensor],
          mt: Any) -> dict[str, int]:
    """One training step; returns phase peaks and the activation bytes at end of forward."""
    start = mt.current_total()
    start_cat = mt.current_by_category()
    fw_end = start
    for micro in range(run.grad_accum):  # a phase's peak is the largest over all micro-steps
        if micro:
            mt.reset_mod_stats()  # MemTracker's per-module stats allow one forward per reset
        _enter(mt, "forward", micro == 0)
        amp = (torch.autocast(device_type=inputs["input_ids"].device.type, dtype=torch.bfloat16)
               if run.precision == "amp-bf16" else contextlib.nullcontext())
        with amp:
            loss = model(**inputs, use_cache=False).loss
        fw_end = max(fw_end, mt.current_total())
        _enter(mt, "backward", micro == 0)
        loss.backward()
        del loss
    mt.reset_phase("optimizer")
    opt.step()
    opt.zero_grad(set_to_none=True)
    mt.reset_phase("idle")
    return {"baseline": start, "forward_end": fw_end, "baseline_cat": start_cat}  # type: ignore[dict-item]


def measure(run: Run, fake: bool = True) -> dict[str, Any]:
    """Run two steps and return the ``measured`` block of the ground-truth file.

    ``fake=False`` runs the same steps on real CPU tensors (only for small configs).
    """
    patch_transformers_tracing()
    fake_mode = FakeTensorMode(allow_non_fake_inputs=True) if fake else None
    vision = is_vision_config(run.hf_config)
    if vision and fake_mode is None:
        raise ValueError("vision-language steps are traced on fake tensors only")
    with vision_tracing(fake_mode) if vision else contextlib.nullcontext():  # type: ignore[arg-type]
        model = build_model(run, fake_mode)
        with fake_mode or contextlib.nullcontext():
            opt = make_optimizer(run, model)
            if vision:
                dtype = torch.bfloat16 if run.precision == "bf16" else torch.float32
                inputs = vision_inputs(run.hf_config, run.micro_batch, run.seq_len, run.images_per_sample,
                                       run.image_resolution, fake_mode, dtype)  # type: ignore[arg-type]
            else:
                input_ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len))
                inputs = {"input_ids": input_ids, "labels": input_ids}
            mt = PhaseMemTracker()
            mt.track_external(model, opt, *inputs.values())
            with mt:
                _step(run, model, opt, inputs, mt)
                mt.reset_mod_stats()
                gc.collect()
                info = _step(run, model, opt, inputs, mt)
    phases = {p: mt.phase_peak[p] for p in ("forward", "backward", "optimizer")}
    peak_phase = max(phases, key=lambda p: phases[p])
    base_cat = info["baseline_cat"]
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total_params = sum(p.numel() for p in model.parameters())
    out = {
        "peak_allocated_bytes": phases[peak_phase],
        "peak_phase": peak_phase,
        "phases": phases,
        "baseline_bytes": info["baseline"],
        "activation_bytes_end_of_forward": info["forward_end"] - info["baseline"],
        "forward_end_bytes": info["forward_end"],
        "parameter_bytes": base_cat.get("Parameter", 0),
        "buffer_bytes": base_cat.get("Buffer", 0),
        "optimizer_state_bytes": base_cat.get("Optstate", 0),
        "gradient_bytes_at_optimizer_peak": mt.phase_peak_snap["optimizer"].get("Gradient", 0),
        "by_category": {p: {k: v for k, v in mt.phase_peak_snap[p].items() if v}
                        for p in ("forward", "backward", "optimizer")},
        "num_params": total_params,
        "trainable_params": trainable,
    }
    del model, opt, inputs, mt
    gc.collect()
    return out
