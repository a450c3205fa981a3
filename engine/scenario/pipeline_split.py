"""A pipeline split the framework refuses: Megatron-LM splits the decoder layers (with the embedding and / or the
loss where pipeline_split_accounts_for counts them) evenly over pp stages and a stage's over its vpp model chunks,
and asserts that they divide (its rows' "even pipeline split" fact: Parallelism.even_pipeline_split), unless a
pipeline layout (the scenario's pipeline_layout) places them. The estimate splits such a model unevenly and says in
one sentence that the framework would refuse it; other frameworks' splits are not read (any split allowed)."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from .consistency import split_counted_layers
from .format import Scenario, resolve_model
from .pipeline_ends import V_SCHEDULES

_UNEVEN = QT_TRANSLATE_NOOP("engine", "{framework} splits the layers evenly over the pipeline: {layers} layers do not "
                                      "divide into pp {pp} x vpp {vpp} = {chunks} model chunks, so it refuses this "
                                      "layout without a pipeline_layout (the estimate splits them unevenly).")


def uneven_pipeline_split(s: Scenario) -> Message | None:
    """The sentence where s's framework asserts an even split and s's layers do not divide into its chunks; None
    where they do, a pipeline_layout places them, there is no pipeline, or the framework does not require it (ZB-V
    has its own rule, Parallelism.v_even_chunks; a hybrid Mamba stack is split by its layer pattern)."""
    if s.pp == 1 or s.pipeline_layout or s.workload == "inference" or s.pp_schedule in V_SCHEDULES:
        return None
    row = defaults_for(s.framework)
    if not row.parallelism.even_pipeline_split:
        return None
    spec = resolve_model(s)
    counted = split_counted_layers(s, spec.layers)
    if spec.block_kinds or counted % (s.pp * s.vpp) == 0:
        return None
    return message(_UNEVEN, framework=row.label, layers=counted, pp=s.pp, vpp=s.vpp, chunks=s.pp * s.vpp)
