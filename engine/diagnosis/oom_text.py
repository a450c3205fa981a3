"""Read an out-of-memory report out of pasted text: PyTorch's allocator message in every wording it has had, the
CUDA runtime's bare "out of memory", and the wrappers around them (torchrun's "[rank0]:" and the DeepSpeed
launcher's "host:" line prefixes, Accelerate's batch-size finder, DeepSpeed's allocator-flush warning).

Wordings (c10/cuda/CUDACachingAllocator.cpp, github.com/pytorch/pytorch, by release):
- 1.0-1.3: "CUDA out of memory. Tried to allocate A (GPU g; T total capacity; U already allocated; F free; C cached)"
- 1.4-2.0: "... (GPU g; T total capacity; U already allocated; F free; [L allowed; ]R reserved in total by PyTorch)"
- 2.1: "... Tried to allocate A. GPU g has a total capacty of T of which F is free. [Process p has P memory in use. |
  Including non-PyTorch memory, this process has P memory in use. ]Of the allocated memory U is allocated by
  PyTorch, and Z is reserved by PyTorch but unallocated." ("capacty" is the release's own spelling)
- 2.2 on: "capacity"; "L allowed; " after the process figures; 2.4 on (pull 124673): "U is allocated by PyTorch,
  with Q allocated in private pools (e.g., CUDA Graphs), and Z is reserved ..." where U includes Q.
ROCm builds say "HIP out of memory", Intel's "XPU out of memory"; the rest is the same text.
The text is searched with str.find and short, bounded patterns over a window of a few kB: time is linear in the
text's length whatever it holds, and nothing from it is ever shown (only the numbers read from it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from .sizes import SIZE, first_size, size_bytes

MAX_TEXT_CHARS = 4_000_000  # a whole training log of a few MB; more is not a pasted message
_BEFORE, _AFTER = 400, 2_500  # the message's window around "Tried to allocate"
_TRACE_CHARS = 20_000  # the traceback looked at for the phase
_MAX_PROCESSES = 64

_I = re.IGNORECASE
TRIED = re.compile(r"Tried to allocate " + SIZE, _I)
GPU = re.compile(r"(?:\((?:GPU|Device) (\d{1,5});|(?:GPU|Device|MLU) ?(\d{1,5}) has a total capac)", _I)
TOTAL = re.compile(r"(?:total capaci?ty of " + SIZE + r"|" + SIZE + r" total capacity)", _I)
FREE = re.compile(r"(?:of which " + SIZE + r" is free|; " + SIZE + r" free\b)", _I)
ALREADY = re.compile(SIZE + r" already allocated", _I)
RESERVED_TOTAL = re.compile(SIZE + r" reserved in total by PyTorch", _I)
CACHED = re.compile(SIZE + r" cached\b", _I)
ALLOWED = re.compile(SIZE + r" allowed\b", _I)
THIS_PROCESS = re.compile(r"this process has " + SIZE + r" memory in use", _I)
PROCESS = re.compile(r"Process \d{1,10} has " + SIZE + r" memory in use", _I)
ALLOCATED_NEW = re.compile(r"Of the allocated memory " + SIZE + r" is allocated by PyTorch", _I)
PRIVATE = re.compile(r"with " + SIZE + r" allocated in private pools", _I)
UNALLOCATED = re.compile(SIZE + r" is reserved by PyTorch but unallocated", _I)
MPS = re.compile(r"MPS allocated: " + SIZE + r", other allocations: " + SIZE + r", max allowed: " + SIZE, _I)
LINE_PREFIX = re.compile(r"^\s{0,8}(?:\[(?:rank|default)\d{1,6}\]:|[\w.-]{1,64}:(?= ))", re.MULTILINE)
DEEPSPEED_FLUSHES = re.compile(r"(\d{1,9}) pytorch allocator cache flushes since last step", _I)

# Where in a step a traceback's innermost frames are: the keyword found last (nearest the error) names the phase.
PHASE_WORDS: dict[str, tuple[str, ...]] = {
    "load": ("from_pretrained", "load_state_dict", "set_module_tensor_to_device", "accelerator.prepare", "_apply(",
             "deepspeed.initialize", "load_checkpoint", "prepare_model", "model.cuda", ".to(device", " in _apply",
             # a Trainer being built: transformers' Trainer.__init__ places the model on the GPU (_move_model_to_device)
             "trainer("),
    "forward": ("forward(", "forward_call", "_call_impl", "modeling_"),
    "loss": ("cross_entropy", "loss_fct", "log_softmax", "compute_loss"),
    "backward": ("backward(", "run_backward", "_execution_engine", "autograd/__init__", "autograd.backward"),
    "optimizer": ("optimizer.step", "optimizer.py", "exp_avg", "_adam", "adamw", "init_state", "step_closure",
                  "_optimizer_step", "zero/stage"),
}


# torch/optim/adamw.py (and adam.py) of 2.0: `denom = torch._foreach_add(exp_avg_sq_sqrt, eps)`, out of place; from 2.1
# on eps is added in place (pytorch/pytorch PR #104898), so this line in a traceback dates the run before 2.1.
EPS_OUT_OF_PLACE = "_foreach_add(exp_avg_sq_sqrt, eps)"


@dataclass(frozen=True)
class OomReport:
    """What an out-of-memory message says, in bytes; None for what its wording does not give."""

    # "allocator" (PyTorch's message), "runtime" (the CUDA runtime's bare error), "batch_finder" (Accelerate's batch-size
    # finder gave up), "cache_flushes" (no error yet: DeepSpeed ZeRO-3 warns that the allocator had to empty its cache)
    kind: str
    wording: str  # which release's text: "pytorch-1.0", "pytorch-1.4", "pytorch-2.1", "mps", "cuda-runtime", ...
    backend: str  # CUDA, HIP, XPU, MPS
    gpu_index: int | None
    tried_to_allocate_bytes: int | None
    total_capacity_bytes: int | None
    free_bytes: int | None
    process_in_use_bytes: int | None
    allocated_by_pytorch_bytes: int | None
    reserved_unallocated_bytes: int | None
    private_pools_bytes: int | None = None
    allowed_bytes: int | None = None
    other_processes_bytes: int | None = None
    messages_in_text: int = 1  # OOM messages in the text (one per rank that failed)
    phase: str | None = None  # load, forward, loss, backward, optimizer: from the traceback, when there is one
    allocator_flushes: int | None = None  # DeepSpeed's "N pytorch allocator cache flushes since last step"
    notes: tuple[Message, ...] = ()
    eps_out_of_place: bool = False  # the traceback shows foreach AdamW adding eps out of place: PyTorch before 2.1

    @property
    def reserved_bytes(self) -> int | None:
        """Reserved by PyTorch's allocator: allocated plus cached but unallocated."""
        if self.allocated_by_pytorch_bytes is None or self.reserved_unallocated_bytes is None:
            return None
        return self.allocated_by_pytorch_bytes + self.reserved_unallocated_bytes

    def oom_json(self) -> dict[str, int | None]:
        return {"gpu_index": self.gpu_index, "tried_to_allocate_bytes": self.tried_to_allocate_bytes,
                "total_capacity_bytes": self.total_capacity_bytes, "free_bytes": self.free_bytes,
                "process_in_use_bytes": self.process_in_use_bytes,
                "allocated_by_pytorch_bytes": self.allocated_by_pytorch_bytes,
                "reserved_unallocated_bytes": self.reserved_unallocated_bytes}


