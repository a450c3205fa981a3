"""Stand-ins that let vLLM 0.11.2's Python import and run on a CPU-only machine, shared by the benchmarks that time its
code there (benchmarks/vllm_v1_eager_forward_host.py, benchmarks/vllm_v1_engine_step_host.py; run in their own
environment, as their docstrings say): the compiled ops the model's layers call (_C's rms_norm, fused_add_rms_norm,
silu_and_mul, rotary_embedding; _C_cache_ops' reshape_and_cache_flash) registered under their real names as no-ops
on the CPU, and vllm.vllm_flash_attn as a module whose attention entry points count their calls (FLASH_CALLS["fa"])
and return their output buffer. The arithmetic is left out on purpose: these benchmarks time the Python around it.
"""
# ruff: noqa
import sys
import types

FLASH_CALLS = {"fa": 0}


def _noop(*a):
    return None


def _flash_attention(*a, out=None, **k):
    FLASH_CALLS["fa"] += 1
    return out


def install() -> dict:
    """Register the no-op ops and the counting flash-attention module; returns the call counter."""
    import torch

    lib_c = torch.library.Library("_C", "DEF")
    lib_cache = torch.library.Library("_C_cache_ops", "DEF")
    lib_c.define("rms_norm(Tensor(a!) result, Tensor input, Tensor weight, float epsilon) -> ()")
    lib_c.define("fused_add_rms_norm(Tensor(a!) input, Tensor(b!) residual, Tensor weight, float epsilon) -> ()")
    lib_c.define("silu_and_mul(Tensor(a!) result, Tensor input) -> ()")
    lib_c.define("rotary_embedding(Tensor positions, Tensor(a!) query, Tensor(b!)? key, int head_size, "
                 "Tensor cos_sin_cache, bool is_neox) -> ()")
    lib_cache.define("reshape_and_cache_flash(Tensor key, Tensor value, Tensor(a!) key_cache, Tensor(b!) value_cache, "
                     "Tensor slot_mapping, str kv_cache_dtype, Tensor k_scale, Tensor v_scale) -> ()")
    for name in ("rms_norm", "fused_add_rms_norm", "silu_and_mul", "rotary_embedding"):
        lib_c.impl(name, _noop, "CPU")
    lib_cache.impl("reshape_and_cache_flash", _noop, "CPU")
    install.libraries = (lib_c, lib_cache)  # kept alive: a dropped Library unregisters its ops
    fa = types.ModuleType("vllm.vllm_flash_attn")
    fa.flash_attn_varlen_func = _flash_attention
    fa.flash_attn_with_kvcache = _flash_attention
    fa.get_scheduler_metadata = lambda *a, **k: None
    fa.fa_version_unsupported_reason = lambda v: None
    fa.is_fa_version_supported = lambda v: v in (2, 3)
    fai = types.ModuleType("vllm.vllm_flash_attn.flash_attn_interface")
    for k in ("flash_attn_varlen_func", "get_scheduler_metadata", "fa_version_unsupported_reason",
              "is_fa_version_supported"):
        setattr(fai, k, getattr(fa, k))
    sys.modules["vllm.vllm_flash_attn"] = fa
    sys.modules["vllm.vllm_flash_attn.flash_attn_interface"] = fai
    return FLASH_CALLS
