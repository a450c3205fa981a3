"""Megatron-LM's unfused vocab-parallel cross-entropy counted kernel by kernel (presets/efficiency.json
loss_bytes_per_token_per_vocab 'megatron-vocab-parallel'), taken by the profiles of the Megatron-LM releases that had
no other loss (megatron-2021: NVIDIA/Megatron-LM de7dc40f88, megatron-2022: 285068c8)."""
import json
from dataclasses import replace
from pathlib import Path

from engine.scenario.format import scenario_from_dict
from engine.timing.costs import loss_path
from engine.timing.data import efficiency, framework_profile

ROWS = Path(__file__).resolve().parent / "data" / "published" / "throughput"


def test_bytes_are_the_kernels_of_cross_entropy_py():
    # de7dc40f88 megatron/model/gpt_model.py post_language_model_processing: output.float() (bf16 read, fp32 written);
    # megatron/mpu/cross_entropy.py _VocabParallelCrossEntropy.forward: torch.max (read), sub_ (read + write),
    # torch.exp(out=) (read + write), .sum (read), div_ (read + write), the softmax saved for backward
    forward = (2 + 4) + 4 + (4 + 4) + (4 + 4) + 4 + (4 + 4)
    # backward: grad_input.mul_(grad_output) on the saved fp32 softmax, then the upcast's backward (fp32 -> bf16)
    backward = (4 + 4) + (4 + 2)
    assert efficiency()["loss_bytes_per_token_per_vocab"]["megatron-vocab-parallel"] == forward + backward == 52


def _first_row(name: str) -> dict:
    return json.loads((ROWS / name).read_text(encoding="utf-8"))["rows"][0]["scenario"]


def test_megatron_lm_of_2021_and_2022_run_the_unfused_loss():
    for name, framework in (("megatron-lm-sc21.json", "megatron-2021"), ("megascale-2024.json", "megatron-2022")):
        s = scenario_from_dict(_first_row(name))
        prof = framework_profile(framework)
        assert s.framework == framework and loss_path(s, prof) == "megatron-vocab-parallel"
        # a scenario that names a fused path keeps it (Transformer Engine's cross-entropy, its own bytes)
        assert loss_path(replace(s, cross_entropy="te"), prof) == "te"


def test_current_megatron_profile_keeps_the_standard_count():
    # framework 'megatron' covers NeMo, Megatron-Bridge and Megatron-LM rows alike, whose configs may set
    # cross_entropy_loss_fusion (a fused path) and were not read row by row: its default loss stays 'standard' (28)
    assert "eager_cross_entropy" not in framework_profile("megatron")
