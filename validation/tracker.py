"""Fake-tensor memory tracking that imitates the CUDA caching allocator's accounting.

``PhaseMemTracker`` is torch's ``MemTracker`` with four changes:

* every storage is rounded up to a multiple of 512 bytes (upstream only rounds
  for ``cuda`` devices; we trace on the fake *CPU* device because a fake CUDA
  device aborts in backward on a CPU-only torch build);
* per-module peaks are updated only for the modules on the current module stack
  (upstream re-scans every module on every op, which is ~5x slower on 7B models
  and gives the same numbers);
* frozen parameters are tracked as parameters but get no gradient hooks
  (upstream fails with "cannot register a hook on a tensor that doesn't require
  gradient");
* a per-phase peak of the total tracked bytes (and the category break-down at
  that peak) is recorded on every allocation, i.e. exactly what
  ``torch.cuda.max_memory_allocated`` would report between ``reset_phase`` calls.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

import torch
import torch.distributed._tools.mem_tracker as _mt
from torch import nn
from torch.distributed._tools.mem_tracker import MemTracker

CUDA_MIN_ALLOC = 512
TOTAL = _mt._TOTAL_KEY


def _cuda_rounded_mem(self: _mt._WeakRefInfo) -> int:
    mem = self.size * self.element_size
    return math.ceil(mem / CUDA_MIN_ALLOC) * CUDA_MIN_ALLOC


# Round for every device, as the CUDA caching allocator does (only in this process).
_mt._WeakRefInfo._calculate_mem_consumed = _cuda_rounded_mem  # type: ignore[method-assign]


class PhaseMemTracker(MemTracker):
    """MemTracker with CUDA rounding, fast peak updates and per-phase peaks."""

    def __init__(self) -> None:
        super().__init__()
        self._stats_by_fqn: dict[str, Any] = {}
        self.phase: str = "setup"
        self.phase_peak: dict[str, int] = {}
        self.phase_peak_snap: dict[str, dict[str, int]] = {}

    # ---- phase bookkeeping -------------------------------------------------
    def current_total(self) -> int:
        """Bytes of all tracked storages alive now (summed over devices)."""
        return sum(s.get(TOTAL, 0) for s in self._curr_mem_snap.values())

    def current_by_category(self) -> dict[str, int]:
        """Bytes alive now per MemTracker category (e.g. Parameter, Activation)."""
        out: dict[str, int] = {}
        for snap in self._curr_mem_snap.values():
            for k, v in snap.items():
                name = k.value if hasattr(k, "value") else str(k)
                out[name] = out.get(name, 0) + v
        return out

    def reset_phase(self, phase: str) -> None:
        """Start a new phase whose peak starts at the bytes alive now."""
        self.phase = phase
        self.phase_peak[phase] = self.current_total()
        self.phase_peak_snap[phase] = self.current_by_category()

    def _update_snap(self, u_type: Any, winfo: Any, old_mem_consumed: Any = None,
                     old_reftype: Any = None) -> None:
        super()._update_snap(u_type, winfo, old_mem_consumed, old_reftype)
        if u_type in (_mt._UpdateType.ADD, _mt._UpdateType.SIZE):
            total = self.current_total()
            if total > self.phase_peak.get(self.phase, -1):
                self.phase_peak[self.phase] = total
                self.phase_peak_snap[self.phase] = self.current_by_category()

    # ---- faster module peaks -----------------------------------------------
    def _pre_fw_hook(self, module: nn.Module, inputs: Any) -> None:
        super()._pre_fw_hook(module, inputs)
        stats = self.memory_tracking[module]
        self._stats_by_fqn[stats.mod_fqn] = stats

    def reset_mod_stats(self) -> None:
        super().reset_mod_stats()
        self._stats_by_fqn.clear()

    def _update_peak_stats(self, peak_state: Any) -> None:
        curr_snap = self._curr_mem_snap
        for fqn in list(self._mod_tracker.parents):
            mod_stats = self._stats_by_fqn.get(fqn)
            if mod_stats is None or peak_state not in mod_stats.snapshots:
                continue
            for dev, dev_snap in curr_snap.items():
                if mod_stats.local_peak.get(dev, 0) < dev_snap[TOTAL]:
                    mod_stats.local_peak[dev] = dev_snap[TOTAL]
                    mod_stats.snapshots[peak_state][-1][dev] = dict(dev_snap)
        for dev, dev_snap in curr_snap.items():
            if self._peak_mem.get(dev, 0) < dev_snap[TOTAL]:
                self._peak_mem[dev] = dev_snap[TOTAL]
                self._peak_mem_snap[dev] = dict(dev_snap)

    # ---- frozen parameters ---------------------------------------------------
    def _track_module_params_and_buffers(
        self, module: nn.Module, install_grad_hooks: bool = True
    ) -> tuple[int, int]:
        def _grad_hook(grad: torch.Tensor) -> None:
            self._update_and_maybe_create_winfos(grad, _mt._MemRefType.GRAD)

        param_memory = 0
        for param in module.parameters():
            winfos = self._update_and_maybe_create_winfos(param, _mt._MemRefType.PARAM)
            param_memory += sum(w.mem_consumed for w in winfos)
            if param.grad is not None:
                self._update_and_maybe_create_winfos(param.grad, _mt._MemRefType.GRAD)
            if (
                install_grad_hooks
                and param.requires_grad  # frozen parameters are hidden from the hooks
                and self._param_to_grad_hook_handles.get(param, None) is None
            ):
                h1 = param.register_hook(_grad_hook)
                h2 = param.register_post_accumulate_grad_hook(
                    lambda p: _grad_hook(p.grad)
                )
                self._param_to_grad_hook_handles[param] = (h1, h2)
        buffer_memory = 0
        for buffer in module.buffers():
            winfos = self._update_and_maybe_create_winfos(buffer, _mt._MemRefType.BUFFER)
            buffer_memory += sum(w.mem_consumed for w in winfos)
        return param_memory, buffer_memory


def patch_transformers_tracing() -> None:
    """Make transformers take a real run's mask path on fake tensors.

    With no attention_mask and no cache (training), transformers looks for packed
    sequences in ``position_ids``; a real run sees none and calls SDPA with
    ``is_causal=True`` and no mask, but on FakeTensors (``is_tracing`` is True for
    them) it keeps the packed-sequence mask, disables the is_causal skip and
    materialises a b*1*s*s mask. Our position_ids are always ``arange(s)`` (one
    sequence per row), so the real answer is "no packing": return None.
    """
    import transformers.masking_utils as mu

    mu.find_packed_sequence_indices = lambda position_ids: None
    _sdpa_as_cuda_for_unequal_head_widths()


def _sdpa_as_cuda_for_unequal_head_widths() -> None:
    """Attention whose Q/K heads are wider than its V heads (MLA: 192 against 128) takes CUDA's memory-efficient SDPA
    kernel on a GPU: the dispatcher (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp) refuses flash, which needs
    equal widths, and check_head_dim_size_mem_efficient accepts unequal V widths. On the CPU the flash kernel refuses
    them too (check_head_dim_size_cpp) and the math kernel runs, which keeps fp32 copies of Q, K, V and the fp32
    b·a·s² softmax a GPU run never builds. On fake tensors the memory-efficient op runs instead (its meta kernel in
    torch/_meta_registrations.py and its autograd formula): the trace follows the GPU run."""
    import torch.nn.functional as F
    from torch._subclasses.fake_tensor import FakeTensor

    if getattr(F.scaled_dot_product_attention, "_as_cuda", False):
        return
    orig = F.scaled_dot_product_attention

    def sdpa(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0,
             is_causal: bool = False, scale: Any = None, enable_gqa: bool = False) -> Any:
        if (isinstance(query, FakeTensor) and query.shape[-1] != value.shape[-1] and attn_mask is None
                and dropout_p == 0.0 and key.shape[-3] == query.shape[-3]):
            grad = query.requires_grad or key.requires_grad or value.requires_grad
            return torch.ops.aten._scaled_dot_product_efficient_attention(
                query, key, value, None, grad, 0.0, is_causal, scale=scale)[0]
        return orig(query, key, value, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal, scale=scale,
                    enable_gqa=enable_gqa)

    sdpa._as_cuda = True  # type: ignore[attr-defined]
    F.scaled_dot_product_attention = sdpa


def clear_fake_memo(fake_mode: Any) -> None:
    """Drop the fake mode's converter memo (it holds weak references to fake tensors)."""
    conv = fake_mode.fake_tensor_converter
    conv.meta_converter.tensor_memo.clear()
    try:
        conv.meta_converter.describer.lookup_tensor.clear()
        conv.meta_converter.describer.lookup_storage.clear()
    except AttributeError:
        pass


@contextlib.contextmanager
def swappable_fake_params(fake_mode: Any) -> Iterator[None]:
    """Let ``Module.to()`` swap fake parameters (``model.to(bf16)``, peft's adapter moves).

    ``Module._apply`` swaps tensor-subclass parameters with ``torch.utils.swap_tensors``,
    which refuses tensors that have weak references; the fake mode's meta-converter
    memo holds such references, so it is cleared right before every swap.
    """
    orig = torch.utils.swap_tensors

    def _swap(t1: torch.Tensor, t2: torch.Tensor) -> None:
        clear_fake_memo(fake_mode)
        orig(t1, t2)

    torch.utils.swap_tensors = _swap
    try:
        yield
    finally:
        torch.utils.swap_tensors = orig
