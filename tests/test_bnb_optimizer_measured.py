"""bitsandbytes' 8-bit AdamW against PyTorch's AdamW on one A100, as measured by bitsandbytes' own benchmark:
benchmarking/README.md '8-bit Optimizers' of pull request #1908 (bitsandbytes-foundation/bitsandbytes,
refs/pull/1908/head at 0b93027672de7140176ced44aaba19895bf7fa97, benchmarking/optimizer_benchmark_comprehensive.py):
Qwen3-0.6B full fine-tuning in fp32, batch 2 x 128 tokens, NVIDIA A100 80GB, 'Speed vs baseline' (PyTorch AdamW's
step time over the optimizer's): AdamW8bit 0.95x, PagedAdamW8bit 0.88x. Its library is the base of that pull request
(6a18715b, March 2026), whose kOptimizerStatic8bit2StateBlockwise is 0.44.1's (256-element blocks, one a thread;
between them only clang-format and pull request #1877's CUDA/HIP aliases, cub -> bnb_cub, cub::Max() -> BNB_MAX_OP),
with a torch.cuda.synchronize() after each parameter tensor (bitsandbytes/optim/optimizer.py sync_gpu).
The table gives ratios only, so these tests hold the model's ratios to it, not its seconds (docs/time-model-notes.md,
torchtune).
"""

from __future__ import annotations

import pytest

from engine.scenario import scenario_from_dict
from engine.timing.model import step_time

MEASURED_SPEED = {"adamw-8bit": 0.95, "adamw-8bit-paged": 0.88}  # benchmarking/README.md, NVIDIA A100 80GB table
# the model's ratios were 0.940 and 0.920 with the 8-bit kernel at its bytes (1.1% and 4.5% from the table); with
# the kernel costed by its serial loads (engine/timing/blockwise_8bit.py: 6.7 ms more here) they fell to 0.880 and
# 0.862; with the per-tensor Python path costed call by call (of bitsandbytes 0.44.1's 13 calls only the .data setter
# goes through PyTorch's dispatcher, the other 12 stop in its Python binding at half a call: presets/host_overhead.json
# optimizer_syncs, 45.8 -> 24.6 us a tensor) they are 0.939 and 0.929 (-1.2% and +5.5%; docs/time-model-notes.md,
# torchtune). A change to the 8-bit step's cost that moves either beyond this has to be squared with the
# measurement. The A100 80GB's measured element-wise rate (BabelStream Triad, 0.834 of peak where 0.85 was taken;
# presets/efficiency.json memory_bandwidth_fraction _gpu, h-hbm) slows PyTorch's AdamW more than the 8-bit step,
# whose kernel is costed by its serial loads: 0.944 and 0.934 (-0.6% and +6.1%), a regression reported with it.
# The eager Hugging Face layer's own Python, measured on the CPU (presets/host_overhead.json hf_layer_python,
# h-hflayer; the optimizer step is not touched), lengthens this host-bound 2 x 128-token step's forward and backward
# alike for both optimizers, so the 8-bit step's saving is a smaller share of it: 0.952 and 0.942 (+0.2% and +7.1%),
# a second regression of the paged ratio reported with it (its per-tensor syncs are what is left to square)
TOLERANCE = 0.075


def _step_seconds(optimizer: str) -> float:
    s = {"model": "qwen3-0.6b", "gpu": "a100-80gb", "precision": "fp32", "micro_batch": 2, "seq_len": 128,
         "framework": "huggingface", "optimizer": optimizer}
    return step_time(scenario_from_dict(s)).step_seconds


@pytest.mark.parametrize("optimizer", sorted(MEASURED_SPEED))
def test_8bit_adamw_speed_against_pytorch_adamw_as_measured(optimizer: str):
    predicted = _step_seconds("adamw") / _step_seconds(optimizer)
    assert predicted == pytest.approx(MEASURED_SPEED[optimizer], rel=TOLERANCE)


def test_paging_slows_the_8bit_step_as_measured():
    # PagedAdamW8bit ran at 0.88x where AdamW8bit ran at 0.95x: paging costs on every step even with room on the GPU
    assert _step_seconds("adamw-8bit-paged") > _step_seconds("adamw-8bit") > _step_seconds("adamw")