def no_message_error() -> PlannerError:
    return PlannerError(QT_TRANSLATE_NOOP("engine", "No out-of-memory message was found in this text: paste the "
                                                    "error PyTorch printed (it contains \"out of memory\")."))


def parse_oom_text(text: str) -> OomReport:
    """The report of the first out-of-memory message in `text`; PlannerError (one sentence) when there is none."""
    if len(text) > MAX_TEXT_CHARS:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This text is longer than {limit} characters, more than an "
                                                       "error message or log; paste the part with the error."),
                           limit=f"{MAX_TEXT_CHARS:,}")
    low = text.lower()
    at = low.find("tried to allocate")
    if at >= 0:
        return _allocator_report(text, low, at)
    for needle, kind, wording in (("no executable batch size found", "batch_finder", "accelerate-batch-finder"),
                                  ("cublas_status_alloc_failed", "runtime", "cublas"),
                                  ("out of memory", "runtime", "cuda-runtime"),
                                  ("pytorch allocator cache flushes", "cache_flushes", "deepspeed-cache-flushes")):
        at = low.find(needle)
        if at >= 0:
            return _bare_report(text, low, at, kind, wording)
    raise no_message_error()


def _window(text: str, at: int) -> str:
    """The message around `at`, line prefixes of launchers taken off and whitespace made single spaces."""
    raw = text[max(0, at - _BEFORE): at + _AFTER]
    return " ".join(LINE_PREFIX.sub("", raw).split())


def _backend(window_low: str) -> str:
    for word, name in (("hip out of memory", "HIP"), ("xpu out of memory", "XPU"), ("mps backend", "MPS")):
        if word in window_low:
            return name
    return "CUDA"


