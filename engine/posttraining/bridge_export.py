"""The gather of a Megatron-Core policy into whole Hugging Face tensors before its weights reach the engine
(PostTrainingDefaults.refit_gathers_full: NeMo-RL's Megatron backend). NeMo-RL v0.5.0 (6c708930)
megatron_policy_worker.py stream_weights_via_ipc_zmq streams _iter_params_with_optional_kv_scales, which is
Megatron-Bridge's export_hf_weights; Megatron-Bridge at 1e9a459b (the commit NeMo-RL v0.5.0's
3rdparty/Megatron-Bridge-workspace pins) src/megatron/bridge/models/conversion/model_bridge.py
stream_weights_megatron_to_hf: 'It handles gathering from tensor parallel ranks, broadcasting across pipeline
parallel ranks ... All ranks receive the full tensors' (param_mapping.py: gather_from_tp_ranks all_gather over the
TP group, broadcast_from_pp_rank a broadcast over the PP group, gather_from_ep_ranks an all_gather over the EP group).
So every training GPU receives the whole model less what it holds: its own pipeline stage's weights from its TP and
EP peers, and the other stages' whole weights from their PP ranks.

Links: Megatron-Core orders ranks tp-cp-ep-dp-pp (pipeline outermost), so a pipeline group's pp ranks lie
world / pp apart and span (pp - 1) x world / pp + 1 GPUs: the broadcast crosses the network once that span passes
the node (or the NVLink domain), at the bus bandwidth the training model gives such a group (links.py link: its
members in one node or domain each drive their own NIC); inside it, the domain's links. (Before h-nemomoe the test
was world / pp reaching the domain, which kept the group of a 128-GPU GB200 run, 8 ranks 16 apart over two NVL72
racks, on NVLink.) TP and EP peers are inside the node. The broadcast and all-gathers are timed at those links' bus
bandwidth (NCCL's bus bandwidth of a broadcast or all-gather is the bytes each rank receives over the time), tensor
by tensor in series with the stream (the generator gathers each tensor before the IPC buffer takes it), so nothing
hides. Not counted: the per-tensor all_gather_object of broadcast_from_pp_rank's tensor spec (host work, no
per-call figure found)."""

from __future__ import annotations

from typing import Any

from ..frameworks import defaults_for
from ..scenario import Scenario
from ..timing.links import link, nvlink_domain
from .phases import StepParts


def export_gather_bytes(p: StepParts, s: Scenario) -> tuple[float, float]:
    """(bytes from TP/EP peers inside the node, bytes from the other pipeline stages) one training GPU receives."""
    whole = p.spec.total_params * p.dt.compute
    held = sum(c.peak_bytes for c in p.resident if c.key == "policy_weights")
    stage = whole / max(s.pp, 1)
    return max(0.0, stage - held), whole - stage


def pipeline_group_span(s: Scenario) -> tuple[int, int]:
    """(GPUs spanned, stride) of a pipeline group: pp ranks world / pp apart (pipeline outermost)."""
    stride = max(1, s.world_size // max(s.pp, 1))
    return (max(s.pp, 1) - 1) * stride + 1, stride


def pipeline_peers_across_nodes(s: Scenario, hw: Any) -> bool:
    """A pipeline group spans more than the node or the NVLink domain."""
    return s.pp > 1 and pipeline_group_span(s)[0] > nvlink_domain(s, hw)


def export_gather_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds of the export's gathers per weight sync; 0 where the framework's sync does not gather whole tensors
    this way or the engine is not on the training GPUs."""
    if p.engine is None or not defaults_for(s.framework).posttraining.refit_gathers_full:
        return 0.0
    inside, stages = export_gather_bytes(p, s)
    span, stride = pipeline_group_span(s)
    stage_link = link(hw, span, nvlink_domain(s, hw), stride)[0] if pipeline_peers_across_nodes(s, hw) \
        else hw.intra_bytes_per_s
    return inside / hw.intra_bytes_per_s + stages / stage_link


__all__ = ["export_gather_bytes", "export_gather_seconds", "pipeline_group_span", "pipeline_peers_across_nodes"]
