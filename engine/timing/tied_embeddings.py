"""The tied embedding's gradient under pipeline parallelism: the first stage holds the word embedding and the last
stage the output layer that shares its weight, each with its own copy, so once a step, after the last backward, the
two copies' gradients are summed by an all-reduce over the two ranks (one per TP rank and data-parallel replica)
before the optimizer steps, with no compute beside it:

- DeepSpeed's PipelineEngine: TrainSchedule issues ReduceTiedGrads after the last backward of the batch, and
  _exec_reduce_tied_grads runs dist.all_reduce(weight.grad, group=tied group) for each tied module, on the fp32
  gradient (weight._hp_grad) under BF16_Optimizer (microsoft/DeepSpeed deepspeed/runtime/pipe/engine.py and
  schedule.py at 2151c78 and 15293139f; Megatron-DeepSpeed's GPTModelPipe ties 'embed' with TiedLayerSpec:
  bigscience-workshop/Megatron-DeepSpeed megatron/model/gpt_model.py);
- Megatron-LM: finalize_model_grads' _allreduce_word_embedding_grads all-reduces the word embedding's main_grad over
  the embedding group (the first and last pipeline ranks) when the embedding and output weights are shared
  (NVIDIA/Megatron-LM megatron/core/distributed/finalize_model_grads.py).

The word table is split over the TP ranks (VocabParallelEmbedding), so each all-reduce carries vocab / tp x hidden
gradients; a ring of two ranks moves each byte once each way (2 (n - 1) / n = 1)."""

from __future__ import annotations

from ..memory.states import dtypes_for, embeddings_frozen
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import bf16_optimizer, main_grads_fp32
from ..scenario.pipeline_ends import v_placed
from .collectives import ALL_REDUCE, collective_latency
from .hardware import Hardware
from .links import collective_link, nvlink_domain


def tied_embedding_seconds(s: Scenario, spec: ModelSpec, hw: Hardware) -> float:
    """Seconds a step spends summing the tied embedding's two gradient copies (module docstring): 0 without pipeline
    parallelism, without a shared output layer, or where the embedding does not train (adapters, frozen)."""
    if s.pp == 1 or v_placed(s) or not spec.tied_embeddings or embeddings_frozen(s):  # a V: both ends on rank 0
        return 0.0
    # fp32 where the framework keeps fp32 gradients (Megatron's main_grad, DeepSpeed BF16_Optimizer's _hp_grad)
    grad_bytes = 4 if main_grads_fp32(s) or bf16_optimizer(s) else dtypes_for(s).grad
    stride = s.tp * s.cp * s.dp * (s.pp - 1)  # the first and the last stage's rank of one TP rank and replica
    domain = nvlink_domain(s, hw)
    bw, _ = collective_link(hw, 2 * stride, domain, stride)
    return (spec.vocab * spec.hidden / s.tp * grad_bytes / bw
            + collective_latency(hw, ALL_REDUCE, 2, 2 * stride, domain, stride))
