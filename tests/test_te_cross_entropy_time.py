"""Transformer Engine's parallel cross-entropy in the time model (scenario cross_entropy 'te' and 'te-inplace'; Megatron's
cross_entropy_fusion_impl te): bytes per logit of the rank's vocabulary share, counted pass by pass from the kernels
(presets/efficiency.json loss_bytes_per_token_per_vocab te and te-inplace, with their sources). Since v2.18
(NVIDIA/TransformerEngine 01bbe3ee, read at d0067d0) the forward writes an fp32 gradient; v2.2 to v2.17 (read at v2.17)
wrote it over the logits in their own dtype; engine/memory/loss.py _te_loss states the same tensors."""
import dataclasses

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.costs import head_cost, loss_path
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates

BF16, FP32 = 2, 4


def test_bytes_per_logit_are_the_kernels_passes():
    table = efficiency()["loss_bytes_per_token_per_vocab"]
    # v2.18+: online_softmax_kernel reads the logits; cross_entropy_kernel reads them and writes the fp32 gradient;
    # backward's element_mul_kernel scales it in place; autograd casts it to the logits' bf16 for the output layer
    assert table["te"] == BF16 + (BF16 + FP32) + (FP32 + FP32) + (FP32 + BF16) == 22
    # v2.2-v2.17: the same reads, the gradient stored over the logits and scaled in place, all in bf16
    assert table["te-inplace"] == BF16 + (BF16 + BF16) + (BF16 + BF16) == 10


def test_each_release_of_the_kernel_is_timed_as_itself():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "gpus_per_node": 2,
                            "tp": 2, "cross_entropy": "te", "micro_batch": 1, "seq_len": 8192})
    prof = framework_profile("megatron")
    assert loss_path(s, prof) == "te"
    assert loss_path(dataclasses.replace(s, cross_entropy="te-inplace"), prof) == "te-inplace"
    spec = resolve_model(s)
    rates = Rates(1e15, 1e15, 5e14, 3e12, 2)  # any rates: the loss is bytes over the memory rate
    _, te = head_cost(spec, 8192, 2, rates, "te")
    _, inplace = head_cost(spec, 8192, 2, rates, "te-inplace")
    # the vocabulary split over TP (vocab-parallel), 22 and 10 bytes per logit at 3 TB/s
    assert te == pytest.approx(8192 * spec.vocab / 2 * 22 / 3e12)
    assert te / inplace == pytest.approx(22 / 10)


def test_rows_run_before_transformer_engine_2_18_take_the_in_place_kernel():
    """The fp32 gradient came with TransformerEngine 01bbe3ee (merged 2026-07-09, tag v2.18 2026-08-04): a run in a
    NeMo / Megatron-Bridge container of an earlier release, or measured before that merge, ran the in-place kernel
    (h-review22: Together's NeMo 25.11.01 runs and the Megatron-Bridge skills cards' runs of 2026-03 to 2026-06 said
    'te' and were timed at 22 bytes a logit)."""
    import re

    from engine.accuracy.published_throughput import load_rows

    checked = 0
    for r in load_rows():
        path = r["scenario"].get("cross_entropy")
        release = re.search(r"(?:nemo|bridge-)(\d\d)\.(\d\d)", r["id"])
        dated = r["id"].startswith(("mbridge-skill-llama3_70b", "megatron-bridge-skills-qwen3_30b_a3b-h100-16-tp2pp2ep4"))
        if path in ("te", "te-inplace") and (dated or release and (int(release[1]), int(release[2])) < (26, 8)):
            assert path == "te-inplace", r["id"]
            checked += 1
    assert checked >= 200  # the Megatron-Bridge 25.09-26.06 tables, Together's two runs and the skills cards' 13
