"""What llama.cpp's quantized decode reached on the measured llama-bench rows (tests/data/published/serving_speed.json),
set beside what the estimate assumes. Diagnostics, not corrections: nothing here changes an estimate.

- gguf_size_gib: the GGUF model's size as the engine counts it, the GPU's weights plus token_embd (llama.cpp keeps it
  in CPU memory, engine/serving/llama_cpp.py), to hold against llama-bench's printed "size" (the sum of the file's
  tensor bytes) where a row states it. This checks the bits per weight of each GGUF type (ggml's block sizes,
  presets/weight_formats.json) and the per-tensor mix (llama_tensor_get_type) against the build that was measured.
- effective_weight_bandwidth: a single-stream decode row's measured tokens/s times the weights the estimate reads per
  token, i.e. the bandwidth the whole token step reached over those bytes (launches, norms, attention and the KV read
  included: at tg128's context of at most 128 they are a few percent of the bytes), as a fraction of the GPU's peak
  (presets/gpus.json). The estimate reads the weights at hardware_for(s).memory_bytes_per_s. For a MoE model the
  bytes are those one token reads, the shared weights and top_k of n_experts experts (as engine/serving/speed.py's
  decode step at one token), not the whole file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from ..serving.scenario_estimate import serving_memory
from ..serving.weights import expert_byte_share, touched_expert_read_fraction
from ..timing.hardware import hardware_for

GGUF_ROW_ENGINES = ("llama.cpp", "ollama")
_STATED_SIZE = re.compile(r"\|\s*([0-9.]+)\s*GiB\s*\|")


@dataclass(frozen=True, slots=True)
class DecodeRate:
    id: str
    gpu: str
    weight_format: str
    weight_bytes_per_token: float  # the GPU's weights one token reads (a MoE's touched experts only)
    measured_tokens_per_second: float
    effective_bytes_per_s: float  # weight_bytes_per_token x measured_tokens_per_second
    peak_bytes_per_s: float  # presets/gpus.json memory_bandwidth_bytes_per_s
    estimate_bytes_per_s: float  # what the estimate reads weights at (hardware_for(s).memory_bytes_per_s)

    @property
    def fraction_of_peak(self) -> float:
        return self.effective_bytes_per_s / self.peak_bytes_per_s

    @property
    def estimate_fraction_of_peak(self) -> float:
        return self.estimate_bytes_per_s / self.peak_bytes_per_s


def stated_size_gib(row: dict[str, Any]) -> float | None:
    """llama-bench's printed model size in GiB where the row's `stated` line carries it."""
    found = _STATED_SIZE.search(row.get("stated", ""))
    return float(found.group(1)) if found else None


def gguf_size_gib(row: dict[str, Any]) -> float:
    """The engine's GGUF size of the row's model: weights on the GPU + what stays in CPU memory (token_embd), in GiB
    (every layer offloaded, as the llama-bench rows run with -ngl 99). A model with tied embeddings has one
    token_embd in its file, which llama.cpp loads twice: the output layer on the GPU is created from it with
    TENSOR_DUPLICATED (llama_model::load_tensors, `if (output == NULL) output = create_tensor(tn(LLM_TENSOR_TOKEN_EMBD,
    "weight"), {n_embd, n_vocab}, TENSOR_DUPLICATED)`, e.g. code-search index file ids 60324182843, 57533112472), so
    the file's size counts the GPU's copy alone (Llama 3.2 3B Q4_K_M: llama-bench's 1.87 GiB)."""
    s = scenario_from_dict(row["scenario"])
    memory = serving_memory(s)
    host = 0.0 if resolve_model(s).tied_embeddings else memory.host_bytes
    return (memory.bytes_of("weights") + host) / 2**30


def weight_bytes_read_per_token(row: dict[str, Any]) -> float:
    """The GPU's weight bytes one decode token reads: all of a dense model's; of a MoE's, the non-expert weights and
    top_k / n_experts of the experts' (weights.touched_expert_read_fraction at one token, the experts' share of the
    GPU-held bytes in the file's own types, token_embd in CPU memory: expert_byte_share, as speed.py's decode step)."""
    s = scenario_from_dict(row["scenario"])
    weights, spec = serving_memory(s).bytes_of("weights"), resolve_model(s)
    return weights * touched_expert_read_fraction(spec, 1, expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep, False))


def effective_weight_bandwidth(row: dict[str, Any]) -> DecodeRate | None:
    """The bandwidth a single-stream decode row reached over the weights the estimate reads per token; None for a
    row that is not a llama.cpp / ollama decode rate at concurrency 1."""
    measured = row.get("measured", {}).get("tokens_per_second")
    work = row.get("workload", {})
    if (row.get("engine") not in GGUF_ROW_ENGINES or not measured or work.get("concurrency") != 1
            or work.get("rate_over", "decode") != "decode"):
        return None
    s = scenario_from_dict(row["scenario"])
    weights = weight_bytes_read_per_token(row)
    peak = get_gpu(s.gpu).memory_bandwidth_bytes_per_s if isinstance(s.gpu, str) else None
    if not peak:
        return None
    return DecodeRate(id=row["id"], gpu=str(s.gpu), weight_format=s.weight_format, weight_bytes_per_token=weights,
                      measured_tokens_per_second=measured, effective_bytes_per_s=weights * measured,
                      peak_bytes_per_s=float(peak), estimate_bytes_per_s=hardware_for(s).memory_bytes_per_s)


__all__ = ["DecodeRate", "effective_weight_bandwidth", "gguf_size_gib", "stated_size_gib", "weight_bytes_read_per_token"]
