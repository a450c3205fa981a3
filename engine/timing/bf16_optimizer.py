"""DeepSpeed's BF16_Optimizer in the step time: bf16 training without ZeRO (scenario/behaviour.py bf16_optimizer says
when DeepSpeed takes it). Its memory-bound passes over the gradients, counted from microsoft/DeepSpeed at 15293139f
(2022-02-28, the olruwase/bf16-updates branch BigScience's layout experiments of that day ran; merged unchanged in
these lines as 56c522386, pull request #1801):

- every micro-batch (PipelineEngine._exec_backward_pass, or BF16_Optimizer.backward on the last stage): the bf16
  gradients are set to None before the backward (clear_lp_grads), so autograd writes them fresh and adds nothing in
  bf16, then update_hp_grads runs hp_grad.data.add_(lp.grad.data.to(hp_grad.dtype)) for each parameter: the cast
  reads 2 bytes and writes a 4-byte temporary, the add reads it and the fp32 gradient and writes the sum: 18 bytes a
  parameter, the first micro-batch included (where ZeRO-1's AccumulateGrad adds 6 from the second on);
- once a step, the data-parallel reduce (pipe/engine.py _bf16_reduce_grads -> engine.py buffered_allreduce_fallback
  over the fp32 flat groups -> allreduce_bucket): the flat group is flattened as itself (one tensor:
  torch/csrc/utils/tensor_flatten.h returns its view), cast to the communication type, bf16 without ZeRO
  (engine.py communication_data_type: 4 + 2), averaged after the all-reduce (mul_, 2 + 2: gradient_predivide_factor
  1.0 is not the world size) and copied back into fp32 (2 + 4); the step's global norm reads every fp32 gradient
  (get_grads_for_norm, 4) and clear_hp_grads zeroes them (4): 24 bytes a parameter. The all-reduce itself (bf16, 2
  bytes a gradient) and the gather of the updated bf16 shards (all_gather_dp_groups) are data_parallel.py's.

Not counted: allreduce_and_copy's buf.copy_(synced) of the flat group onto itself, and clip_tensors_by_global_norm's
mul_ (it runs only when the norm exceeds the clip value)."""

from __future__ import annotations

from typing import Any

from ..memory.states import Dtypes
from ..scenario import Scenario
from ..scenario.behaviour import bf16_optimizer
from .data_parallel import StageWork, accumulation_seconds
from .gemm import Rates

# bytes per parameter (module docstring: the lines they are counted from)
MICRO_BATCH_BYTES_PER_PARAM = 2 + 4 + 4 + 4 + 4  # update_hp_grads: lp.grad.to(fp32), hp_grad.add_
STEP_BYTES_PER_PARAM = (4 + 2) + (2 + 2) + (2 + 4) + 4 + 4  # cast, average, copy back; norm; zero_


def kept_gradients_seconds(s: Scenario, prof: dict[str, Any], rates: Rates, dt: Dtypes, busiest: StageWork) -> float:
    """Memory-bound seconds a step spends keeping its gradients over the micro-batches: BF16_Optimizer's passes into
    its fp32 gradients (module docstring) where DeepSpeed takes it, else what the framework's own accumulation costs
    (data_parallel.py accumulation_seconds: autograd's AccumulateGrad)."""
    if not bf16_optimizer(s):
        return accumulation_seconds(s, prof, rates, dt, busiest)
    per_step = s.grad_accum * MICRO_BATCH_BYTES_PER_PARAM + STEP_BYTES_PER_PARAM
    return per_step * busiest.trainable / rates.memory
