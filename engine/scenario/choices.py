"""The words the scenario's choice keys accept (the training section's; each workload's own are in its keys module:
time_keys.py, serving_keys.py, posttraining_keys.py): engine/scenario/format.py declares the keys with them, and the
window's choice lists and docs/scenario-format.md read them from there."""

METHODS = ("full", "freeze", "lora", "qlora")
# the methods that train low-rank adapters over a frozen base (qlora: over a quantised one): no weight gradients,
# no optimizer states for the base weights. A frozenset, read with `method in ADAPTER_METHODS`, so the estimate's hot
# path asks it without a call
ADAPTER_METHODS = frozenset({"lora", "qlora"})
PRECISIONS = ("fp32", "amp-bf16", "amp-fp16", "bf16", "fp16", "mixed-bf16", "mixed-fp16", "fp8", "nvfp4")
OPTIMIZERS = ("adamw", "adamw-fused", "adamw-8bit", "adamw-8bit-paged", "sgd", "sgd-momentum", "adafactor", "auto")
ATTENTIONS = ("sdpa", "flash", "eager")
CHECKPOINTINGS = ("none", "full", "selective", "op-selective")
FREEZE_SIDES = ("bottom", "top")
OFFLOADS = ("none", "optimizer", "optimizer+params")
PP_SCHEDULES = ("1f1b", "gpipe", "interleaved-1f1b", "zb-h1", "zb-2p", "zbv")
ESTIMATORS = ("detailed", "seed-per-op", "seed-k-factor", "seed-alpha")
ADAPTER_DTYPES = ("auto", "fp32", "compute")
VISION_TOWER_MODES = ("frozen", "trained", "frozen-backward")
MODULES_TO_SAVE = ("embed_tokens", "lm_head")
CURRENCIES = ("", "USD", "EUR", "CNY", "GBP", "JPY", "INR", "KRW", "CAD", "AUD", "CHF", "SGD")  # ISO 4217 codes
