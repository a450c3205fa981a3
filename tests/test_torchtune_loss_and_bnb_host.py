"""torchtune's eager cross-entropy and bitsandbytes' host path per parameter tensor, counted from their source:
- the loss: torchtune's TransformerDecoder.forward returns self.output(h).float() and the recipe runs
  torch.nn.CrossEntropyLoss on it (torchtune/modules/transformer.py, recipes/full_finetune_single_device.py at
  1814feb17a9038e1a8053ce93111bd26774a8db6); PyTorch's kernels for a vocabulary row wider than a block's shared memory
  (aten/src/ATen/native/cuda/SoftMax.cu: cunn_SoftMaxForward reads the row for its max, for the sum of exponentials and
  to write it; cunn_SoftMaxBackward reads the gradient for its sum, then gradient and output to write), nll_loss's
  backward zero-fill of its fp32 gradient, and the upcast with its backward;
- bitsandbytes at tag 0.44.1: after each tensor's torch.cuda.synchronize() (bitsandbytes/optim/optimizer.py
  Optimizer8bit.step) the GPU waits for the host's Python path to the next tensor's kernel: Optimizer2State.update_step
  (p.data = p.data.contiguous(), p.grad = p.grad.contiguous()) and functional.optimizer_update_8bit_blockwise (get_ptr's
  .data alias of eight tensors); a paged optimizer's prefetch_state adds get_ptr of both states.
"""

from __future__ import annotations

import pytest

from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.host import host_figures
from engine.timing.model import step_time

# bytes per logit, fp32 rows of the vocabulary after the bf16 logits are upcast
UPCAST = 2 + 4  # .float(): read bf16, write fp32
LOG_SOFTMAX = 3 * 4 + 4  # max pass, sum-of-exponentials pass, write pass (reads the row again), one fp32 write
NLL_BACKWARD = 4  # grad_input.zero_() of the fp32 gradient before the scatter of one value per row
LOG_SOFTMAX_BACKWARD = 3 * 4 + 4  # the gradient's sum, then gradient and output read to write the input gradient
UPCAST_BACKWARD = 4 + 2  # the fp32 gradient cast back to bf16
EAGER_ATEN = UPCAST + LOG_SOFTMAX + NLL_BACKWARD + LOG_SOFTMAX_BACKWARD + UPCAST_BACKWARD

BNB_CALLS = 3 + 2 + 8  # update_step's two .contiguous() round trips (3 + 2), get_ptr's eight .data aliases
BNB_PAGED_CALLS = BNB_CALLS + 2  # prefetch_state: F.prefetch_tensor(state1 / state2) -> get_ptr


def _memory_bound(framework: str, **extra) -> float:
    s = {"model": "llama-3.2-3b", "gpu": "a100-80gb", "precision": "bf16", "micro_batch": 2, "seq_len": 4096,
         "framework": framework, **extra}
    return step_time(scenario_from_dict(s)).breakdown_seconds["memory_bound"]


def _loss_seconds(bytes_per_logit: float) -> float:
    """Seconds of the loss's memory traffic for the 3B model's 2 x 4,096 tokens on the A100's achieved bandwidth."""
    s = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb"})
    logits = 2 * 4096 * model_spec_for("llama-3.2-3b").vocab
    return logits * bytes_per_logit / hardware_for(s).memory_bytes_per_s


def test_eager_aten_cross_entropy_is_counted_pass_by_pass():
    table = efficiency()["loss_bytes_per_token_per_vocab"]
    assert table["eager-aten"] == EAGER_ATEN == 48
    # the row is wider than a block's 48 KiB of shared memory, so the multi-pass kernel runs (SoftMax.cu can_use_smem)
    assert model_spec_for("llama-3.2-3b").vocab * 4 > 48 * 1024


def test_torchtune_eager_loss_runs_aten_kernels():
    assert framework_profile("torchtune")["eager_cross_entropy"] == "eager-aten"
    fused = efficiency()["loss_bytes_per_token_per_vocab"]["fused"]
    # torchtune eager with its whole-batch loss ('+ Packed' in its README table) against the same step with a fused loss
    eager = _memory_bound("torchtune", cross_entropy="standard") - _memory_bound("torchtune", cross_entropy="fused")
    assert eager == pytest.approx(_loss_seconds(EAGER_ATEN - fused), rel=1e-6)
    # its chunked loss (the framework's default) runs the same kernels per chunk
    chunked = _memory_bound("torchtune") - _memory_bound("torchtune", cross_entropy="fused")
    assert chunked == pytest.approx(eager, rel=1e-9)


def test_compiled_torchtune_loss_stays_fused_and_other_frameworks_keep_their_count():
    compiled = _memory_bound("torchtune", compile=True, cross_entropy="standard")
    assert compiled == pytest.approx(_memory_bound("torchtune", compile=True, cross_entropy="fused"), rel=1e-9)
    table = efficiency()["loss_bytes_per_token_per_vocab"]
    other = _memory_bound("deepspeed", cross_entropy="standard") - _memory_bound("deepspeed", cross_entropy="fused")
    assert other == pytest.approx(_loss_seconds(table["standard"] - table["fused"]), rel=1e-6)
    # Hugging Face's ForCausalLMLoss runs the same ATen kernels as torchtune (transformers 5.17.0 loss/loss_utils.py:
    # logits.float(), then nn.functional.cross_entropy): the eager count above
    hf = _memory_bound("huggingface", cross_entropy="standard") - _memory_bound("huggingface", cross_entropy="fused")
    assert hf == pytest.approx(_loss_seconds(UPCAST + LOG_SOFTMAX + NLL_BACKWARD + LOG_SOFTMAX_BACKWARD
                                             + UPCAST_BACKWARD - table["fused"]), rel=1e-6)


def test_bitsandbytes_python_calls_per_tensor():
    calls = host_figures()["optimizer_syncs"]["python_calls_per_parameter_tensor"]
    assert calls["adamw-8bit"] == BNB_CALLS
    assert calls["adamw-8bit-paged"] == BNB_PAGED_CALLS


def test_bitsandbytes_host_path_lengthens_the_step_by_its_calls():
    base = {"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune", "precision": "bf16",
            "micro_batch": 2, "seq_len": 4096}
    plain = step_time(scenario_from_dict({**base, "optimizer": "adamw-8bit"})).breakdown_seconds["optimizer"]
    paged = step_time(scenario_from_dict({**base, "optimizer": "adamw-8bit-paged"})).breakdown_seconds["optimizer"]
    # 28 layers x 9 tensors + the tied embedding + the final norm (the paged optimizer's bytes are the same kernel's);
    # prefetch_state's two get_ptr .data aliases stop in PyTorch's Python binding (THPVariable_get_data, no dispatch):
    # each at binding_call_share of a dispatched call (pytorch/pytorch issue #41383: about half of one op's ~2 us)
    tensors = 28 * 9 + 2
    share = host_figures()["optimizer_syncs"]["binding_call_share"]
    assert paged - plain == pytest.approx(tensors * 2 * share * host_figures()["view_seconds"]["value"], rel=1e-6)
