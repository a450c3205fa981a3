"""Per-op selective checkpointing that does not keep the attention kernel's output (scenario key
op_sac_saves_attention false): torchtitan's op_sac_save_list at 6fc499f6f5b32151a799188be2208cfb09faed30
(torchtitan/models/llama3/infra/parallelize.py lines 234-243) names aten.mm, SDPA's memory-efficient and flash ops,
reduce_scatter_tensor and aten.max; _custom_policy returns PREFER_RECOMPUTE for any other op. On Blackwell the same
commit runs SDPA with cuDNN first (torchtitan/models/attention.py ScaledDotProductAttention._init_backend,
has_cuda_capability(10, 0)), so aten._scaled_dot_product_cudnn_attention is recomputed in the backward and its output
is not kept, until pull request #2095 (b39377f9, 2025-12-01) added every SDPA backend to the list."""

import json
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.timing import step_time
from engine.timing.ceiling import without_ceilings

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "torchao-mx-formats.json"
# torchao's power-limited B200 table (pytorch/ao torchao/prototype/mx_formats/README.md at d8bb51f6): Llama3-8b on 8
# B200 through torchtitan 6fc499f, batch 1, sequence 8192, compile, FSDP2, per-op SAC
B200 = {"model": "llama-3-8b", "gpu": "b200-750w", "gpus_per_node": 8, "nodes": 1, "framework": "torchtitan",
        "precision": "mixed-bf16", "compile": True, "micro_batch": 1, "grad_accum": 1, "seq_len": 8192,
        "attention": "flash", "checkpointing": "op-selective", "fsdp": True, "optimizer": "adamw-fused"}


def _s(**kw):
    return scenario_from_dict({**B200, **kw})


def test_auto_keeps_the_attention_output_as_before():
    """auto is every framework's current release (torchtitan saves every SDPA backend since #2095): byte-identical
    to stating true."""
    assert step_time(_s()).seconds == step_time(_s(op_sac_saves_attention=True)).seconds
    assert estimate(_s()).peak_allocated_bytes == estimate(_s(op_sac_saves_attention=True)).peak_allocated_bytes


def test_an_unsaved_attention_kernel_runs_its_forward_again_in_the_backward():
    """The recomputed attention is the layer's attention forward, what checkpointing 'selective' (the attention core
    only, outside Megatron) recomputes; nothing else of the step moves. Without ceilings: the 750 W B200 borrows its
    bf16 dense ceiling from Blackwell runs at its own rate share (engine/timing/hardware.py rate_share), which holds this
    plan's MFU and so stretches its compute term by the step's whole time, a separate mechanism."""
    with without_ceilings():
        kept = step_time(_s()).breakdown_seconds
        recomputed = step_time(_s(op_sac_saves_attention=False)).breakdown_seconds
        attention_forward = step_time(_s(checkpointing="selective")).breakdown_seconds["recompute"]
    assert attention_forward > 0
    assert recomputed["recompute"] - kept["recompute"] == pytest.approx(attention_forward, rel=1e-9)
    assert {k: v for k, v in recomputed.items() if k not in ("recompute", "communication_dp")} == {
        k: v for k, v in kept.items() if k not in ("recompute", "communication_dp")}


def test_an_unsaved_attention_output_is_not_kept():
    """Llama 3 8B (32 layers, 32 heads of 128, bf16) at 8,192 tokens: each block no longer keeps SDPA's output
    (8,192 x 4,096 x 2 bytes) and its fp32 log-sum-exp (8,192 x 32 x 4 bytes), 2,181,038,080 bytes in all."""
    def activations(**kw):
        est = estimate(_s(**kw))
        return next(c for c in est.components if c.key == "activations").moments.forward
    assert activations() - activations(op_sac_saves_attention=False) == 32 * (8192 * 4096 * 2 + 8192 * 32 * 4)


def test_the_b200_rows_state_the_commit_they_ran():
    """torchao's five Llama3-8b rows on the power-limited B200 (the rowwise one added by h-leftovers) ran torchtitan
    6fc499f, before #2095."""
    rows = [r for r in json.loads(ROWS.read_text())["rows"] if r["id"].startswith("torchao-mx-llama3-8b-8xb200pl-")]
    assert len(rows) == 5
    assert all(r["scenario"]["op_sac_saves_attention"] is False and "6fc499f" in r["source"] for r in rows)
