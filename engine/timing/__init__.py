"""Step time, throughput and cost of a training scenario (issue 13). No Qt."""

from .data_parallel import fp8_all_gather_applies
from .hardware import Hardware, NodeLink, hardware_for, node_link
from .mfu import MFU_DEFINITION, MFU_WHOLE_ATTENTION_DEFINITION, model_flops_per_token
from .model import step_time
from .rope_fusion import rope_fusion_applies
from .step_result import BREAKDOWN_KEYS, TERM_NAMES, StepTime, TimeTerm, time_to_json

__all__ = ["BREAKDOWN_KEYS", "MFU_DEFINITION", "MFU_WHOLE_ATTENTION_DEFINITION", "TERM_NAMES", "Hardware", "NodeLink",
           "StepTime", "TimeTerm", "fp8_all_gather_applies", "hardware_for", "model_flops_per_token", "node_link",
           "rope_fusion_applies",
           "step_time", "time_to_json"]
