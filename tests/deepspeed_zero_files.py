"""A DeepSpeed config of one zero_optimization section, imported, and the keys the import did not use: shared by the
offload reader's tests (test_deepspeed_offload_reader.py, test_deepspeed_deprecated_offload.py)."""

from __future__ import annotations

import json

from engine.configs import import_files


def import_zero(tmp_path, zero: dict):
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_micro_batch_size_per_gpu": 1, "zero_optimization": zero,
                                "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}}))
    return import_files([path])


def not_used(result) -> dict[str, str]:
    return {u.key.split(": ", 1)[-1]: str(u.why) for u in result.unmapped}