def _allocator_report(text: str, low: str, at: int) -> OomReport:
    w = _window(text, at)
    tail = w[max(0, w.lower().find("tried to allocate")):]
    count = min(low.count("tried to allocate"), 100_000)
    common = {"messages_in_text": count, "phase": guess_phase(low, at), "allocator_flushes": _flushes(text),
              "eps_out_of_place": EPS_OUT_OF_PLACE in low}
    if (m := MPS.search(tail)) is not None:
        return OomReport("allocator", "mps", "MPS", None, first_size(TRIED, tail), size_bytes(m.group(5), m.group(6)),
                         None, None, size_bytes(m.group(1), m.group(2)), None, **common)
    g = GPU.search(tail)
    gpu = int(g.group(1) or g.group(2)) if g else None
    allocated, unallocated, wording = _allocated_and_cache(tail)
    process, others, notes = _process(tail, allocated, unallocated)
    total = _either(TOTAL, tail)
    return OomReport("allocator", wording, _backend(w.lower()), gpu, first_size(TRIED, tail), total,
                     _either(FREE, tail), process, allocated, unallocated, first_size(PRIVATE, tail),
                     first_size(ALLOWED, tail), others, notes=notes, **common)


def _either(pattern: re.Pattern[str], text: str) -> int | None:
    """A pattern with two alternatives, each capturing (number, unit)."""
    m = pattern.search(text)
    if m is None:
        return None
    number, unit = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
    return size_bytes(number, unit)


def _allocated_and_cache(tail: str) -> tuple[int | None, int | None, str]:
    """(allocated by PyTorch, reserved but unallocated, wording) in whichever release's words the text uses."""
    if (allocated := first_size(ALLOCATED_NEW, tail)) is not None or UNALLOCATED.search(tail):
        return allocated, first_size(UNALLOCATED, tail), "pytorch-2.1"
    already = first_size(ALREADY, tail)
    if (reserved := first_size(RESERVED_TOTAL, tail)) is not None:
        unallocated = reserved - already if already is not None and reserved >= already else None
        return already, unallocated, "pytorch-1.4"
    if (cached := first_size(CACHED, tail)) is not None:
        return already, cached, "pytorch-1.0"
    return already, None, "pytorch-partial"


def _process(tail: str, allocated: int | None, unallocated: int | None) -> tuple[int | None, int | None,
                                                                                tuple[Message, ...]]:
    """(this process's memory, other processes' memory, notes). Releases 2.1 on list every process NVML sees on
    the GPU; this process is the one that holds at least what PyTorch reserved, when exactly one does."""
    notes: list[Message] = []
    if (own := first_size(THIS_PROCESS, tail)) is not None or THIS_PROCESS.search(tail):
        listed = [own]
    else:
        listed = [size_bytes(m.group(1), m.group(2)) for _, m in zip(range(_MAX_PROCESSES), PROCESS.finditer(tail),
                                                                     strict=False)]
    if any(v is None for v in listed):
        notes.append(message(QT_TRANSLATE_NOOP("engine", "The driver did not report a process's memory (it printed "
                                                         "an impossible figure, as under WSL); it is left out.")))
    known = [v for v in listed if v is not None]
    if len(known) <= 1:
        return (known[0] if known else None), None, tuple(notes)
    reserved = (allocated or 0) + (unallocated or 0)
    holders = [v for v in known if v >= reserved]
    own = holders[0] if len(holders) == 1 else None
    others = sum(known) - own if own is not None else None
    return own, others, tuple(notes)


def _bare_report(text: str, low: str, at: int, kind: str, wording: str) -> OomReport:
    """A message without figures: the runtime's "CUDA error: out of memory" or a wrapper's sentence."""
    w = _window(text, at).lower()
    return OomReport(kind, wording, _backend(w), None, None, None, None, None, None, None,
                     messages_in_text=min(low.count("out of memory"), 100_000) or 1, phase=guess_phase(low, at),
                     allocator_flushes=_flushes(text))


def _flushes(text: str) -> int | None:
    m = DEEPSPEED_FLUSHES.search(text)
    return int(m.group(1)) if m else None


def guess_phase(low: str, at: int) -> str | None:
    """The part of the step the traceback was in: its innermost known frame (Python prints innermost last, so
    the keyword nearest before the error); after the error when nothing precedes it (some loggers print it after)."""
    before = low[max(0, at - _TRACE_CHARS): at]
    best, best_at = None, -1
    for phase, words in PHASE_WORDS.items():
        where = max(before.rfind(word) for word in words)
        if where > best_at:
            best, best_at = phase, where
    if best is not None:
        return best
    after = low[at: at + _TRACE_CHARS]
    found = [(min((i for i in (after.find(w) for w in words) if i >= 0), default=-1), phase)
             for phase, words in PHASE_WORDS.items()]
    found = [f for f in found if f[0] >= 0]
    return min(found)[1] if found else None
