"""GPT-OSS on H100 in another framework: NeMo AutoModel's published runs against the time model, beside
Megatron-Bridge's (issue 23, the GPT-OSS regime). Megatron-Bridge's bf16 GPT-OSS rows are predicted 30-36% too fast
on H100 (and 66-89% for the GPT-OSS-20B skills pair); if the model mispriced GPT-OSS's layers themselves (sink
attention, the 128-token window, the clamped GLU, biases, YaRN), another framework's run of the same model on the
same GPUs would be predicted too fast as well.

Measured (NVIDIA-NeMo/Automodel docs/performance-summary.md at 89e3a9fd, 2025-10-06, 'feat: Add performance summary
document'; the same rows, unchanged, in docs/performance-summary.mdx at 36044ad3): Pre-Training Performance,
DGX-H100, BF16, 'TE + DeepEP + FlexAttn': GPT-OSS 20B on 8 GPUs, GBS 256, MBS 2, LBS 2, GA 16, sequence 4,096,
TP 1, PP 1, CP 1, FSDP 8: 13,058 tokens/s per GPU; GPT-OSS 120B on 64 GPUs, GBS 512, MBS 2, LBS 2, GA 4, PP 1,
FSDP 64: 7,626 (Megatron-Bridge's recipe on 64 H100, PP 4 x EP 8 at MBS 1, measures 5,630-5,993).
Settings the table leaves out, from the benchmark YAMLs at 89e3a9fd (examples/benchmark/configs/): the 20B's
gptoss_20b_te_deepep.yaml ep_size 8, activation_checkpointing true, backend attn flex, linear te, rms_norm te,
enable_deepep true, fake_balanced_gate true, MaskedCrossEntropy fp32_upcast false: taken. The 120B's YAML at that
commit (pp_size 2, ep_size 16, global_batch_size 256) contradicts its table row (PP 1, GBS 512), and the YAML now
(examples/llm_benchmark/gpt_oss/gptoss_120b_te_deepep.yaml at 36044ad3: ep_size 64, no checkpointing, attn te,
hybridep, since pull request #3497 of 2026-08-11) is later than the figure, so its expert parallelism is not known:
8, 16 and 64 are all shown. FlexAttention (PyTorch's compiled Triton kernels, the sinks as a score_mod, the window as
a block mask) has no kernel entry of its own: cuDNN's rate (attention_kernel cudnn) and the Triton FlashAttention
port's (triton) bracket it. Predictions leave the AutoModel source out of the MFU ceilings, as the accuracy report's
cross-validation does for a row of that source.

Run: .venv/bin/python benchmarks/gpt_oss_framework_twins.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import compare, rows_matching  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing.ceiling import leave_out  # noqa: E402
from engine.timing.model import step_time  # noqa: E402

AUTOMODEL_SOURCE = "NVIDIA-NeMo/Automodel"
_COMMON = {"gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "nemo-automodel-te", "precision": "bf16",
           "micro_batch": 2, "seq_len": 4096, "attention": "flash", "tp": 1, "cp": 1, "fsdp": True,
           "sequence_parallel": False, "reshard_after_forward": False, "cross_entropy": "no-upcast",
           "moe_token_dispatcher_type": "flex"}
# (label, measured tokens/s per GPU, the settings each run's sources state, the settings they leave open)
TWINS = (
    ("GPT-OSS 20B, 8 H100, EP 8, full recompute", 13058.0,
     {"model": "gpt-oss-20b", "nodes": 1, "grad_accum": 16, "ep": 8, "checkpointing": "full"}, ({},)),
    ("GPT-OSS 120B, 64 H100, no recompute", 7626.0,
     {"model": "gpt-oss-120b", "nodes": 8, "grad_accum": 4, "checkpointing": "none"},
     ({"ep": 8}, {"ep": 16}, {"ep": 64})),
)
ATTENTION_KERNELS = ("cudnn", "triton")


def twin_errors() -> list[tuple[str, float, float]]:
    """(label with the open settings and attention kernel, predicted tokens/s per GPU, signed error) per variant."""
    out = []
    for label, measured, stated, open_choices in TWINS:
        for choice in open_choices:
            for kernel in ATTENTION_KERNELS:
                scenario = scenario_from_dict({**_COMMON, **stated, **choice, "attention_kernel": kernel,
                                               "name": label})
                with leave_out(AUTOMODEL_SOURCE):
                    predicted = step_time(scenario).tokens_per_second_per_gpu
                words = ", ".join(f"{k} {v}" for k, v in choice.items())
                out.append((f"{label}{', ' + words if words else ''}, attention {kernel}", predicted,
                            predicted / measured - 1))
    return out


def main(argv: list[str] | None = None) -> None:
    del argv
    print("NeMo AutoModel (DGX-H100, bf16), predicted against measured:")
    for label, predicted, error in twin_errors():
        print(f"  {label:72s} {predicted:8.0f} tokens/s per GPU  {error:+6.1%}")
    print("Megatron-Bridge on H100 (cross-validated, as docs/speed-accuracy.md):")
    rows = [r for r in rows_matching(["gpt_oss"]) if "h100" in r["id"]]
    for c in compare(rows):
        print(f"  {c.id:72s} {c.predicted:8.0f} tokens/s per GPU  {c.error:+6.1%}  (measured {c.measured:,.0f})")


if __name__ == "__main__":
    main()
