"""A pipeline stage's parameters for the time model (memory/states.py stage_params), looked up where only keys they
never read changed.

A new scenario of a what-if edit (the batch, the sequence) or of a layout search (pipeline depth, ZeRO stage,
checkpointing, nodes) times its stages afresh, and each rebuilt the same parameter counts (~9 us a stage:
benchmarks/time_speed.py, first time a scenario is seen). tests/test_memo_keys.py checks on drawn scenarios that
stage_params reads none of the keys ignored here.
"""

from __future__ import annotations

from ..memory.states import LayerGroup, StageParams, stage_params
from ..models.architecture import ModelSpec
from ..scenario import KEYS_WITHOUT_MEMORY_EFFECT, KEYS_WITHOUT_TIME_EFFECT, Scenario
from ..scenario.memo import ScenarioMemo

# The stage's place and layers reach its parameters only through its layer groups, whether it is the first and whether
# it holds the head (the key's other parts); the batch, the schedule and the sharding never do.
# Every key the stage-time table ignores is among these (model.py STAGE_TIME_MEMO: its stages read this table's key).
STAGE_PARAMS_MEMO = ScenarioMemo("stage params", KEYS_WITHOUT_MEMORY_EFFECT | KEYS_WITHOUT_TIME_EFFECT | frozenset({
    "nodes", "gpus_per_node", "micro_batch", "seq_len", "grad_accum", "pp", "pp_schedule", "vpp", "cp", "zero_stage",
    "fsdp", "offload", "checkpointing", "sequence_parallel", "attention", "activation_offload", "lora_dropout",
    "images_per_sample", "image_resolution", "reserve", "estimator", "k_factor", "host_memory_bytes", "fp8_all_gather",
    "tokens_to_train", "gpu_hour_price", "time_calibration",
}))


def stage_parameters(s: Scenario, spec: ModelSpec, layers: range, first: bool, last: bool,
                     groups: tuple[LayerGroup, ...]) -> StageParams:
    """stage_params of the stage of `layers`, whose layer groups are `groups` (those of `s`, its MTP layers' among
    them: stage_params reads them, not `layers`)."""
    key = STAGE_PARAMS_MEMO.key(s, groups, first, last)
    found = STAGE_PARAMS_MEMO.get(key)
    if found is None:
        found = STAGE_PARAMS_MEMO.put(key, stage_params(s, spec, layers, first, last, list(groups)))
    return found
