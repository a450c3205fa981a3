"""The scenario: its keys (each declared once), the file format, checks, and the scenario as its
framework resolves it.

The names below are the format's public ones (engine/scenario/format.py, choices.py), so
`from engine.scenario import X` reads as it always did."""

from .choices import ATTENTIONS, CHECKPOINTINGS, ESTIMATORS, METHODS, OPTIMIZERS, PRECISIONS  # noqa: F401
from .file_values import file_form  # noqa: F401
from .format import (  # noqa: F401
    DEFAULTS,
    KEY_SPECS,
    KEYS,
    KEYS_WITHOUT_MEMORY_EFFECT,
    KEYS_WITHOUT_TIME_EFFECT,
    MAX_SCENARIO_BYTES,
    SCENARIO_MAXIMA,
    SCHEMA_VERSION,
    CustomGpu,
    CustomModel,
    Scenario,
    lora_target_names,
    resolve_gpu,
    resolve_model,
    scenario_from_dict,
)
from .packing import PACKINGS, as_laid_out, attention_tokens  # noqa: F401
