"""Count the parameters transformers builds for each model preset (meta device: nothing is allocated).

    .venv/bin/python validation/count_params.py [--write] [preset-id ...]

Prints, per preset, the count of the model class named in `architectures` (the class a user fine-tunes) next to
the engine's count. With --write, stores it as `transformers_params` in presets/models/<id>.json so the tests hold
the engine to it exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# model_types transformers knows under another name (Kimi-K2 ships DeepSeek-V3 code with trust_remote_code)
_TYPE_FOR_TRANSFORMERS = {"kimi_k2": "deepseek_v3"}


def build_config(hf_config: dict):
    import transformers

    raw = json.loads(json.dumps(hf_config))
    raw.pop("quantization_config", None)  # count the released layout, not a dequantised/quantised module tree
    raw.pop("auto_map", None)
    raw["model_type"] = _TYPE_FOR_TRANSFORMERS.get(raw.get("model_type"), raw.get("model_type"))
    if raw.get("model_type") == "deepseek_v3" and "Kimi" in str(raw.get("architectures")):
        raw["architectures"] = ["DeepseekV3ForCausalLM"]
    config_cls = transformers.AutoConfig.for_model(raw["model_type"]).__class__
    return config_cls.from_dict(raw), raw


def transformers_count(hf_config: dict) -> int:
    import torch
    import transformers

    config, raw = build_config(hf_config)
    arch = (raw.get("architectures") or [""])[0]
    if arch == "KimiK2ForCausalLM":
        arch = "DeepseekV3ForCausalLM"
    cls = getattr(transformers, arch, None)
    with torch.device("meta"):
        model = cls._from_config(config) if cls is not None else transformers.AutoModelForCausalLM.from_config(config)
    return sum(p.numel() for p in model.parameters())


def main() -> None:
    from engine.models.presets import PRESETS_DIR, model_presets

    parser = argparse.ArgumentParser()
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    presets = model_presets()
    for pid in args.ids or sorted(presets):
        preset = presets[pid]
        try:
            counted = transformers_count(preset.hf_config)
        except Exception as exc:  # noqa: BLE001 - report and go on to the next preset
            print(f"{pid}: transformers could not build it: {type(exc).__name__}: {exc}")
            continue
        engine = preset.spec.total_params
        flag = "" if counted == engine else f"  DIFF {engine - counted:+,}"
        print(f"{pid}: transformers {counted:,}  engine {engine:,}{flag}")
        if args.write:
            path = PRESETS_DIR / "models" / f"{pid}.json"
            data = json.loads(path.read_text())
            data["transformers_params"] = counted
            import transformers

            data["transformers_params_source"] = (
                f"validation/count_params.py: {preset.hf_config.get('architectures', ['?'])[0]} built from hf_config "
                f"on the meta device with transformers {transformers.__version__}, sum of parameter numel"
            )
            path.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
