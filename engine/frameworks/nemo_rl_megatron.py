"""NeMo-RL's Megatron backend (policy.megatron_cfg.enabled true, dtensor_cfg.enabled false: the performance summary's
runs, 'Training Backend: Megatron-core'): NeMo-RL's GRPO loop around Megatron-Core (Megatron-Bridge builds the
GPTModel; Megatron-Core's DDP with its fp32 main-gradient buffer and distributed optimizer), so its row is the
megatron row's memory facts and time profile with NeMo-RL's post-training facts. Read at NVIDIA-NeMo/RL v0.5.0
(6c708930):

- the worker: nemo_rl/models/policy/workers/megatron_policy_worker.py (setup_megatron_model, train, get_logprobs);
- the optimizer: examples/configs/grpo_math_1B.yaml policy.megatron_cfg.optimizer use_distributed_optimizer true,
  use_precision_aware_optimizer true (the performance recipes keep both), distributed_data_parallel_config
  overlap_grad_reduce / overlap_param_gather true;
- the moves around the colocated weight sync: the same as the DTensor worker's (engine/posttraining/refit_offload.py),
  but the parameters go through each DDP buffer's pinned CPU copy (megatron_policy_worker.py move_model ->
  offload_to_cpu / reload_from_cpu), so refit_params_pinned;
- the weight sync: Megatron-Bridge's export gathers every tensor whole on every rank (refit_gathers_full,
  engine/posttraining/bridge_export.py);
- sequence packing under a pipeline pads every packed micro-batch to the longest (pp_pads_packed_bins,
  engine/posttraining/packed_padding.py).
"""

from __future__ import annotations

from dataclasses import replace

from .posttraining import NEMO_RL
from .row_type import FrameworkRow

_NRL = "NVIDIA-NeMo/RL at v0.5.0 (6c708930)"

NEMO_RL_MEGATRON_POSTTRAINING = replace(NEMO_RL, refit_params_pinned=True, refit_gathers_full=True,
                                        pp_pads_packed_bins=True, sources=(
    *NEMO_RL.sources,
    ("Megatron backend", f"{_NRL} nemo_rl/models/policy/workers/megatron_policy_worker.py lines 2220-2360: "
     "prepare_for_lp_inference / prepare_for_training / offload_before_refit / offload_after_refit, move_model "
     "through each DDP buffer's offload_to_cpu (parameters into pinned memory, gradients freed) and move_optimizer "
     "(`state[k] = v.to(device)`); lines 1485-1530 use_reference_model"),
    ("weight sync export", f"{_NRL} megatron_policy_worker.py stream_weights_via_ipc_zmq streams Megatron-Bridge's "
     "export_hf_weights; Megatron-Bridge at 1e9a459b (the pinned submodule) model_bridge.py "
     "stream_weights_megatron_to_hf: 'All ranks receive the full tensors'"),
    ("packing under a pipeline", f"{_NRL} nemo_rl/models/megatron/common.py _get_pack_sequence_parameters_for_megatron: "
     "'when PP is used ... pad the packed sequence to the max sequence length in the batch'")))


def nemo_rl_megatron_row(megatron: FrameworkRow) -> FrameworkRow:
    """The megatron row as NeMo-RL's Megatron policy worker runs it: Megatron-Core's memory facts and time profile,
    NeMo-RL's post-training facts."""
    return replace(megatron, id="nemo-rl-megatron", label="NeMo-RL (Megatron backend)", profile="megatron",
                   posttraining=NEMO_RL_MEGATRON_POSTTRAINING, checkpoint_save="",
                   sources=(("training", f"{_NRL} nemo_rl/models/policy/workers/megatron_policy_worker.py: the "
                             "policy and reference are Megatron-Core GPTModels built by Megatron-Bridge, trained with "
                             "Megatron-Core's DDP and distributed optimizer (examples/configs/grpo_math_1B.yaml "
                             "policy.megatron_cfg)"), *megatron.sources))
