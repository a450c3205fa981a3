"""Check the harness against the reference figures measured earlier on this machine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

M = "llama-2-7b"
SBH = 2048 * 1 * 4096  # s * b * h for Llama-2-7B, b=1, s=2048

# (label, kind, full-depth id, 4-layer id or None, expected value, phase or None)
REFERENCE: list[tuple[str, str, str, str | None, float, str | None]] = [
    ("per-layer activations, pure bf16 + SDPA (x sbh)", "per_layer",
     f"{M}_bf16_sdpa_full_b1_s2048", f"{M}-L4_bf16_sdpa_full_b1_s2048", 45.5, None),
    ("per-layer activations, amp-bf16 + SDPA (x sbh)", "per_layer",
     f"{M}_amp-bf16_sdpa_full_b1_s2048", f"{M}-L4_amp-bf16_sdpa_full_b1_s2048", 103.8, None),
    ("per-layer activations, amp-bf16 + eager (x sbh)", "per_layer",
     f"{M}_amp-bf16_eager_full_b1_s2048", f"{M}-L4_amp-bf16_eager_full_b1_s2048", 199.8, None),
    ("per-layer activations, pure bf16 + full checkpointing (x sbh)", "per_layer",
     f"{M}_bf16_sdpa_full_ckpt_b1_s2048", f"{M}-L4_bf16_sdpa_full_ckpt_b1_s2048", 2.0, None),
    ("step peak, fp32, AdamW foreach (bytes)", "peak",
     f"{M}_fp32_sdpa_full_b1_s2048", None, 134_768_478_720, "optimizer"),
    ("step peak, pure bf16, AdamW foreach (bytes)", "peak",
     f"{M}_bf16_sdpa_full_b1_s2048", None, 67_384_322_560, None),
    ("step peak, amp-bf16, AdamW fused (bytes)", "peak",
     f"{M}_amp-bf16_sdpa_full_fused_b1_s2048", None, 109_854_813_696, "backward"),
]


def reference_check(out_dir: Path) -> dict[str, Any]:
    """Compare the written ground-truth files with the reference figures."""
    rows = []
    for label, kind, full_id, small_id, expected, phase in REFERENCE:
        row: dict[str, Any] = {"check": label, "expected": expected, "configs": [full_id]}
        try:
            full = json.loads((out_dir / f"{full_id}.json").read_text())["measured"]
            if kind == "per_layer":
                assert small_id is not None
                small = json.loads((out_dir / f"{small_id}.json").read_text())["measured"]
                row["configs"].append(small_id)
                diff = (full["activation_bytes_end_of_forward"]
                        - small["activation_bytes_end_of_forward"])
                got: float = round(diff / (32 - 4) / SBH, 1)
                row["per_layer_bytes"] = diff / (32 - 4)
                row["ok"] = abs(got - expected) < 0.05 + 1e-9
            else:
                got = full["peak_allocated_bytes"]
                row["phase"] = full["peak_phase"]
                row["ok"] = got == expected and (phase is None or phase == full["peak_phase"])
            row["got"] = got
        except FileNotFoundError as exc:
            row["got"] = None
            row["ok"] = False
            row["error"] = f"missing {exc.filename}"
        rows.append(row)
    return {
        "description": "Reference figures (Llama-2-7B, b=1, s=2048) vs this harness. Per-layer "
                       "activations = (activation bytes alive at end of forward, 32 layers - 4 layers)"
                       " / 28 / (s*b*h).",
        "all_ok": all(r["ok"] for r in rows),
        "checks": rows,
    }
