"""Count the host work of Qwen3.5's text decoder (3 gated DeltaNet layers to 1 gated attention layer) on the path
transformers takes where neither flash-linear-attention nor causal-conv1d is installed: per mean layer of the pattern
(8 layers less 4, over 4) and per step, for a training step (forward with labels, backward; the second step) and for
one no-grad decode step over the cache (2 sequences after an 8-token prefill: torch_recurrent_gated_delta_rule and
causal_conv1d_update). The same counters as validation/hf_host_counts.py (python calls, kernels, views, modules;
backward kernels and views), at tiny widths. presets/host_overhead.json hf_eager_layers.by_model_type.qwen3_5_text
holds what this prints (transformers 5.17.0, torch 2.13.0 CPU).

    python -m validation.hf_hybrid_host_counts train bf16 sdpa 16
    python -m validation.hf_hybrid_host_counts decode amp eager
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.hf_host_counts import FIELDS, counters  # noqa: E402

PATTERN = ("linear_attention",) * 3 + ("full_attention",)
_MODES: list[Any] = []


def _modes() -> Any:
    if not _MODES:  # the module-call hook is global: registered once
        _MODES.append(counters(None))
    return _MODES[0]


def build(layers: int, precision: str, attention: str) -> Any:
    """A tiny Qwen3_5ForCausalLM of `layers` layers of the pattern (bf16 weights, or fp32 under autocast: amp)."""
    import torch
    from transformers.models.qwen3_5 import modeling_qwen3_5 as mq
    from transformers.models.qwen3_5.configuration_qwen3_5 import Qwen3_5TextConfig

    cfg = Qwen3_5TextConfig(
        hidden_size=64, intermediate_size=128, num_hidden_layers=layers, layer_types=list(PATTERN) * (layers // 4),
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, linear_num_key_heads=2, linear_num_value_heads=4,
        linear_key_head_dim=16, linear_value_head_dim=16, vocab_size=512, bos_token_id=1, eos_token_id=2,
        pad_token_id=0, attn_implementation=attention)
    torch.manual_seed(0)
    model = mq.Qwen3_5ForCausalLM(cfg)
    return model.to(torch.bfloat16) if precision == "bf16" else model


def _amp(precision: str) -> Any:
    import torch

    return torch.autocast("cpu", dtype=torch.bfloat16) if precision == "amp" else contextlib.nullcontext()


def train_counts(layers: int, precision: str, attention: str, seq: int) -> dict[str, int]:
    """Host counts of the second training step of 2 sequences of `seq` tokens."""
    import torch

    dispatched, called, modules = _modes()
    model = build(layers, precision, attention)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
    ids = torch.randint(3, 512, (2, seq))
    out: dict[str, int] = {}
    for _ in range(2):
        modules.clear()
        d, f = dispatched(), called()
        with f, d, _amp(precision):
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        out = {"python_calls": f.count["call"], "kernels": d.count["kernel"], "views": d.count["view"],
               "modules": modules["call"]}
        d = dispatched()
        with d:
            loss.backward()
        out |= {"backward_kernels": d.count["kernel"], "backward_views": d.count["view"]}
        opt.step()
        opt.zero_grad(set_to_none=True)
    return out


def decode_counts(layers: int, precision: str, attention: str) -> dict[str, int]:
    """Host counts of the second no-grad one-token decode step of 2 sequences over the model's DynamicCache."""
    import torch
    from transformers import DynamicCache

    dispatched, called, modules = _modes()
    model = build(layers, precision, attention)
    model.eval()
    ids = torch.randint(3, 512, (2, 8))
    out: dict[str, int] = {}
    with torch.no_grad(), _amp(precision):
        step = model(input_ids=ids, past_key_values=DynamicCache(config=model.config), use_cache=True)
        for i in range(2):
            nxt = step.logits[:, -1:].argmax(-1)
            modules.clear()
            d, f = dispatched(), called()
            with f, d:
                step = model(input_ids=nxt, past_key_values=step.past_key_values, use_cache=True,
                             position_ids=torch.full((2, 1), 8 + i), cache_position=torch.tensor([8 + i]))
            out = {"python_calls": f.count["call"], "kernels": d.count["kernel"], "views": d.count["view"],
                   "modules": modules["call"]}
    return out


def main(argv: list[str]) -> int:
    what, precision, attention = argv[0], argv[1], argv[2]
    if what == "train":
        seq = int(argv[3])
        four, eight = (train_counts(n, precision, attention, seq) for n in (4, 8))
        fields = FIELDS
    else:
        four, eight = (decode_counts(n, precision, attention) for n in (4, 8))
        fields = FIELDS[:4]
    per_layer = [(eight[k] - four[k]) / 4 for k in fields]
    per_step = [four[k] - 4 * p for k, p in zip(fields, per_layer, strict=True)]
    print(json.dumps({"what": argv, "per_layer": per_layer, "per_step": per_step}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
