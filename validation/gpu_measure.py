"""Measure real training steps on a CUDA GPU: max allocated, max reserved, what nvidia-smi shows, CUDA context.

The same Hugging Face set-ups as the fake-tensor ground truth (`validation/scenarios.py`, same ids), so a real GPU
checks the traces, plus mechanisms that only run on a GPU or that the CPU traces do not cover: QLoRA through
bitsandbytes 4-bit layers, torchtune's chunked cross-entropy and optimizer-in-backward (re-implemented here from
torchtune's source, see below), Liger's fused linear cross-entropy, and the caching allocator's expandable segments.

Each configuration runs in a fresh process (the allocator, the CUDA context and an out-of-memory error stay
inside it). Anyone with a CUDA GPU can add ground truth:

    python -m validation.gpu_measure --all --out gpu.json [--budget-s 480] [--only PATTERN]
    python -m validation.gpu_measure --dry-run          # tiny models on the CPU: checks the code paths

Figures per step and phase: ``torch.cuda.max_memory_allocated`` / ``max_memory_reserved`` between resets (forward,
backward, optimizer step), the model-load peak, ``torch.cuda.mem_get_info`` (the device's used memory, what
nvidia-smi shows for a GPU with one process), and the NVML per-process figure when available.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.measure import Run  # noqa: E402
from validation.scenarios import ALL_LINEAR, make_run  # noqa: E402

STEPS = 3


@dataclass
class GpuCase:
    """A Run plus the GPU-only mechanisms it uses."""

    run: Run
    loss: str = "hf"  # hf (transformers' loss on full logits) | chunked8 (torchtune) | liger-flce
    optimizer_in_backward: bool = False  # torchtune optimizer_in_bwd
    qlora: bool = False  # 4-bit NF4 base weights (bitsandbytes), double quantisation, LoRA on top
    alloc_conf: str = ""  # PYTORCH_CUDA_ALLOC_CONF
    tag: str = ""
    # fp32-then-cast: random init in fp32 on the device, then cast (the traces' path; load peak and reserved
    # memory include the fp32 copy). direct: every tensor allocated once in its final dtype (what from_pretrained
    # does), 4-bit layers quantised one at a time as they are built (what loading a QLoRA model does).
    load: str = "fp32-then-cast"
    framework_options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.run.id + (f"_{self.tag}" if self.tag else "")

    def scenario(self) -> dict[str, Any]:
        sc = self.run.scenario()
        sc["name"] = self.id
        if self.qlora:
            sc.update({"method": "qlora", "qlora_bits": 4, "qlora_double_quant": True})
        return sc


def cases() -> list[GpuCase]:
    """In priority order: a budget stops the list, not a configuration half-way."""
    return first_batch() + second_batch()


def second_batch() -> list[GpuCase]:
    """Measured after the first batch: realistic loading, runs that should not fit, MoE at full size."""
    m = "llama-2-7b"
    tt_opts = {"framework": "torchtune", "cross_entropy": "chunked"}
    lora_qv = {"method": "lora", "lora_rank": 8, "lora_targets": ("q_proj", "v_proj")}
    d = "direct"
    return [
        GpuCase(make_run(m, "bf16", checkpointing="full", b=2, s=512, **lora_qv), qlora=True, load=d,
                tag="qlora-nf4dq-direct"),
        GpuCase(make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                         checkpointing="full"), qlora=True, load=d, tag="qlora-nf4dq-direct"),
        GpuCase(make_run(m, "bf16", checkpointing="full", b=2, s=512, **lora_qv), load=d, tag="direct"),
        GpuCase(make_run(m, "bf16", checkpointing="full", b=2, s=512, **lora_qv), load=d, loss="chunked8",
                tag="torchtune-ce8-direct", framework_options=tt_opts),
        GpuCase(make_run("llama-3-8b", "amp-bf16"), load=d, tag="direct"),  # traced 149.6 GiB: cannot fit
        GpuCase(make_run("qwen2.5-7b", "amp-bf16", attention="eager"), load=d, tag="direct"),  # traced 141.9 GiB
        GpuCase(make_run("mixtral-8x7b", "bf16", **lora_qv), load=d, tag="direct"),
        GpuCase(make_run("qwen3-30b-a3b", "bf16", method="lora", lora_rank=16, lora_targets="attention"), load=d,
                tag="direct"),
        GpuCase(make_run("llama-3.2-1b", "bf16"), load=d, tag="direct"),
        GpuCase(make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR), load=d,
                tag="direct"),
        GpuCase(make_run("gemma-2-2b", "amp-bf16", attention="eager"), load=d, tag="direct"),
        GpuCase(make_run("qwen2.5-0.5b", "bf16"), load=d, tag="direct"),
        GpuCase(make_run("llama-3.2-1b", "amp-bf16"), load=d, alloc_conf="expandable_segments:True",
                tag="direct-expandable"),
        GpuCase(make_run(m, "bf16", b=4, s=2048), load=d, tag="direct"),
    ]


# Re-measured with per-phase times by validation/device_check.sh (about 4 minutes at the 11-30 s a case took in
# h200_batch1/2.json): the step-time rows furthest from the time model (docs/gpu-accuracy.md "Step time"), a GPU-bound
# reference, long sequence and MoE; each fits an 80 GB H100 (peak reserved at most 70 GiB on the H200) and needs
# no package beyond the lender's image (no bitsandbytes or liger-kernel there: KINDS.md's package list).
DEVICE_CHECK_IDS = (
    "qwen2.5-0.5b_bf16_sdpa_full_b1_s2048_direct",
    "llama-3.2-1b_bf16_sdpa_full_b1_s2048_direct",
    "llama-2-7b_bf16_sdpa_lora-r8-qv_ckpt_b2_s512_direct",
    "llama-3-8b_bf16_sdpa_lora-r16-all_b1_s2048_direct",
    "llama-2-7b_bf16_sdpa_full_ckpt_b1_s2048",
    "gemma-2-2b_amp-bf16_eager_full_b1_s2048_direct",
    "llama-3.2-1b_bf16_sdpa_full_ckpt_b1_s16384",
    "phi-3-mini_bf16_sdpa_lora-r16-all_b1_s2048",
    "llama-2-7b_bf16_sdpa_lora-r8-qv_ckpt_b2_s512_torchtune-ce8-direct",
    "llama-3.2-1b_bf16_sdpa_full_ckpt_b4_s2048_torchtune-ce8-optbwd",
    "olmoe-1b-7b_bf16_sdpa_full_b1_s2048",
    "llama-3.2-1b_amp-bf16_sdpa_full_b1_s2048",
)


def device_check_batch() -> list[GpuCase]:
    by_id = {c.id: c for c in cases()}
    return [by_id[i] for i in DEVICE_CHECK_IDS]


def first_batch() -> list[GpuCase]:
    """Measured first (fp32-then-cast loading, as the traces build their models)."""
    m = "llama-2-7b"
    tt_opts = {"framework": "torchtune", "cross_entropy": "chunked"}
    return [
        # Traced set-ups (same ids as tests/data/ground_truth): real CUDA against the fake-tensor traces.
        GpuCase(make_run("llama-3.2-1b", "bf16")),
        GpuCase(make_run("llama-3.2-1b", "amp-bf16")),
        GpuCase(make_run(m, "bf16")),
        GpuCase(make_run(m, "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj"))),
        GpuCase(make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR)),
        GpuCase(make_run("llama-3-8b", "bf16", checkpointing="full")),
        GpuCase(make_run(m, "bf16", checkpointing="full")),
        # QLoRA (torchtune's published QLoRA shape: Llama-2-7B, r=8 on q,v, batch 2, seq 512, checkpointing)
        GpuCase(make_run(m, "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj"),
                         checkpointing="full", b=2, s=512), qlora=True, tag="qlora-nf4dq"),
        GpuCase(make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                         checkpointing="full", b=1, s=2048), qlora=True, tag="qlora-nf4dq"),
        # torchtune mechanisms: chunked cross-entropy; optimizer step fused into backward
        GpuCase(make_run(m, "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj"),
                         checkpointing="full", b=2, s=512), loss="chunked8", tag="torchtune-ce8",
                framework_options=tt_opts),
        GpuCase(make_run("llama-3.2-1b", "bf16", checkpointing="full", b=4, s=2048), loss="chunked8",
                optimizer_in_backward=True, tag="torchtune-ce8-optbwd",
                framework_options={**tt_opts, "optimizer_in_backward": True}),
        # Loss path at a long sequence: transformers' full logits against Liger's fused linear cross-entropy
        GpuCase(make_run("llama-3.2-1b", "bf16", checkpointing="full", s=16384)),
        GpuCase(make_run("llama-3.2-1b", "bf16", checkpointing="full", s=16384), loss="liger-flce",
                tag="liger-flce", framework_options={"cross_entropy": "fused-linear"}),
        # The caching allocator with expandable segments (less rounding, no block splitting)
        GpuCase(make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
                alloc_conf="expandable_segments:True", tag="expandable"),
        # More traced set-ups: amp, eager, tied embeddings, Gemma-2, Phi-3, MoE, batch, accumulation
        GpuCase(make_run("qwen2.5-0.5b", "bf16")),
        GpuCase(make_run("qwen2.5-0.5b", "amp-bf16", attention="eager")),
        GpuCase(make_run("gemma-2-2b", "amp-bf16", attention="eager")),
        GpuCase(make_run("phi-3-mini", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR)),
        GpuCase(make_run(m, "bf16", b=4, s=2048)),
        GpuCase(make_run("mistral-7b", "amp-bf16", checkpointing="full")),
        GpuCase(make_run("olmoe-1b-7b", "bf16")),
        GpuCase(make_run(m, "amp-bf16", optimizer="adamw-fused", grad_accum=4)),
        GpuCase(make_run(m, "amp-bf16")),
    ]


def _tiny(case: GpuCase) -> GpuCase:
    """A 2-layer, narrow copy for --dry-run on the CPU (same code paths)."""
    cfg = dict(case.run.hf_config)
    cfg.update(num_hidden_layers=2, hidden_size=64, intermediate_size=128, num_attention_heads=4,
               num_key_value_heads=2, vocab_size=512)
    for k in ("head_dim", "moe_intermediate_size"):
        if k in cfg:
            cfg[k] = 16 if k == "head_dim" else 32
    if isinstance(cfg.get("pad_token_id"), int) and cfg["pad_token_id"] >= cfg["vocab_size"]:
        cfg["pad_token_id"] = 0  # Phi-3's 32000 must index the shrunk embedding
    run = Run(**{**asdict(case.run), "hf_config": cfg, "seq_len": 64})
    return GpuCase(**{**asdict(case), "run": run})


# ---------------------------------------------------------------------------------------------- one process


class _Probe:
    """Memory figures on CUDA; zeros on the CPU (dry runs)."""

    def __init__(self, device: Any) -> None:
        import torch

        self.torch = torch
        self.cuda = device.type == "cuda"

    def reset(self) -> None:
        if self.cuda:
            self.torch.cuda.synchronize()
            self.torch.cuda.reset_peak_memory_stats()

    def peaks(self) -> dict[str, int]:
        if not self.cuda:
            return {"max_allocated": 0, "max_reserved": 0, "allocated": 0, "reserved": 0}
        c = self.torch.cuda
        c.synchronize()
        return {"max_allocated": c.max_memory_allocated(), "max_reserved": c.max_memory_reserved(),
                "allocated": c.memory_allocated(), "reserved": c.memory_reserved()}

    def device_used(self) -> int:
        if not self.cuda:
            return 0
        free, total = self.torch.cuda.mem_get_info()
        return total - free


def _nvml_process_bytes() -> int | None:
    try:
        import pynvml

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        for proc in pynvml.nvmlDeviceGetComputeRunningProcesses(handle):
            if proc.pid == os.getpid() and proc.usedGpuMemory:
                return int(proc.usedGpuMemory)
    except Exception:  # noqa: BLE001 - NVML is optional (containers often hide processes)
        return None
    return None


def _quantize_linears_4bit(model: Any) -> None:
    """Replace every decoder nn.Linear by a bitsandbytes NF4 Linear4bit with double quantisation.

    What transformers' `replace_with_bnb_linear` + loading does for `BitsAndBytesConfig(load_in_4bit=True,
    bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=bfloat16)`; lm_head stays
    in 16 bits (transformers skips it by default).
    """
    import bitsandbytes as bnb
    import torch

    for module in list(model.modules()):
        for child_name, child in list(module.named_children()):
            if isinstance(child, torch.nn.Linear) and child_name != "lm_head":
                q = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                      compute_dtype=torch.bfloat16, compress_statistics=True, quant_type="nf4",
                                      device="meta")
                weight = bnb.nn.Params4bit(child.weight.data, requires_grad=False, compress_statistics=True,
                                           quant_type="nf4", module=q)
                q.weight = weight.to(child.weight.device)
                if child.bias is not None:
                    q.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
                setattr(module, child_name, q)
                del child, weight


def _materialize(model: Any, device: Any, quantize_linears: bool) -> None:
    """Allocate a meta-device model's tensors on the device once, in their final dtype (random values; memory
    is what matters). Tied parameters stay tied. With quantize_linears, each decoder nn.Linear is built in 16 bits
    and quantised to NF4 at once, so at most one 16-bit layer weight exists besides the 4-bit model."""
    import torch

    new: dict[int, Any] = {}
    with torch.no_grad():
        if quantize_linears:
            import bitsandbytes as bnb

            for module in list(model.modules()):
                for child_name, child in list(module.named_children()):
                    if isinstance(child, torch.nn.Linear) and child_name != "lm_head":
                        w = torch.empty(child.weight.shape, dtype=child.weight.dtype, device=device).normal_(0, 0.02)
                        q = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                              compute_dtype=torch.bfloat16, compress_statistics=True,
                                              quant_type="nf4", device="meta")
                        q.weight = bnb.nn.Params4bit(w, requires_grad=False, compress_statistics=True,
                                                     quant_type="nf4", module=q).to(device)
                        del w
                        if child.bias is not None:
                            q.bias = torch.nn.Parameter(torch.zeros(child.bias.shape, dtype=child.bias.dtype,
                                                                    device=device), requires_grad=False)
                        setattr(module, child_name, q)
        for module in model.modules():
            for name, p in list(module._parameters.items()):
                if p is not None and p.is_meta:
                    if id(p) not in new:
                        t = torch.empty(p.shape, dtype=p.dtype, device=device).normal_(0, 0.02)
                        new[id(p)] = torch.nn.Parameter(t, requires_grad=p.requires_grad)
                    module._parameters[name] = new[id(p)]
            for name, b in list(module._buffers.items()):
                if b is not None and b.is_meta:
                    module._buffers[name] = torch.zeros(b.shape, dtype=b.dtype, device=device)


def _loss(case: GpuCase, model: Any, input_ids: Any) -> Any:
    import torch

    if case.loss == "hf":
        return model(input_ids=input_ids, labels=input_ids, use_cache=False).loss
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    hidden = base.model(input_ids=input_ids, use_cache=False).last_hidden_state
    labels = torch.nn.functional.pad(input_ids[:, 1:], (0, 1), value=-100)  # shift as transformers does
    if case.loss == "chunked8":
        # torchtune: TransformerDecoder(num_output_chunks=8) returns bf16 logit chunks and
        # CEWithChunkedOutputLoss upcasts and scores one chunk at a time
        # (torchtune/modules/loss/ce_chunked_output_loss.py, torchtune/modules/transformer.py)
        logits = [base.lm_head(h) for h in hidden.chunk(8, dim=1)]
        label_chunks = labels.chunk(8, dim=1)
        total = sum(torch.nn.functional.cross_entropy(lg.float().reshape(-1, lg.size(-1)), lb.reshape(-1),
                                                      ignore_index=-100, reduction="sum")
                    for lg, lb in zip(logits, label_chunks, strict=True))
        return total / (labels != -100).sum()
    if case.loss == "liger-flce":
        from liger_kernel.transformers import LigerFusedLinearCrossEntropyLoss

        lce = LigerFusedLinearCrossEntropyLoss()
        return lce(base.lm_head.weight, hidden.reshape(-1, hidden.size(-1)), labels.reshape(-1))
    raise ValueError(case.loss)


def _optimizer_in_backward(model: Any) -> None:
    """torchtune `optimizer_in_bwd=True`: one AdamW per parameter, stepped by a post-accumulate-grad hook
    (torchtune/training/memory.py, register_optim_in_bwd_hooks), so no full set of gradients ever exists."""
    import torch

    for p in model.parameters():
        if not p.requires_grad:
            continue
        opt = torch.optim.AdamW([p], lr=1e-5, foreach=True)

        def hook(param: Any, opt: Any = opt) -> None:
            opt.step()
            opt.zero_grad(set_to_none=True)

        p.register_post_accumulate_grad_hook(hook)


class _PhaseClock:
    """Seconds of each phase of a step (forward, backward, optimizer), summed over the micro-batches: CUDA events
    recorded on the stream around the phase's launches on a GPU (each phase starts on an idle stream, since the
    memory probe synchronises before it, so the events span the phase's kernels and any wait for the host between
    them), the host's clock on the CPU. The memory probe's own synchronisations fall outside the events."""

    def __init__(self, device: Any) -> None:
        import torch

        self.torch, self.cuda = torch, device.type == "cuda"
        self.kind = "cuda-events" if self.cuda else "host-clock"
        self.pairs: list[tuple[str, Any, Any]] = []
        self._start: Any = None

    def begin_step(self) -> None:
        self.pairs = []

    def _now(self) -> Any:
        if not self.cuda:
            return time.perf_counter()
        event = self.torch.cuda.Event(enable_timing=True)
        event.record()
        return event

    def start(self) -> None:
        self._start = self._now()

    def stop(self, phase: str) -> None:
        self.pairs.append((phase, self._start, self._now()))

    def seconds(self) -> dict[str, float]:
        if self.cuda:
            self.torch.cuda.synchronize()
        out: dict[str, float] = {}
        for phase, a, b in self.pairs:
            spent = a.elapsed_time(b) / 1e3 if self.cuda else b - a
            out[phase] = round(out.get(phase, 0.0) + spent, 6)
        return out


def measure_one(case: GpuCase, device_name: str, steps_to_run: int = STEPS) -> dict[str, Any]:
    import torch

    from validation.measure import build_model, make_optimizer

    device = torch.device(device_name)
    probe = _Probe(device)
    out: dict[str, Any] = {"id": case.id}
    used0 = probe.device_used()
    if probe.cuda:
        torch.cuda.init()
        torch.empty(1, device=device)
        a = torch.randn(256, 256, device=device, dtype=torch.bfloat16)
        (a @ a).sum().item()  # creates the cuBLAS handle and workspace
        del a
        torch.cuda.synchronize()
        out["context"] = {"device_used_before_cuda": used0, "device_used_after_init": probe.device_used(),
                          "reserved_after_init": torch.cuda.memory_reserved(),
                          "nvml_process_after_init": _nvml_process_bytes()}
    torch.manual_seed(0)
    probe.reset()
    t0 = time.perf_counter()
    run = case.run
    if case.qlora:
        from dataclasses import replace

        base_run = replace(run, method="full", checkpointing="none")
        if case.load == "direct":
            with torch.device("meta"):
                model = build_model(base_run, None)
            _materialize(model, device, quantize_linears=True)
        else:
            with torch.device(device):
                model = build_model(base_run, None)  # bf16 on the device
            _quantize_linears_4bit(model)
        from peft import LoraConfig, get_peft_model

        targets = ["q_proj", "k_proj", "v_proj", "o_proj"] if run.lora_targets == "attention" else run.lora_targets
        model = get_peft_model(model, LoraConfig(r=run.lora_rank, lora_alpha=2 * run.lora_rank, lora_dropout=0.0,
                                                 target_modules=targets, task_type="CAUSAL_LM"))
        if run.checkpointing == "full":
            model.get_base_model().gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": False})
            model.get_base_model().config.use_cache = False
        model.train()
    elif case.load == "direct":
        with torch.device("meta"):
            model = build_model(run, None)
        _materialize(model, device, quantize_linears=False)
    else:
        with torch.device(device):
            model = build_model(run, None)
    out["load"] = {**probe.peaks(), "seconds": round(time.perf_counter() - t0, 2)}
    out["num_params"] = sum(p.numel() for p in model.parameters())
    out["trainable_params"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
    if case.optimizer_in_backward:
        _optimizer_in_backward(model)
        opt = None
    else:
        with torch.device(device):
            opt = make_optimizer(run, model)
    input_ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len), device=device)
    amp = (torch.autocast(device_type=device.type, dtype=torch.bfloat16) if run.precision == "amp-bf16"
           else contextlib.nullcontext())
    steps = []
    clock = _PhaseClock(device)
    for _ in range(steps_to_run):
        phases: dict[str, dict[str, int]] = {}
        t1 = time.perf_counter()
        clock.begin_step()
        for micro in range(run.grad_accum):
            if micro == 0:
                probe.reset()
            clock.start()
            with amp:
                loss = _loss(case, model, input_ids)
            clock.stop("forward")
            fw = probe.peaks()
            phases["forward"] = fw if micro == 0 else {k: max(v, phases["forward"][k]) for k, v in fw.items()}
            if micro == 0:
                probe.reset()
            clock.start()
            loss.backward()
            clock.stop("backward")
            del loss
            bw = probe.peaks()
            phases["backward"] = bw if micro == 0 else {k: max(v, phases["backward"][k]) for k, v in bw.items()}
        probe.reset()
        clock.start()
        if opt is not None:
            opt.step()
            opt.zero_grad(set_to_none=True)
        clock.stop("optimizer")
        phases["optimizer"] = probe.peaks()
        steps.append({"phases": phases, "seconds": round(time.perf_counter() - t1, 3),
                      "device_used": probe.device_used(), "nvml_process": _nvml_process_bytes(),
                      "phase_seconds": clock.seconds(), "phase_clock": clock.kind})
    out["steps"] = steps
    if probe.cuda:
        stats = torch.cuda.memory_stats()
        out["allocator"] = {k: v for k, v in stats.items()
                            if k.endswith(".all.peak") or k.startswith(("num_", "max_split"))}
        out["device_used_end"] = probe.device_used()
        out["reserved_end"] = torch.cuda.memory_reserved()
    return out


# ---------------------------------------------------------------------------------------------- driver


def _environment() -> dict[str, Any]:
    from validation.gpu_env import host_environment

    env: dict[str, Any] = {"python": sys.version.split()[0], **host_environment()}
    for name in ("torch", "transformers", "peft", "bitsandbytes", "liger_kernel", "triton"):
        try:
            mod = __import__(name)
            env[name] = getattr(mod, "__version__", "?")
        except Exception as exc:  # noqa: BLE001 - report what is missing
            env[name] = f"missing ({type(exc).__name__})"
    try:
        import torch

        if torch.cuda.is_available():
            props = torch.cuda.get_device_properties(0)
            env["gpu"] = props.name
            env["gpu_total_bytes"] = props.total_memory
            env["cuda"] = torch.version.cuda
    except Exception as exc:  # noqa: BLE001
        env["gpu"] = f"unavailable ({exc})"
    return env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="run every case, each in a fresh process")
    ap.add_argument("--dry-run", action="store_true", help="tiny models on the CPU, to check the code paths")
    ap.add_argument("--only", help="glob of case ids")
    ap.add_argument("--batch", choices=("all", "first", "second", "device-check"), default="all")
    ap.add_argument("--steps", type=int, default=STEPS, help="training steps per case (the first is a warm-up)")
    ap.add_argument("--one", help="(internal) run one case id in this process and print its JSON")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", type=Path, default=Path("gpu_measured.json"))
    ap.add_argument("--budget-s", type=float, default=480.0, help="start no new case after this many seconds")
    ap.add_argument("--timeout-s", type=float, default=150.0, help="per case")
    args = ap.parse_args(argv)

    all_cases = cases()
    if args.one:
        case = next(c for c in all_cases if c.id == args.one)
        if args.dry_run:
            case = _tiny(case)
        try:
            result = measure_one(case, args.device, args.steps)
        except Exception as exc:  # noqa: BLE001 - an out-of-memory error is a result
            import torch

            oom = isinstance(exc, torch.OutOfMemoryError)
            result = {"id": case.id, "error": f"{type(exc).__name__}: {str(exc)[:600]}", "oom": oom,
                      "traceback": traceback.format_exc()[-2000:]}
            if oom and torch.cuda.is_available():
                result["max_allocated_at_oom"] = torch.cuda.max_memory_allocated()
                result["max_reserved_at_oom"] = torch.cuda.max_memory_reserved()
        print("RESULT " + json.dumps(result))
        return 0

    if args.batch != "all":
        all_cases = {"first": first_batch, "second": second_batch, "device-check": device_check_batch}[args.batch]()
    if args.only:
        all_cases = [c for c in all_cases if fnmatch.fnmatch(c.id, args.only)]
    if args.dry_run:
        args.device = "cpu"
    from validation.gpu_env import nvidia_smi

    doc: dict[str, Any] = {"method": f"validation/gpu_measure.py: fresh process per case, {args.steps} steps, peaks "
                                     "reset per phase; phase_seconds: CUDA events around each phase",
                           "environment": _environment(), "nvidia_smi_before": nvidia_smi(), "cases": []}
    start = time.perf_counter()
    for case in all_cases:
        if time.perf_counter() - start > args.budget_s:
            doc["cases"].append({"id": case.id, "skipped": "time budget"})
            continue
        cmd = [sys.executable, "-m", "validation.gpu_measure", "--one", case.id, "--device", args.device,
               "--steps", str(args.steps)]
        if args.dry_run:
            cmd.append("--dry-run")
        env = dict(os.environ)
        if case.alloc_conf:
            env["PYTORCH_CUDA_ALLOC_CONF"] = case.alloc_conf
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=args.timeout_s)
            line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
            result = json.loads(line[7:]) if line else {"id": case.id, "error": "no result",
                                                        "stderr": proc.stderr[-2000:]}
        except subprocess.TimeoutExpired:
            result = {"id": case.id, "error": f"timeout after {args.timeout_s} s"}
        result["wall_seconds"] = round(time.perf_counter() - t0, 1)
        result["scenario"] = case.scenario()
        result["loss"] = case.loss
        result["optimizer_in_backward"] = case.optimizer_in_backward
        result["qlora"] = case.qlora
        result["alloc_conf"] = case.alloc_conf
        result["load_path"] = case.load
        result["framework_options"] = case.framework_options
        result["description"] = case.run.description()
        doc["cases"].append(result)
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
        peak = max((s["phases"][p]["max_allocated"] for s in result.get("steps", []) for p in s["phases"]),
                   default=0)
        last = result.get("steps", [{}])[-1].get("phase_seconds", {})
        phase_text = " ".join(f"{k[:3]}={v * 1e3:.0f}ms" for k, v in last.items())
        print(f"{case.id:60s} {result['wall_seconds']:6.1f}s  peak_alloc={peak / 2**30:8.2f} GiB  {phase_text}  "
              f"{result.get('error', '')[:80]}", flush=True)
    doc["nvidia_smi_after"] = nvidia_smi()
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
