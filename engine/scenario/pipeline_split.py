"""Pipeline splits the framework refuses to start: both are assertions in its code, so both are settings it cannot run
(engine/scenario/framework_support.py cannot_run, one sentence each; the estimate still splits the layers as asked).

- Megatron-LM splits the decoder layers (with the embedding and / or the loss where pipeline_split_accounts_for
  counts them) evenly over pp stages and a stage's over its vpp model chunks, and asserts that they divide, unless a
  pipeline layout (the scenario's pipeline_layout) places them: its rows' "even pipeline split" fact,
  Parallelism.even_pipeline_split (Megatron-Core d98e8a64 megatron/core/transformer/transformer_block.py
  get_num_layers_to_build lines 155-158 and 175-178, the same asserts at core_v0.15.0; megatron/model/transformer.py
  at 285068c8 and de7dc40f88). A hybrid Mamba stack is split by its layer pattern, not read here.
- The Zero Bubble fork's ZB-V asserts the layers divide by pp and a stage's are even (Parallelism.v_even_chunks:
  sail-sg/zero-bubble-pipeline-parallelism f68d3879 megatron/arguments.py lines 192-198), after its
  --allow-padding-num-layers rounded them up to a multiple of pp (lines 152-161).
- Megatron-Core takes a pipeline layout of pp x vpp chunks only: Megatron-LM asserts its chunks divide by pp and
  reads vpp from them (d98e8a64 megatron/training/arguments.py lines 941-949; beside
  --num-virtual-stages-per-pipeline-rank it asserts, lines 927-939), TransformerConfig asserts a given vpp equals
  them (megatron/core/transformer/transformer_config.py lines 2275-2284) and PipelineParallelLayerLayout that they
  divide by pp (pipeline_parallel_layer_layout.py lines 40-46): a layout of another count is refused
  ("pipeline_layout"), not a silent even split.

Other frameworks' splits are not read (any split allowed)."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from .consistency import split_counted_layers
from .format import Scenario, resolve_model
from .pipeline_ends import V_CHUNKS, V_SCHEDULES
from .pipeline_layout import layout_chunks, trained_mtp_layers, uneven_layout

_UNEVEN = QT_TRANSLATE_NOOP("engine", "{framework} splits the layers evenly over the pipeline: {layers} layers do not "
                                      "divide into pp {pp} x vpp {vpp} = {chunks} model chunks, so it refuses this "
                                      "layout without a pipeline_layout (the estimate splits them unevenly).")
# where the framework takes a layout (Megatron-Core), the one Make it fit offers first (runnable.py) is named
_UNEVEN_LAYOUT = QT_TRANSLATE_NOOP("engine", "{framework} splits the layers evenly over the pipeline: {layers} layers "
                                             "do not divide into pp {pp} x vpp {vpp} = {chunks} model chunks, so it "
                                             "refuses this layout without a pipeline_layout such as {layout} (the "
                                             "estimate splits them unevenly).")
_ZBV_LAYERS = QT_TRANSLATE_NOOP("engine", "{framework} runs ZB-V only with an even number of layers a pipeline stage "
                                          "(its --allow-padding-num-layers rounds them up to a multiple of pp): the "
                                          "model's {layers} layers at pp {pp} give {stage}.")
_LAYOUT_CHUNKS = QT_TRANSLATE_NOOP("engine", "{framework} takes a pipeline_layout of pp {pp} x vpp {vpp} = {chunks} "
                                             "model chunks and refuses this one's {layout_chunks} (the estimate "
                                             "ignores it).")


def splits_evenly(counted_layers: int, pp: int, vpp: int) -> bool:
    """Megatron's even-split rule, stated once (the scenario's check and the throughput search both ask it): the
    layers it counts (split_counted_layers: the decoder layers, plus the embedding and / or the loss where asked)
    divide into pp x vpp chunks (get_num_layers_to_build asserts both divisions, the lines above)."""
    return counted_layers % (pp * vpp) == 0


def refused_splits(s: Scenario) -> tuple[tuple[str, Message], ...]:
    """(cannot_run's name, its sentence) for each split rule of s's framework that s breaks: "pipeline_split"
    (Megatron's even split), "pipeline_layout" (a layout of another chunk count than pp x vpp: that sentence alone,
    Megatron asserts it first), "zbv_layers" (ZB-V's even stages); () for a served scenario."""
    if s.workload == "inference" or s.pp == 1:  # no pipeline: none of the rules below applies (each says so too)
        return ()
    out = []
    if (chunks := mismatched_layout_chunks(s)) is not None:
        out.append(("pipeline_layout", message(_LAYOUT_CHUNKS, framework=defaults_for(s.framework).label, pp=s.pp,
                                               vpp=s.vpp, chunks=s.pp * s.vpp, layout_chunks=chunks)))
    elif (uneven := uneven_pipeline_split(s)) is not None:
        out.append(("pipeline_split", uneven))
    if uneven_v_chunks(s):
        layers = resolve_model(s).layers
        out.append(("zbv_layers", message(_ZBV_LAYERS, framework=defaults_for(s.framework).label, layers=layers,
                                          pp=s.pp, stage=padded_stage_layers(layers, s.pp))))
    return tuple(out)


def uneven_pipeline_split(s: Scenario) -> Message | None:
    """The sentence where s's framework asserts an even split and s's layers do not divide into its chunks; None
    where they do, a pipeline_layout places them, there is no pipeline, or the framework does not require it (ZB-V
    has its own rule, uneven_v_chunks; a hybrid Mamba stack is split by its layer pattern)."""
    if s.pp == 1 or s.pipeline_layout or s.workload == "inference" or s.pp_schedule in V_SCHEDULES:
        return None
    if not asserts_even_split(s):
        return None
    counted = split_counted_layers(s, resolve_model(s).layers)
    if splits_evenly(counted, s.pp, s.vpp):
        return None
    spec = resolve_model(s)
    layout = uneven_layout(spec.layers, s.pp * s.vpp, trained_mtp_layers(s, spec)) \
        if defaults_for(s.framework).pipeline_layouts else None
    if layout:
        return message(_UNEVEN_LAYOUT, framework=defaults_for(s.framework).label, layers=counted, pp=s.pp, vpp=s.vpp,
                       chunks=s.pp * s.vpp, layout=layout)
    return message(_UNEVEN, framework=defaults_for(s.framework).label, layers=counted, pp=s.pp, vpp=s.vpp,
                   chunks=s.pp * s.vpp)


def asserts_even_split(s: Scenario) -> bool:
    """Whether s's framework asserts the even split (splits_evenly) on s's model: its row's even_pipeline_split, and
    a stack of one block kind (a hybrid Mamba stack is split by its layer pattern, not read). Stated once: the
    scenario's check and the throughput search's layouts (planning/pipeline_chunks.py) both ask it."""
    return defaults_for(s.framework).parallelism.even_pipeline_split and not resolve_model(s).block_kinds


def mismatched_layout_chunks(s: Scenario) -> int | None:
    """The chunk count of s's pipeline_layout where its framework takes layouts (Megatron-Core: the row's
    pipeline_layouts) and that count is not pp x vpp; None otherwise (a served scenario, no pipeline or no layout)."""
    if s.pp == 1 or not s.pipeline_layout or s.workload == "inference":
        return None
    chunks = len(layout_chunks(s.pipeline_layout))
    return chunks if defaults_for(s.framework).pipeline_layouts and chunks != s.pp * s.vpp else None


def uneven_v_chunks(s: Scenario) -> bool:
    """Whether s runs ZB-V where its framework needs an even number of layers a stage and they are not
    (Parallelism.v_even_chunks: the Zero Bubble fork, after its padding to a multiple of pp)."""
    return (s.pp_schedule in V_SCHEDULES and s.pp > 1 and s.workload != "inference"
            and defaults_for(s.framework).parallelism.v_even_chunks
            and padded_stage_layers(resolve_model(s).layers, s.pp) % V_CHUNKS != 0)


def padded_stage_layers(layers: int, pp: int) -> int:
    """Layers a stage builds once the Zero Bubble fork's --allow-padding-num-layers rounds the layers up to a multiple
    of pp (its megatron/arguments.py lines 152-161 at f68d3879; the paper's GPT-6.2B ran 30 layers at pp 16)."""
    return -(-layers // pp)
