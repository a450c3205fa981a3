"""The parallelism rows of NVIDIA-NeMo's two FSDP2 stacks: NeMo AutoModel's recipes and NeMo-RL's DTensor policy worker
(built on AutoModel), each fact with where it is written (engine/frameworks/parallelism.py holds the other rows)."""

from __future__ import annotations

from .parallelism_row import FSDP2_OFFLOAD, FSDP_STAGES, Parallelism

_NEMO_RL_MESH = ("NVIDIA-NeMo/RL at 7ea279abfbeb nemo_rl/models/automodel/setup.py lines 461-465 and 506-515 "
                 "(setup_distributed, the DTensor policy worker v2's, dtensor_policy_worker_v2.py line 296; "
                 "examples/configs/grpo_math_1B.yaml line 142 dtensor_cfg _v2 true): "
                 "nemo_automodel's create_device_mesh(tp_size, pp_size=1, cp_size, ep_size)")
NEMO_RL = Parallelism(pp_schedules=(), zero_stages=FSDP_STAGES, offloads=("none", "optimizer+params"), offload_names=(
    ("optimizer+params", "dtensor_cfg.cpu_offload, " + FSDP2_OFFLOAD),), sources=(
    ("ZeRO", "NeMo-RL 7ea279abfbeb nemo_rl/models/automodel/setup.py lines 464-489: FSDP2 over the data-parallel "
     "ranks, dtensor_cfg.dp_replicate_size of them replicated (HSDP; all of them: plain data parallelism): no ZeRO-1 "
     "or ZeRO-2 stage"),
    ("offload", "NeMo-RL 7ea279abfbeb setup.py line 489: dtensor_cfg.cpu_offload is FSDP2's CPUOffloadPolicy "
     "(weights, gradients and optimizer together); lines 499-503 raise NotImplementedError on one GPU (a limit on "
     "the GPU count, not modelled)"),
    ("pipeline schedules", _NEMO_RL_MESH + ": no pipeline (pipelines are its Megatron worker's)"),
    ("tensor, context, expert", _NEMO_RL_MESH + ": dtensor_cfg tensor_parallel_size, context_parallel_size, "
     "expert_parallel_size"),
))
# NeMo AutoModel's own recipes (the nemo-automodel-te row): FSDP2, tensor, context, expert and pipeline parallelism
NEMO_AUTOMODEL = Parallelism(zero_stages=FSDP_STAGES, offloads=("none", "optimizer+params"), offload_names=(
    ("optimizer+params", "offload_policy, " + FSDP2_OFFLOAD),), sources=(
    ("ZeRO, offload", "NVIDIA-NeMo/Automodel at 36044ad3d139 nemo_automodel/components/distributed/config.py lines "
     "261, 314: FSDP2's offload_policy (CPUOffloadPolicy); distributed/ddp.py line 37 DDPManager: FSDP2 or plain "
     "data parallelism, no ZeRO-1 or ZeRO-2 stage"),
    ("pipeline schedules", "NVIDIA-NeMo/Automodel at 36044ad3d139 nemo_automodel/components/distributed/pipelining/"
     "config.py lines 51-53 pp_schedule '1f1b', 'gpipe', 'interleaved_1f1b', ... through torch's get_schedule_class "
     "(functional.py line 649)"),
    ("ZeRO with PP", "Automodel 36044ad3d139 components/distributed/parallelizer.py lines 316 and 685-686: FSDP2 with "
     "a pipeline keeps the layers' weights gathered (reshard_after_forward False), it does not refuse it"),
    ("tensor, context, expert", "Automodel 36044ad3d139 components/distributed/parallelizer.py (tp plans), "
     "context_parallel/sharder.py create_context_parallel_ctx (torch's context_parallel), mesh_utils.py line 410 "
     "the MoE mesh ('ep_shard', 'ep')"),
))
