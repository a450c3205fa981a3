"""Imports every benchmark under benchmarks/ and runs the quick ones' main() on a small input, in a process of its own
(tests/test_benchmarks_import.py starts it once): a benchmark's main() may set a figure "in this process only"
(host_speed_sensitivity.py, lent_host_factor.py), which must not leak into the test run.

    python tests/benchmark_runs.py OUT.json

writes {benchmark: {"imported": traceback or "", "import_printed": chars, "main": traceback or "", "printed": first
lines, "digits": bool, "seconds": float}}; main is run only for the benchmarks in QUICK_MAINS.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import io
import json
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = REPO / "benchmarks"

# Benchmarks that run in an environment of their own (torch, a vLLM release's Python files), never the planner's:
# their docstrings name it. Not imported here (their top-level imports need it), only compiled.
OUTSIDE_ENVIRONMENT = {
    "nemo_rl_worker_output_host": "runs NeMo-RL's worker output loop on vLLM 0.11.2's output objects: torch, vLLM and "
                                  "transformers 4.57.1",
    "verl_dtensor_state_dict_host": "runs torch's FSDP1 DTensor state-dict chunk and full_tensor on the CPU: torch",
    "dgx_host_ratio": "times torch.narrow and vLLM 0.11.2 on the CPU: torch's environment (its docstring: "
                      "/tmp/samplervenv with vLLM 0.11.2's files)",
    "vllm_v0_eager_decode_host": "runs vLLM 0.7.3's model code: torch and the release's Python files",
    "vllm_v0_output_host": "runs vLLM 0.7.3's output processing: torch, tokenizers and the release's Python files",
    "vllm_v0_sampler_host": "runs vLLM 0.7.3's sampler: torch and the release's Python files",
    "vllm_v0_tp_all_reduce_host": "runs vLLM 0.7.3's all-reduce call path: torch, the release's Python files and cc",
    "vllm_v1_eager_forward_host": "runs vLLM 0.11.2's model code: torch and the release's Python files",
    "vllm_v1_engine_step_host": "runs vLLM 0.11.2's engine core: torch and the release's Python files",
    "vllm_v1_output_host": "runs vLLM 0.11.2's output processor: torch, tokenizers and the release's Python files",
}

# main()'s arguments for the benchmarks that finish in about a second on them (measured on the shared 2-core build
# host, h-benchhealth): one row, framework or source where the benchmark takes a filter, else its default run.
# Not here: the reports that rewrite a generated file (accuracy_report, gpu_accuracy_report, speed_accuracy_report,
# posttraining_time_accuracy, serving_speed_accuracy), the speed benchmarks (they time themselves for seconds), the
# ones that need a file from outside (te_attention_backend_host: Transformer Engine's source; gpt_oss_captured_host:
# Megatron-Core's source and torch; hf_layer_host_seconds, verl_*: h-rlops' torch environment) and the slow ones
# (famous_runs, layout_pairs, source_key_sensitivity, ...).
QUICK_MAINS: dict[str, list[str]] = {
    "a2a_dispatcher": ["25.11-qwen3_30b_a3b-dgx-h100-fp8-cs-16"],
    "a2a_overlap": ["megatron-bridge-deepseekv3-dgx-b200-mxfp8-256"],
    "bnb_decode_gap": [],
    "cdna3_kernels": [],
    "cuda_graph_pair_terms": [],
    "error_by_scale": ["hagemann2023"],
    "gpt_oss_framework_twins": [],
    "hgx_nvl72_pairs": [],
    "host_speed_sensitivity": ["1.0", "b300"],
    "interleaved_chunk_gap": [],
    "llm_foundry_rows": [],
    "megatron_ci_host_ratio": [],
    "micro_batch_gap": ["NeMo"],
    "moe_dispatch_regimes": [],
    "moe_layer_kernels": ["megatron-bridge-26.06-pretraining-qwen3_30b_a3b-dgx-gb200-mxfp8-8"],
    "moe_overlap_profile": [],
    "moe_step_gap": ["--unheld", "qwen3_30b_a3b-dgx-h100"],
    "moe_sync_bound": ["megatron-bridge-qwen3_30b_a3b-dgx-h100-fp8-16"],
    "mxfp8_path": ["nemotron_3_nano-dgx-gb200"],
    "nemo_rl_v03_phases": [],
    "nvfp4_twins": [],
    "oom_corpus": [],
    "peft_host_sensitivity": [],
    "posttraining_accuracy": [],
    "qlora_rows": [],
    "routing_imbalance": ["qwen3_30b_a3b-dgx-h100"],
    "serving_accuracy": [],
    "stage_bound": ["lora-llama3_70b-dgx-h100"],
    "torchao_linear_kernels": [],
    "ub_overlap_count": [],
    "verl_lora_host_counts": ["--model-counts"],
    "verl_scoring_gap": [],
    "verl_tp8_rollout_gap": [],
}


def load(stem: str):
    """The benchmark as a module named benchmark_STEM (registered first: a dataclass looks its module up)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{stem}", BENCHMARKS / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run_main(module, argv: list[str]):
    """main() as the command line calls it: with the arguments where it takes them, else reading sys.argv."""
    sys.argv = [module.__file__, *argv]
    result = module.main(argv) if inspect.signature(module.main).parameters else module.main()
    if result not in (None, 0):
        raise RuntimeError(f"main() returned {result!r}")


def check(stem: str) -> dict:
    entry = {"imported": "", "import_printed": 0, "main": "", "printed": "", "digits": False, "seconds": 0.0}
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            module = load(stem)
    except BaseException:  # noqa: BLE001 - SystemExit too: a benchmark that exits on import is the fault reported
        entry["imported"] = traceback.format_exc()
        return entry
    entry["import_printed"] = len(out.getvalue())
    entry["has_main"] = callable(getattr(module, "main", None))
    if stem not in QUICK_MAINS:
        return entry
    out, start = io.StringIO(), time.perf_counter()
    try:
        with contextlib.redirect_stdout(out):
            run_main(module, QUICK_MAINS[stem])
    except BaseException:  # noqa: BLE001
        entry["main"] = traceback.format_exc()
    entry["seconds"] = time.perf_counter() - start
    text = out.getvalue()
    entry["printed"], entry["digits"] = text[:400], any(c.isdigit() for c in text)
    return entry


def main(out_path: str) -> None:
    sys.path.insert(0, str(REPO))
    stems = sorted(p.stem for p in BENCHMARKS.glob("*.py") if p.stem not in OUTSIDE_ENVIRONMENT)
    Path(out_path).write_text(json.dumps({stem: check(stem) for stem in stems}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
