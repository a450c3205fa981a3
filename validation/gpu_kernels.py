"""Micro-benchmarks of what the time model takes as inputs, on a CUDA GPU (issue 23 item 9).

    python -m validation.gpu_kernels --out kernels.json [--budget-s 170] [--only GLOB]
    python -m validation.gpu_kernels --dry-run --out dry.json     # tiny shapes on the CPU: checks the code path
    python -m validation.gpu_kernels --plan                       # the groups and their shapes, nothing run

Groups, in the order they run (--budget-s stops new groups, never one half-way):
- bandwidth: a device-to-device copy (bytes read + written), an element-wise fp32 pass and transformers' eager
  RMSNorm (its bf16 input and output counted), several sizes;
- host: an eager op's launch (host seconds of a 1-element add_), an empty kernel (torch.cuda._sleep(0)), a Python
  nn.Linear call (hidden 2048, 8192 tokens,
  bf16: NVIDIA/TransformerEngine issue #2053's benchmark), a device-to-host round trip (.item()), foreach AdamW over
  N tensors (host seconds of step() and its GPU time);
- gemm-square: 8192^3 bf16 (and fp8 through torch._scaled_mm with per-tensor scales where the GPU has fp8);
- gemm-llama-{8b,1b,70b}: a decoder layer's forward GEMMs (QKV, output, gate+up, down) per TP 1/2/4/8 and tokens
  1k-16k, and at 4k tokens their input-gradient and weight-gradient GEMMs; shapes from presets/models/*.json;
- gemm-lora: the adapters' skinny GEMMs, ranks 8-64; gemm-experts: one expert's GEMMs of OLMoE-1B-7B and
  Qwen3-30B-A3B at 128-512 tokens; gemm-experts-grouped: all of a layer's experts in one torch._grouped_mm at 128-512
  tokens each; gemm-fp8: the Llama-8B/70B layer GEMMs in fp8 (TP 1 and 8, 4k tokens);
- attention: torch SDPA with the flash and cuDNN backends, causal and not, head dim 64/128, lengths 1k-32k, forward and
  backward, 16k tokens per call; GQA (8 KV heads) with enable_gqa.
The file is rewritten after every GEMM and attention case, so a run its caller stops keeps what ran (that group's
status then reads "running").

Timing (/work/.library/device/METHOD.md): CUDA events around `calls` back-to-back calls, after a 1 GiB memset that
clears the L2 and a spin kernel (torch.cuda._sleep, about 1 ms) that keeps the GPU busy while the host queues the
calls (so the events time the kernels, not the host);
inputs rotate over enough copies to exceed the L2; warm-up calls first; the median of `samples` samples. Random
normal data (never zeros: they run faster). On the CPU (--dry-run) the same code runs with the host's clock.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.gpu_env import host_environment, nvidia_smi  # noqa: E402

FORMAT = "gpu-kernels/1"
MODELS = ROOT / "presets" / "models"
TP_DEGREES = (1, 2, 4, 8)
TOKENS = (1024, 2048, 4096, 8192, 16384)
LORA_RANKS = (8, 16, 32, 64)
EXPERT_TOKENS = (128, 256, 512)
ATTENTION_LENGTHS = (1024, 2048, 4096, 8192, 16384, 32768)
ATTENTION_TOKENS = 16384  # batch x length per call at lengths up to it (one sequence beyond)
ROTATE_BYTES = 128 * 2**20  # inputs rotate over copies of this many bytes together: over twice the L2 (H100 50 MB;
# PyTorch reported 60 MB on the lender's H200, /work/.library/device/KINDS.md)


class Bench:
    """Times callables on one device: CUDA events on a GPU, the host clock on the CPU."""

    def __init__(self, device: str, dry: bool) -> None:
        import torch

        self.torch, self.device, self.dry = torch, torch.device(device), dry
        self.cuda = self.device.type == "cuda"
        self.samples, self.warmup = (3, 1) if dry else (9, 3)
        self.flush = torch.empty(2**30 if self.cuda else 2**20, dtype=torch.uint8, device=self.device)

    def sync(self) -> None:
        if self.cuda:
            self.torch.cuda.synchronize()

    def randn(self, *shape: int, dtype: Any = None) -> Any:
        return self.torch.randn(*shape, device=self.device, dtype=dtype or self.torch.bfloat16)

    def _sample(self, fn: Callable[[int], Any], calls: int) -> float:
        self.flush.zero_()
        if not self.cuda:
            t0 = time.perf_counter()
            for i in range(calls):
                fn(i)
            return time.perf_counter() - t0
        # about 1 ms of spinning on the GPU, so the host has queued every call before the first one starts
        if hasattr(self.torch.cuda, "_sleep"):
            self.torch.cuda._sleep(2_000_000)
        start, end = self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(calls):
            fn(i)
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3

    def time(self, fn: Callable[[int], Any], max_calls: int = 16, target_s: float = 2e-3) -> dict[str, Any]:
        """Median seconds of one call of fn(i) (i: which input copy), its spread and how it was sampled."""
        for i in range(self.warmup):
            fn(i)
        self.sync()
        one = self._sample(fn, 1)
        calls = max(1, min(max_calls, int(target_s / max(one, 1e-9))))
        per_call = sorted(self._sample(fn, calls) / calls for _ in range(self.samples))
        return {"seconds": statistics.median(per_call), "min_seconds": per_call[0], "max_seconds": per_call[-1],
                "samples": len(per_call), "calls_per_sample": calls}

    def copies(self, bytes_per_set: int, make: Callable[[], Any], cap: int = 16) -> list[Any]:
        """Enough independent input sets that rotating over them does not hit the L2."""
        return [make() for _ in range(max(1, min(cap, math.ceil(ROTATE_BYTES / max(bytes_per_set, 1)))))]


# ---------------------------------------------------------------------------------------------- shapes


def _config(model: str) -> dict[str, Any]:
    return json.loads((MODELS / f"{model}.json").read_text(encoding="utf-8"))["hf_config"]


def layer_gemms(model: str, tp: int, tokens: int) -> list[tuple[str, int, int, int]]:
    """(name, m, k, n) of one decoder layer's forward GEMMs on one TP rank (Megatron's column / row split:
    QKV and gate+up split their outputs, output projection and down their inputs)."""
    c = _config(model)
    h, heads, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // heads
    return [("qkv", tokens, h, (heads + 2 * kv) * d // tp), ("proj", tokens, heads * d // tp, h),
            ("fc1", tokens, h, 2 * c["intermediate_size"] // tp), ("fc2", tokens, c["intermediate_size"] // tp, h)]


def gemm_cases(group: str, dry: bool) -> list[dict[str, Any]]:
    """The GEMM shapes of a group as {name, dtype, m, k, n}; --dry-run divides every dimension by 64 (at least 16)."""
    out: list[dict[str, Any]] = []

    def add(name: str, m: int, k: int, n: int, dtype: str = "bf16", groups: int = 0) -> None:
        if dry:
            m, k, n, groups = (*(max(16, x // 64 // 16 * 16) for x in (m, k, n)), min(groups, 4))
        out.append({"name": name, "dtype": dtype, "m": m, "k": k, "n": n, **({"groups": groups} if groups else {})})

    if group in ("gemm-square", "gemm-square-fp8"):
        add("square-8192", 8192, 8192, 8192, "fp8" if group.endswith("fp8") else "bf16")
    elif group.startswith("gemm-llama-"):
        model = {"1b": "llama-3.2-1b", "8b": "llama-3.1-8b", "70b": "llama-3.1-70b"}[group.rsplit("-", 1)[1]]
        for tp in TP_DEGREES:
            for tokens in TOKENS:
                for name, m, k, n in layer_gemms(model, tp, tokens):
                    add(f"{model} tp{tp} t{tokens} {name} fwd", m, k, n)
                    if tokens == 4096:  # dgrad (m x n) @ (n x k); wgrad (k x m) @ (m x n)
                        add(f"{model} tp{tp} t{tokens} {name} dgrad", m, n, k)
                        add(f"{model} tp{tp} t{tokens} {name} wgrad", k, m, n)
    elif group == "gemm-lora":
        h = _config("llama-3.1-8b")["hidden_size"]
        for tokens in (2048, 8192):
            for r in LORA_RANKS:
                add(f"lora r{r} t{tokens} A fwd", tokens, h, r)
                add(f"lora r{r} t{tokens} B fwd", tokens, r, h)
                add(f"lora r{r} t{tokens} A wgrad", r, tokens, h)
    elif group == "gemm-experts":
        for model in ("olmoe-1b-7b", "qwen3-30b-a3b"):
            c = _config(model)
            h, f = c["hidden_size"], c.get("moe_intermediate_size") or c["intermediate_size"]
            for tokens in EXPERT_TOKENS:
                add(f"{model} expert t{tokens} gate_up", tokens, h, 2 * f)
                add(f"{model} expert t{tokens} down", tokens, f, h)
    elif group == "gemm-experts-grouped":  # every expert of the layer in one torch._grouped_mm, equal loads
        for model in ("olmoe-1b-7b", "qwen3-30b-a3b"):
            c = _config(model)
            h, f, e = c["hidden_size"], c.get("moe_intermediate_size") or c["intermediate_size"], c["num_experts"]
            for tokens in EXPERT_TOKENS:
                add(f"{model} grouped x{e} t{tokens} gate_up", tokens, h, 2 * f, groups=e)
                add(f"{model} grouped x{e} t{tokens} down", tokens, f, h, groups=e)
    elif group == "gemm-fp8":
        for model in ("llama-3.1-8b", "llama-3.1-70b"):
            for tp in (1, 8):
                for name, m, k, n in layer_gemms(model, tp, 4096):
                    add(f"{model} tp{tp} t4096 {name} fwd", m, k, n, "fp8")
    return out


def attention_cases(dry: bool) -> list[dict[str, Any]]:
    """SDPA calls: backend x causal x head dim x length (MHA, heads 32), then GQA (32 query, 8 KV heads)."""
    lengths, tokens, heads = ((128, 256), 256, 4) if dry else (ATTENTION_LENGTHS, ATTENTION_TOKENS, 32)
    out = []
    for backend in ("flash", "cudnn"):
        for causal in (True, False):
            for d in (128, 64):
                for s in lengths:
                    out.append({"backend": backend, "causal": causal, "head_dim": d, "seq": s,
                                "batch": max(1, tokens // s), "heads": heads, "kv_heads": heads})
    for backend in ("flash", "cudnn"):
        for s in lengths[-3:] if not dry else lengths:
            out.append({"backend": backend, "causal": True, "head_dim": 128, "seq": s, "batch": max(1, tokens // s),
                        "heads": heads, "kv_heads": heads // 4})
    return out


# ---------------------------------------------------------------------------------------------- groups


# --plan's assumed rates (a planning figure, not a measurement): bf16 matmuls at 700 TFLOP/s (fp8 twice that), fused
# attention at 450, 3 TB/s; each timing costs 3 warm-ups, a probe and 9 samples of at least 2 ms, each after 1.3 ms of
# memset and spin
_PLAN_FLOPS, _PLAN_ATTENTION, _PLAN_BYTES, _PLAN_LEAD = 7e14, 4.5e14, 3e12, 1.3e-3


def _plan_timing(call_seconds: float) -> float:
    return 4 * call_seconds + _PLAN_LEAD + 9 * (_PLAN_LEAD + max(2e-3, call_seconds))


def plan_seconds(group: str) -> float:
    """GPU seconds a GEMM or attention group should take at the assumed rates above (--plan)."""
    if group == "attention":
        total = 0.0
        for c in attention_cases(False):
            fwd = 4.0 * c["batch"] * c["heads"] * c["seq"] ** 2 * c["head_dim"] / (2 if c["causal"] else 1) / _PLAN_ATTENTION
            total += _plan_timing(fwd) + _plan_timing(2.5 * fwd)
        return total
    total = 0.0
    for c in gemm_cases(group, False) if group.startswith("gemm") else []:
        m, k, n = c["m"], c["k"], c["n"]
        rate = _PLAN_FLOPS * (2 if c["dtype"] == "fp8" else 1)
        g = c.get("groups", 1)
        total += _plan_timing(g * max(2.0 * m * k * n / rate, 2.0 * (m * k + k * n + m * n) / _PLAN_BYTES))
    return total


def run_gemm(b: Bench, case: dict[str, Any]) -> dict[str, Any]:
    torch = b.torch
    m, k, n = case["m"], case["k"], case["n"]
    if case["dtype"] == "fp8":
        if b.cuda and torch.cuda.get_device_capability() < (8, 9):
            return {**case, "error": "no fp8 tensor cores on this GPU (compute capability below 8.9)"}
        scale = torch.ones((), device=b.device, dtype=torch.float32)
        sets = b.copies(m * k + k * n, lambda: (b.randn(m, k).to(torch.float8_e4m3fn),
                                                b.randn(n, k).to(torch.float8_e4m3fn).t()))

        def fn(i: int) -> Any:  # per-tensor scales, bf16 output (torchao's tensorwise recipe calls the same)
            a, w = sets[i % len(sets)]
            return torch._scaled_mm(a, w, scale_a=scale, scale_b=scale, out_dtype=torch.bfloat16)
    elif case.get("groups"):  # (groups x m, k) @ (groups, k, n): the weight stored (groups, n, k) and transposed,
        g = case["groups"]    # as torchtitan and transformers' grouped experts call it
        offs = torch.arange(m, g * m + 1, m, device=b.device, dtype=torch.int32)
        sets = b.copies(2 * g * (m * k + k * n), lambda: (b.randn(g * m, k), b.randn(g, n, k).transpose(-2, -1)))

        def fn(i: int) -> Any:
            a, w = sets[i % len(sets)]
            return torch._grouped_mm(a, w, offs=offs)
    else:
        sets = b.copies(2 * (m * k + k * n), lambda: (b.randn(m, k), b.randn(k, n)))

        def fn(i: int) -> Any:
            a, w = sets[i % len(sets)]
            return a @ w
    t = b.time(fn)
    return {**case, **t, "tflops": 2.0 * case.get("groups", 1) * m * k * n / t["seconds"] / 1e12}


def run_attention(b: Bench, case: dict[str, Any]) -> dict[str, Any]:
    torch = b.torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    backend = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}[case["backend"]]
    bs, s, d, h, kv = case["batch"], case["seq"], case["head_dim"], case["heads"], case["kv_heads"]
    q, k, v = (b.randn(bs, x, s, d).requires_grad_() for x in (h, kv, kv))
    grad = b.randn(bs, h, s, d)
    gqa = kv != h

    def forward(_i: int) -> Any:
        with sdpa_kernel([backend]):
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=case["causal"],
                                                                    enable_gqa=gqa)
    try:
        fwd = b.time(forward, max_calls=8)
        out = forward(0)
        bwd = b.time(lambda _i: torch.autograd.grad(out, (q, k, v), grad, retain_graph=True), max_calls=8)
    except RuntimeError as exc:  # the backend does not take this shape or device: a result, said in one line
        return {**case, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    # FLOPs as FlashAttention's benchmarks count them: 4 b h s^2 d forward, halved by a causal mask; 2.5x backward
    flops = 4.0 * bs * h * s * s * d / (2 if case["causal"] else 1)
    return {**case, "forward": fwd, "backward": bwd, "forward_seconds": fwd["seconds"],
            "backward_seconds": bwd["seconds"], "forward_flops": flops,
            "forward_tflops": flops / fwd["seconds"] / 1e12, "backward_tflops": 2.5 * flops / bwd["seconds"] / 1e12}


def _copy(src: list[Any], dst: Any) -> Callable[[int], Any]:
    return lambda i: dst.copy_(src[i % len(src)])


def _scale(torch: Any, xs: list[Any], w: Any, y: Any) -> Callable[[int], Any]:
    return lambda i: torch.mul(xs[i % len(xs)], w, out=y)


def _rmsnorm_eager(torch: Any, hs: list[Any], w: Any) -> Callable[[int], Any]:
    """transformers' LlamaRMSNorm.forward (models/llama/modeling_llama.py): upcast, pow, mean, rsqrt, two muls and a
    cast back, each its own kernel in eager mode; `bytes` counts only its bf16 input read and output written."""
    def norm(i: int) -> Any:
        h = hs[i % len(hs)].float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-5)
        return w * h.to(torch.bfloat16)
    return norm


def run_bandwidth(b: Bench) -> list[dict[str, Any]]:
    """A copy (bf16), one fp32 element-wise pass (y = x * w, the scaling step of an RMSNorm in fp32) and
    transformers' eager RMSNorm on bf16, each several sizes; bytes = the tensor read + the tensor written."""
    torch, rows = b.torch, []
    sizes = (2**16, 2**20) if b.dry else (2**22, 2**25, 2**28, 2**30)
    for total in sizes:
        copies = max(1, min(8, ROTATE_BYTES // total))
        src = [b.randn(total // 2) for _ in range(copies)]
        t = b.time(_copy(src, torch.empty_like(src[0])))
        rows.append({"kind": "copy-bf16", "bytes": 2 * total, **t, "bytes_per_s": 2 * total / t["seconds"]})
        del src
        xs = [b.randn(total // 4 // 2048, 2048, dtype=torch.float32) for _ in range(copies)]
        t = b.time(_scale(torch, xs, b.randn(2048, dtype=torch.float32), torch.empty_like(xs[0])))
        rows.append({"kind": "scale-fp32", "bytes": 2 * total, **t, "bytes_per_s": 2 * total / t["seconds"]})
        del xs
        hs = [b.randn(total // 2 // 2048, 2048) for _ in range(copies)]
        t = b.time(_rmsnorm_eager(torch, hs, b.randn(2048)))
        rows.append({"kind": "rmsnorm-eager", "bytes": 2 * total, **t, "bytes_per_s": 2 * total / t["seconds"]})
        del hs
    return rows


def _host_seconds(b: Bench, fn: Callable[[], Any], calls: int) -> float:
    """Host seconds per call of fn, the device synchronised before and after (not inside)."""
    b.sync()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    b.sync()
    return (t1 - t0) / calls


def run_host(b: Bench) -> list[dict[str, Any]]:
    torch, rows = b.torch, []
    n = 200 if b.dry else 2000
    x = torch.zeros(1, device=b.device)
    for _ in range(3):
        rows.append({"kind": "tiny-op", "calls": n, "seconds": _host_seconds(b, lambda: x.add_(1), n)})
        if b.cuda:  # a kernel that does nothing, through torch's thinnest binding: the launch without the dispatcher
            rows.append({"kind": "empty-launch", "calls": n,
                         "seconds": _host_seconds(b, lambda: torch.cuda._sleep(0), n)})
    lin = torch.nn.Linear(2048, 2048, device=b.device, dtype=torch.bfloat16)
    inp = b.randn(256 if b.dry else 8192, 2048)
    with torch.no_grad():
        for _ in range(3):
            rows.append({"kind": "linear-call", "calls": n // 10, "tokens": inp.shape[0],
                         "seconds": _host_seconds(b, lambda: lin(inp), n // 10),
                         "gpu_seconds": b.time(lambda _i: lin(inp))["seconds"]})
    for _ in range(3):
        rows.append({"kind": "sync-round-trip", "calls": n // 4, "seconds": _host_seconds(b, lambda: (x + 1).item(),
                                                                                           n // 4)})
    for count in (16, 64, 256):
        params = [torch.nn.Parameter(b.randn(4096, dtype=torch.float32)) for _ in range(count)]
        for p in params:
            p.grad = torch.randn_like(p)
        opt = torch.optim.AdamW(params, lr=1e-5, foreach=True)
        opt.step()  # states allocated outside the timing
        step = opt.step
        rows.append({"kind": "foreach-adamw", "tensors": count, "elements_per_tensor": 4096, "calls": 20,
                     "seconds": _host_seconds(b, step, 20), "gpu_seconds": b.time(lambda _i, f=step: f())["seconds"]})
    return rows


# the GEMM groups first: many cheap cases, each saved as it ends; attention last (cuDNN plans each new shape)
GROUPS = ("bandwidth", "host", "gemm-square", "gemm-square-fp8", "gemm-llama-8b", "gemm-llama-1b", "gemm-llama-70b",
          "gemm-lora", "gemm-experts", "gemm-experts-grouped", "gemm-fp8", "attention")


def run_group(b: Bench, group: str, doc: dict[str, Any], save: Callable[[], None]) -> None:
    """Run one group into doc, saving after every attention or GEMM case (a run stopped by its timeout keeps them)."""
    if group == "bandwidth":
        doc["bandwidth"] += [{"group": group, **r} for r in run_bandwidth(b)]
    elif group == "host":
        doc["host"] += [{"group": group, **r} for r in run_host(b)]
    elif group == "attention":
        for case in attention_cases(b.dry):
            doc["attention"].append({"group": group, **run_attention(b, case)})
            save()
    else:
        for case in gemm_cases(group, b.dry):
            try:
                doc["gemm"].append({"group": group, **run_gemm(b, case)})
            except RuntimeError as exc:
                doc["gemm"].append({"group": group, **case, "error": f"{type(exc).__name__}: "
                                    f"{str(exc).splitlines()[0][:200]}"})
            if b.cuda:
                b.torch.cuda.empty_cache()
            save()


def environment(device: str) -> dict[str, Any]:
    import torch

    env: dict[str, Any] = {"python": sys.version.split()[0], "torch": torch.__version__, **host_environment(),
                           "device": device}
    if torch.cuda.is_available() and device.startswith("cuda"):
        props = torch.cuda.get_device_properties(0)
        env.update(gpu=props.name, gpu_total_bytes=props.total_memory, cuda=torch.version.cuda,
                   cudnn=torch.backends.cudnn.version(), sms=props.multi_processor_count,
                   compute_capability=".".join(map(str, torch.cuda.get_device_capability())))
    else:
        env["gpu"] = "none (CPU dry run)"
    return env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("gpu_kernels.json"))
    ap.add_argument("--dry-run", action="store_true", help="tiny shapes on the CPU, to check the code path")
    ap.add_argument("--budget-s", type=float, default=170.0, help="start no new group after this many seconds")
    ap.add_argument("--only", help="glob of group names")
    ap.add_argument("--plan", action="store_true", help="list the groups and their case counts; run nothing")
    args = ap.parse_args(argv)
    groups = [g for g in GROUPS if not args.only or fnmatch.fnmatch(g, args.only)]
    if args.plan:
        for g in groups:
            n = len(gemm_cases(g, args.dry_run)) if g.startswith("gemm") else (
                len(attention_cases(args.dry_run)) if g == "attention" else 0)
            print(f"{g:20s} {n:4d} cases, about {plan_seconds(g):5.1f} s on the GPU" if n else g)
        return 0
    import torch

    device = "cpu" if args.dry_run or not torch.cuda.is_available() else "cuda"
    if device == "cpu" and not args.dry_run:
        print("No CUDA device: run with --dry-run to check the code path on the CPU.")
        return 2
    torch.manual_seed(0)
    smi_before = nvidia_smi()
    doc: dict[str, Any] = {"format": FORMAT, "dry_run": args.dry_run, "method": __doc__.split("Timing ")[1].strip(),
                           "environment": environment(device), "nvidia_smi_before": smi_before, "groups": [],
                           "gemm": [], "attention": [], "bandwidth": [], "host": []}
    doc["environment"]["driver"] = smi_before.get("driver_version", "unknown")
    bench, start = Bench(device, args.dry_run), time.perf_counter()

    def save() -> None:
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")

    for group in groups:
        if time.perf_counter() - start > args.budget_s:
            doc["groups"].append({"name": group, "status": "skipped: time budget"})
            continue
        t0 = time.perf_counter()
        entry = {"name": group, "status": "running (stopped before it finished)"}
        doc["groups"].append(entry)
        try:
            run_group(bench, group, doc, save)
            status = "done"
        except Exception as exc:  # noqa: BLE001 - one group's failure is recorded; the next group still runs
            status = f"error: {type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        entry.update(status=status, seconds=round(time.perf_counter() - t0, 2))
        save()
        print(f"{group:20s} {status:10s} {time.perf_counter() - t0:6.1f} s", flush=True)
    doc["nvidia_smi_after"] = nvidia_smi()
    save()
    _print_table(doc)
    return 0


def _print_table(doc: dict[str, Any]) -> None:
    """A short table last (the device tool returns the end of the output)."""
    for r in doc["gemm"]:
        if "error" not in r and (r["name"].startswith("square") or " t4096 fc1 fwd" in r["name"]):
            print(f"gemm {r['dtype']:4s} {r['name']:40s} {r['seconds'] * 1e3:9.3f} ms {r['tflops']:7.1f} TFLOP/s")
    for r in doc["attention"]:
        if "error" not in r and r["seq"] in (4096, 32768, 256):
            print(f"sdpa {r['backend']:5s} causal={r['causal']!s:5s} d{r['head_dim']} s{r['seq']:<6d} kv{r['kv_heads']:<3d}"
                  f" fwd {r['forward_tflops']:6.1f} bwd {r['backward_tflops']:6.1f} TFLOP/s")
    for r in doc["bandwidth"]:
        print(f"{r['kind']:14s} {r['bytes'] / 2**20:9.1f} MiB {r['bytes_per_s'] / 1e12:6.3f} TB/s")
    for r in doc["host"]:
        print(f"host {r['kind']:16s} {r['seconds'] * 1e6:8.2f} us" + (f" (gpu {r['gpu_seconds'] * 1e6:.2f} us)"
                                                                      if "gpu_seconds" in r else ""))
    skipped = [g["name"] for g in doc["groups"] if g["status"] != "done"]
    print("groups not done:", ", ".join(skipped) if skipped else "none")


if __name__ == "__main__":
    raise SystemExit(main())
