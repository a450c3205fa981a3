"""Host time of Transformer Engine's get_attention_backend for gpt-oss's alternating attention params
(presets/host_overhead.json attention_backend_selection; engine/timing/attention_backend_host.py).

Runs the function's own source (transformer_engine/pytorch/attention/dot_product_attention/utils.py at a TE tag,
e.g. `git show v2.14:PATH > utils.py` from NVIDIA/TransformerEngine) in CPython with torch and TE's C++ extension
stubbed: the device capability and cuDNN version are cached as TE caches them, tex.get_fused_attn_backend is a
Python stub returning F16_arbitrary_seqlen. Prints the backend it selects, its Python and C call counts and the time
of one call, alternating a 128-token window (127, 0) with full attention (-1, 0). N_LOGGERS=n registers n more
loggers (logger.setLevel clears every logger's cache).

Run: .venv/bin/python benchmarks/te_attention_backend_host.py utils.py v2.14
"""
# ruff: noqa
import enum
import functools
import importlib.abc
import importlib.machinery
import logging
import os
import sys
import timeit
import types


class _Any(types.ModuleType):
    def __getattr__(self, k):
        if k.startswith("__"): raise AttributeError(k)
        c = type(k, (), {}); setattr(self, k, c); return c
def mod(name, **kw):
    m = _Any(name); m.__dict__.update(kw); sys.modules[name] = m; return m

class Tensor: pass
class dtype:
    def __init__(self, n): self.n = n
    def __repr__(self): return self.n
class DD(dict):
    def __missing__(self, k): return 0
class FusedAttnBackend(enum.IntEnum):
    No_Backend = -1; F16_max512_seqlen = 0; F16_arbitrary_seqlen = 1; FP8 = 2
class Enum: pass
class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.startswith(("transformer_engine", "torch")) and name not in sys.modules:
            return importlib.machinery.ModuleSpec(name, self)
    def create_module(self, spec): m = _Any(spec.name); m.__path__ = []; return m
    def exec_module(self, m): pass


def _stub_torch_and_te():
    """torch and Transformer Engine as stand-in modules in sys.modules (only when run: importing this file for a
    check must not replace the process's torch)."""
    torch = mod("torch", Tensor=Tensor, bfloat16=dtype("bf16"), float16=dtype("f16"), float32=dtype("f32"),
                float8_e4m3fn=dtype("e4m3"), float8_e5m2=dtype("e5m2"), Size=tuple, device=str, dtype=dtype,
                no_grad=lambda *a, **k: (lambda f: f))
    torch.cuda = mod("torch.cuda", current_device=lambda: 0)
    torch.distributed = mod("torch.distributed"); torch.nn = mod("torch.nn"); torch.nn.functional = mod("torch.nn.functional")
    torch.__version__ = "2.9.0"; torch.autograd = mod("torch.autograd"); torch.Size = tuple; torch.version = mod("torch.version", cuda="12.9")
    tex = mod("transformer_engine_torch", NVTE_Fused_Attn_Backend=FusedAttnBackend,
              get_fused_attn_backend=lambda *a: FusedAttnBackend.F16_arbitrary_seqlen)
    te = mod("transformer_engine", __version__="2.14.0"); te.__path__ = []
    mod("transformer_engine.pytorch").__path__ = []
    for k in ("QKVLayout", "AttnBiasType", "AttnMaskType", "SoftmaxType"):
        pass
    fa = mod("transformer_engine.pytorch.cpp_extensions.fused_attn", QKVLayout=DD(), AttnBiasType=DD(), AttnMaskType=DD(),
             SoftmaxType=DD(), FusedAttnBackend={"F16_arbitrary_seqlen": FusedAttnBackend.F16_arbitrary_seqlen,
                                                "No_Backend": FusedAttnBackend.No_Backend,
                                                "F16_max512_seqlen": FusedAttnBackend.F16_max512_seqlen,
                                                "FP8": FusedAttnBackend.FP8},
             META_QKV=0, META_DQKV=0, META_O=0, META_DO=0, META_S=0, META_DP=0)
    mod("transformer_engine.pytorch.cpp_extensions", get_cudnn_version=lambda: 91300).__path__ = []
    class InferenceParams: pass
    mod("transformer_engine.pytorch.attention").__path__ = []
    mod("transformer_engine.pytorch.attention.inference", InferenceParams=InferenceParams)
    class Float8Tensor: pass
    mod("transformer_engine.pytorch.tensor").__path__ = []
    mod("transformer_engine.pytorch.tensor.float8_tensor", Float8Tensor=Float8Tensor, Float8Quantizer=object,
        Float8CurrentScalingQuantizer=object)
    mod("transformer_engine.pytorch.fp8", get_fp8_te_dtype=None, FP8GlobalStateManager=None)
    mod("transformer_engine.pytorch.quantization", get_fp8_te_dtype=None)
    mod("transformer_engine.pytorch.constants", TE_DType=DD(), dist_group_type=object)
    @functools.lru_cache
    def _cc(dev): return (9, 0)
    def get_device_compute_capability(): return _cc(torch.cuda.current_device())
    @functools.lru_cache(maxsize=None)
    def get_cudnn_version(): return (9, 13, 1)
    mod("transformer_engine.pytorch.utils", get_device_compute_capability=get_device_compute_capability,
        get_cudnn_version=get_cudnn_version, SplitAlongDim=None, combine_tensors=None, nvtx_range_push=None,
        nvtx_range_pop=None)
    mod("transformer_engine.pytorch.export", is_in_onnx_export_mode=lambda: False)
    mod("transformer_engine.pytorch.jit", jit_fuser=lambda f: f)
    mod("transformer_engine.pytorch.tensor.quantized_tensor", QuantizedTensor=object, Quantizer=object,
        QuantizedTensorStorage=object, prepare_for_saving=None, restore_from_saved=None)
    sys.meta_path.insert(0, Finder())
    return torch


