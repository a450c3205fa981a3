"""The parallelism rows of the stacks that past papers' runs were trained on, as those releases ran: DeepSpeed 0.3.14
(SC21's ZeRO-3 baseline) and 0.6 (BigScience's Megatron-DeepSpeed), Megatron-LM of 2021 and 2022, InternEvo and Aleph
Alpha's scaling; each fact with where it is written. engine/frameworks/parallelism.py holds the current frameworks'
rows and adds each row's shard-group facts (shard_group_facts.py).
"""

from __future__ import annotations

from .parallelism_row import Parallelism

# BigScience's Megatron-DeepSpeed runs of 2022: Megatron's tensor parallelism, DeepSpeed 0.6's PipelineEngine
DEEPSPEED_2022 = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, sources=(
    ("pipeline schedules", "deepspeedai/DeepSpeed at 2151c787a (0.6.0) deepspeed/runtime/pipe/schedule.py: "
     "TrainSchedule (1F1B) is its only training schedule"),
    ("ZeRO with PP", "deepspeed/runtime/pipe/engine.py at 2151c787a line 72: assert self.zero_optimization_stage() "
     "< 2, 'ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism'"),
    ("tensor", "Megatron-DeepSpeed's Megatron layers (mpu) split over tensor-parallel ranks"),
    ("context", "no ring attention at 2151c787a (no deepspeed/sequence package; Ulysses came in 2023) nor in "
     "Megatron-LM of 2022 (285068c8 megatron/arguments.py: no --context-parallel-size)"),
    ("expert", "deepspeed/moe at 2151c787a (MoE with ep_size)"),
))
# DeepSpeed as SC21's ZeRO-3 baseline ran it (April 2021, 0.3.14)
DEEPSPEED_2021 = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, expert=False, sources=(
    ("pipeline schedules", "deepspeedai/DeepSpeed at 112ebff6e86a (0.3.14) deepspeed/runtime/pipe/schedule.py: "
     "TrainSchedule (1F1B) is its only training schedule"),
    ("ZeRO with PP", "fbece50b2 (pull request #980, 2021-04-19, 'assert no Z2/Z3 with pipeline'): "
     "runtime/pipe/engine.py asserts zero_optimization_stage() < 2; at 112ebff it ran ZeRO-2 with a pipeline "
     "'enough to run a demo' (engine.py line 214)"),
    ("tensor", "through the model's own mpu (Megatron's): allowed"),
    ("context", "no ring attention at 112ebff (no deepspeed/sequence package) nor in Megatron-LM of 2021 "
     "(de7dc40f88 megatron/arguments.py: no --context-parallel-size)"),
    ("expert", "no deepspeed/moe package at 112ebff (it came with 0.5.0)"),
))
MEGATRON_SCHEDULES = ("pipeline schedules", "megatron/core/pipeline_parallel/schedules.py (Megatron-LM d98e8a6; "
                      "megatron/schedules.py at de7dc40f88 and 285068c8) get_forward_backward_func: "
                      "forward_backward_no_pipelining, forward_backward_pipelining_without_interleaving (1F1B) or "
                      "forward_backward_pipelining_with_interleaving; no GPipe")
MEGATRON_2022 = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), max_zero=1, context=False, expert=False,
                            offloads=("none",), even_pipeline_split=True, sources=(
    ("offload", "megatron/arguments.py at 285068c8: no offload argument"),
    ("even pipeline split", "285068c8 megatron/model/transformer.py lines 850-851 and 976-977 assert num_layers % pp "
     "and a stage's layers % vpp"),
    MEGATRON_SCHEDULES,
    ("ZeRO", "NVIDIA/Megatron-LM megatron/arguments.py at 285068c8 (2023-01-11): --use-distributed-optimizer "
     "(ZeRO-1, line 874) is its only sharding"),
    ("context", "megatron/arguments.py at 285068c8: no --context-parallel-size"),
    ("expert", "megatron/arguments.py at 285068c8: --num-experts builds SwitchMLP, every expert on every rank "
     "(megatron/model/transformer.py SwitchMLP: one ParallelMLP per expert); no expert parallelism"),
))
MEGATRON_2021 = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), max_zero=0, context=False, expert=False,
                            offloads=("none",), even_pipeline_split=True, sources=(
    ("offload", "megatron/arguments.py at de7dc40f88: no offload argument"),
    ("even pipeline split", "de7dc40f88 megatron/model/transformer.py lines 551-552 and 564-565 assert num_layers % "
     "pp and a stage's layers % vpp"),
    MEGATRON_SCHEDULES,
    ("ZeRO", "NVIDIA/Megatron-LM megatron/arguments.py at de7dc40f88 (2021-08-10): no --use-distributed-optimizer "
     "(it came in 2022); gradients and optimizer states are whole on every data-parallel rank"),
    ("context", "megatron/arguments.py at de7dc40f88: no --context-parallel-size"),
    ("expert", "megatron/arguments.py at de7dc40f88: no --num-experts"),
))
INTERNEVO = Parallelism(pp_schedules=(), max_zero=1, context=False, expert=False, offloads=("none",), sources=(
    ("offload", "InternLM/InternEvo at c18bec9 internlm/solver/optimizer/hybrid_zero_optim.py lines 106 and 221: "
     "HybridZeroOptimizer(cpu_offload=False) would keep the fp32 master copy on the CPU, but train.py (lines 235-237) "
     "builds it without the argument and no config key sets it: no offload it runs"),
    ("pipeline schedules", "InternLM/InternEvo train.py at c18bec9 lines 96-97: assert gpc.config.parallel.pipeline "
     "== 1, 'Pipeline parallelism is not supported for now.'"),
    ("ZeRO", "internlm/solver/optimizer/hybrid_zero_optim.py at c18bec9: HybridZeroOptimizer shards the optimizer "
     "states over parallel.zero1 ranks (ZeRO-1) only"),
    ("context", "internlm/core/context/process_group_initializer.py at c18bec9 ParallelMode: global, data, "
     "model, pipe, tensor, zero1 groups; no sequence or context group"),
    ("expert", "no MoE layer at c18bec9 (the same ParallelMode: no expert group)"),
))
ALEPH_ALPHA_SCALING = Parallelism(pp_schedules=("1f1b",), max_zero=1, context=False, expert=False, offloads=("none",),
                                  sources=(
    ("offload", "Aleph-Alpha/scaling at 78489292be: no offload in src/scaling/core (optimizer/optimizer_config.py "
     "fields method, betas, eps, gradient_clipping, allreduce_bucket_size, loss_scaler, zero; parameter_group.py "
     "line 156 move_to_cpu frees the GPU copies while the flat ZeRO buffer is built, at start-up)"),
    ("pipeline schedules", "Aleph-Alpha/scaling at 78489292be src/scaling/core/nn/pipeline_schedule/train.py "
     "PipelineScheduleTrain: 2 x (gradient_accumulation_steps + pipe_parallel_size - 1) steps of one forward or "
     "one backward, DeepSpeed's 1F1B TrainSchedule"),
    ("ZeRO", "src/scaling/core/optimizer/optimizer_config.py at 78489292be: zero, 'enable zero stage 1 optimizer', "
     "its only sharding"),
    ("context", "src/scaling/core/topology/topology_config.py at 78489292be: model_parallel_size, "
     "pipe_parallel_size, data_parallel_size and a sequence_parallel flag; no context-parallel size"),
    ("expert", "topology_config.py at 78489292be: no expert-parallel size"),
))
