"""The loss paths of the measured H200 runs, counted from their source:
- Hugging Face's ForCausalLMLoss (transformers 5.17.0 loss/loss_utils.py: logits.float(), then
  nn.functional.cross_entropy over the vocabulary) runs ATen's multi-pass softmax kernels on rows wider than a block's
  shared memory (presets/efficiency.json loss_bytes_per_token_per_vocab eager-aten, frameworks huggingface
  eager_cross_entropy);
- Liger-Kernel's fused linear cross-entropy (linkedin/Liger-Kernel src/liger_kernel/ops/fused_linear_cross_entropy.py
  at 00eba634) adds each chunk's head weight gradient into a zeroed gradient with addmm (beta 1): chunks of
  next_power_of_2(cdiv(tokens, cdiv(vocab, hidden))) tokens, each reading and writing the whole gradient.
"""

from __future__ import annotations

from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.costs import head_cost, liger_head_grad_seconds, loss_path
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates

MEMORY = 1e12  # illustrative: 1 TB/s
RATES = Rates(1e15, 1e15, 5e14, MEMORY, 2)
# ATen, bytes per vocabulary entry per token: the fp32 upcast (2 + 4), log_softmax's three reads of the fp32 row and
# its write (12 + 4), nll_loss's backward zero-fill (4), the softmax backward's two reads of the gradient and one of the
# output with its write (12 + 4), the cast back (4 + 2)
EAGER_ATEN = (2 + 4) + (12 + 4) + 4 + (12 + 4) + (4 + 2)


def test_hugging_face_runs_atens_multi_pass_cross_entropy():
    s = scenario_from_dict({"model": "llama-3.2-1b", "gpu": "h200", "framework": "huggingface"})
    assert loss_path(s, framework_profile("huggingface")) == "eager-aten"
    assert efficiency()["loss_bytes_per_token_per_vocab"]["eager-aten"] == EAGER_ATEN


def test_liger_accumulates_the_head_gradient_once_per_chunk():
    # Llama-3.2-1B (vocabulary 128,256, hidden 2,048) at 16,384 tokens: cdiv(128256, 2048) = 63, cdiv(16384, 63) = 261,
    # chunks of 512 tokens, 32 of them; Llama-3-8B (hidden 4,096) at 2,048 tokens: 32 chunks of 64
    small, large = model_spec_for("llama-3.2-1b"), model_spec_for("llama-3-8b")
    gradient = 2 * 128256 * 2048  # bytes of the bf16 head gradient
    assert abs(liger_head_grad_seconds(small, 16384, 1, RATES) - 2 * 32 * gradient / MEMORY) < 1e-12
    assert abs(liger_head_grad_seconds(large, 2048, 1, RATES) - 2 * 32 * 2 * gradient / MEMORY) < 1e-12
    s = scenario_from_dict({"model": "llama-3.2-1b", "gpu": "h200", "cross_entropy": "fused-linear"})
    path = loss_path(s, framework_profile(s.framework))
    assert path == "fused-linear"
    _, loss = head_cost(small, 16384, 1, RATES, path)
    assert abs(loss - 16384 * 128256 * 8 / MEMORY - 2 * 32 * gradient / MEMORY) < 1e-12


def test_unsloths_own_fused_loss_keeps_the_plain_fused_figure():
    # Unsloth's fused linear cross-entropy is unsloth_zoo's, not Liger's (engine/frameworks/defaults.py); its
    # gradient accumulation was not read (presets/efficiency.json frameworks unsloth fused_linear_loss)
    s = scenario_from_dict({"model": "llama-3.2-1b", "gpu": "h200", "framework": "unsloth"})
    assert loss_path(s, framework_profile("unsloth")) == "fused"