def _load_utils(src_path):
    """get_attention_backend's module, run from its own source file."""
    code = open(src_path).read()
    u = types.ModuleType("dpa_utils"); u.__file__ = src_path
    exec(compile(code, src_path, "exec"), u.__dict__)
    # the container ships flash-attn 2 (and on Hopper FA3): installed, as in NeMo containers
    from packaging.version import Version as PkgVersion
    F = u.FlashAttentionUtils
    F.is_installed = True
    F.version = PkgVersion("2.7.4.post1")
    for name in [k for k in vars(F) if k.startswith("v2_") and k.endswith("_plus")]:
        setattr(F, name, True)  # flash-attn 2.7.4 is past every 2.x threshold
    if hasattr(u, "AttentionLogging") and hasattr(u.AttentionLogging, "setup_logging"):
        u.AttentionLogging.setup_logging()
    return u


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: te_attention_backend_host.py UTILS_PY TAG (Transformer Engine's transformer_engine/pytorch/"
                 "attention/dot_product_attention/utils.py at TAG, e.g. `git show v2.14:PATH > utils.py`)")
    src_path, tag = argv
    torch = _stub_torch_and_te()
    u = _load_utils(src_path)
    # a process with the loggers of a training run (NeMo/Megatron/Lightning register dozens): logging's cache reset on
    # setLevel walks all of them
    n_loggers = int(os.getenv("N_LOGGERS", "0"))
    for i in range(n_loggers):
        logging.getLogger(f"pkg{i // 10}.mod{i}")
    params_names = [f.name for f in u.fields(u.AttentionParams)]
    def make(window):
        kw = dict(qkv_type=Tensor, qkv_dtype=torch.bfloat16, qkv_layout="sbhd_sbhd_sbhd", batch_size=1, num_heads=64,
                  num_gqa_groups=8, max_seqlen_q=4096, max_seqlen_kv=4096, head_dim_qk=64, head_dim_v=64,
                  attn_mask_type="causal", window_size=window, alibi_slopes_shape=None, core_attention_bias_type="no_bias",
                  core_attention_bias_shape=None, core_attention_bias_requires_grad=False, pad_between_seqs=False,
                  attention_dropout=0.0, context_parallel=False, cp_comm_type="p2p", deterministic=False,
                  is_training=True, fp8=False, fp8_meta={"fp8_checkpoint": False, "fp8_group": None},
                  inference_params=None, softmax_type="learnable", return_max_logit=False)
        return u.AttentionParams(**{k: v for k, v in kw.items() if k in params_names})
    a, b = make((127, 0)), make((-1, 0))
    assert a != b
    res = u.get_attention_backend(a)
    print(tag, "selected: flash", res[0], "fused", res[2], res[3], "unfused", res[4])
    counts = {"call": 0, "c_call": 0}
    def prof(frame, event, arg):
        if event in counts: counts[event] += 1
    sys.setprofile(prof); u.get_attention_backend(b); sys.setprofile(None)
    print(tag, "python calls", counts["call"] - 1, "C calls", counts["c_call"])
    def one(): u.get_attention_backend(a); u.get_attention_backend(b)
    t = min(timeit.repeat(one, number=200, repeat=15)) / 400
    def cmp(): a == b
    tc = min(timeit.repeat(cmp, number=2000, repeat=15)) / 2000
    def noop(): pass
    tn = min(timeit.repeat(noop, number=100000, repeat=15)) / 100000
    print(tag, f"get_attention_backend {t*1e6:.1f} us; AttentionParams != {tc*1e6:.2f} us; empty call {tn*1e9:.0f} ns; loggers {len(logging.root.manager.loggerDict)}")


if __name__ == "__main__":
    main(sys.argv[1:])
