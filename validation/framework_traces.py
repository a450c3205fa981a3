"""Trace the training-step code paths of torchtune and torchtitan on the fake CPU device (issue 11).

torchtune and torchtitan recipes are plain PyTorch, so their memory-relevant code runs here unchanged in spirit,
re-written in a few lines from their source and applied to the transformers model the other traces use:

* torchtune CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py): the output projection runs on
  8 chunks of the hidden states, each chunk is upcast to fp32 and cross-entropied with reduction="sum"; the recipe
  drops the logits before backward (recipes/full_finetune_single_device.py: ``del logits``).
* torchtitan SelectiveAC (torchtitan/distributed/activation_checkpoint.py): each decoder layer runs under
  torch.utils.checkpoint with a selective-checkpoint policy that saves matmul and attention outputs except every
  second matmul (counted per layer call) and recomputes everything else. On the CPU the attention op is
  ``_scaled_dot_product_flash_attention_for_cpu``, the counterpart of the CUDA kernels in torchtitan's list.
* torchtune optimizer_in_bwd (torchtune/training/_optim_in_bwd.py / register_optim_in_bwd_hooks): one AdamW per
  parameter, stepped and zeroed from a post-accumulate-grad hook.

Each case is written to tests/data/ground_truth/<id>.json in the same format as run_ground_truth.py, with the
scenario keys that describe it, so tests/test_accuracy.py holds the estimate to it.

    .venv/bin/python -m validation.framework_traces [--only PATTERN] [--force]
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import gc
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.measure import build_model, versions  # noqa: E402
from validation.scenarios import make_run  # noqa: E402
from validation.tracker import PhaseMemTracker, patch_transformers_tracing  # noqa: E402

OUT = ROOT / "tests" / "data" / "ground_truth"
CHUNKS = 8


def _causal_lm(model: Any) -> Any:
    return model.get_base_model() if hasattr(model, "get_base_model") else model


def chunked_loss(model: Any, ids: torch.Tensor) -> torch.Tensor:
    model = _causal_lm(model)
    hidden = model.model(input_ids=ids, use_cache=False).last_hidden_state
    # F.linear with the head's weight: the tracker allows one call per module per step
    logits = [F.linear(c, model.lm_head.weight) for c in hidden.tensor_split(CHUNKS, dim=1)]
    del hidden
    labels = [t.reshape(-1) for t in ids.tensor_split(CHUNKS, dim=1)]
    total = sum(F.cross_entropy(lg.reshape(-1, lg.size(-1)).float(), lb, reduction="sum")
                for lg, lb in zip(logits, labels, strict=True))
    del logits
    return total / ids.numel()


def hf_loss(model: Any, ids: torch.Tensor) -> torch.Tensor:
    return model(input_ids=ids, labels=ids, use_cache=False).loss


def apply_op_sac(model: Any) -> None:
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

    aten = torch.ops.aten
    mm_ops = (aten.mm.default, aten.linear.default)
    save_ops = {*mm_ops, aten._scaled_dot_product_flash_attention_for_cpu.default, aten.max.default}

    def context_fn() -> Any:
        meta = {"forward": 0, "recompute": 0}

        def policy(ctx: Any, func: Any, *args: Any, **kwargs: Any) -> CheckpointPolicy:
            mode = "recompute" if ctx.is_recompute else "forward"
            if func in mm_ops:
                meta[mode] += 1
            if func in save_ops:
                if func in mm_ops and meta[mode] % 2 == 0:
                    return CheckpointPolicy.PREFER_RECOMPUTE
                return CheckpointPolicy.MUST_SAVE
            return CheckpointPolicy.PREFER_RECOMPUTE

        return create_selective_checkpoint_contexts(policy)

    for layer in _causal_lm(model).model.layers:
        forward = layer.forward

        def wrapped(*args: Any, _f: Callable = forward, **kwargs: Any) -> Any:
            return checkpoint(_f, *args, use_reentrant=False, context_fn=context_fn, **kwargs)

        layer.forward = wrapped


CASES: dict[str, dict[str, Any]] = {
    # id suffix: (run kwargs, loss, op_sac, optimizer_in_backward, scenario keys)
    "tt-chunked": {"run": {}, "loss": chunked_loss, "scenario": {"framework": "torchtune"}},
    "tt-chunked-lora": {"run": {"method": "lora", "lora_rank": 8}, "loss": chunked_loss,
                        # peft's adapters (fp32, autocast_adapter_dtype), not torchtune's own (model dtype)
                        "scenario": {"framework": "torchtune", "lora_adapter_dtype": "fp32"}},
    "titan-opsac": {"run": {}, "loss": hf_loss, "sac": True, "scenario": {"checkpointing": "op-selective"}},
    "tt-optim-in-bwd": {"run": {"optimizer": "adamw-fused"}, "loss": chunked_loss, "oib": True,
                        "scenario": {"framework": "torchtune", "optimizer_in_backward": True}},
}


def measure_case(suffix: str, spec: dict[str, Any]) -> dict[str, Any]:
    run = make_run("llama-3-8b", "bf16", layers=4, **spec["run"])
    run.id = f"{run.id}_{suffix}"
    patch_transformers_tracing()
    fake = FakeTensorMode(allow_non_fake_inputs=True)
    model = build_model(run, fake)
    with fake:
        params = [p for p in model.parameters() if p.requires_grad]
        if spec.get("oib"):
            optims = {p: torch.optim.AdamW([p], lr=1e-5, fused=True) for p in params}

            def hook(p: torch.Tensor) -> None:
                optims[p].step()
                optims[p].zero_grad(set_to_none=True)

            for p in params:
                p.register_post_accumulate_grad_hook(hook)
            trackables: list[Any] = list(optims.values())
        else:
            opt = (torch.optim.AdamW(params, lr=1e-5, fused=True) if run.optimizer == "adamw-fused"
                   else torch.optim.AdamW(params, lr=1e-5, foreach=True))
            trackables = [opt]
        if spec.get("sac"):
            apply_op_sac(model)
        ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len))
        mt = PhaseMemTracker()
        mt.track_external(model, *trackables, ids)
        with mt:
            for step in range(2):
                if step:
                    mt.reset_mod_stats()
                    gc.collect()
                base = mt.current_total()
                mt.reset_phase("forward")
                loss = spec["loss"](model, ids)
                fw_end = mt.current_total()
                mt.reset_phase("backward")
                loss.backward()
                del loss
                mt.reset_phase("optimizer")
                if not spec.get("oib"):
                    trackables[0].step()
                    trackables[0].zero_grad(set_to_none=True)
                mt.reset_phase("idle")
    phases = {p: mt.phase_peak[p] for p in ("forward", "backward", "optimizer")}
    peak_phase = max(phases, key=lambda p: phases[p])
    scenario = run.scenario()
    scenario.update(spec["scenario"])
    return {"id": run.id, "description": run.description() + f"; {suffix} (issue 11 framework trace)",
            "scenario": scenario, "versions": versions(),
            "measured": {"peak_allocated_bytes": phases[peak_phase], "peak_phase": peak_phase, "phases": phases,
                         "baseline_bytes": base, "activation_bytes_end_of_forward": fw_end - base,
                         "forward_end_bytes": fw_end}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="*")
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args(argv)
    for suffix, spec in CASES.items():
        if not fnmatch.fnmatch(suffix, args.only):
            continue
        data = measure_case(suffix, spec)
        path = OUT / f"{data['id']}.json"
        if path.exists() and not args.force:
            print(f"skip {path.name}")
            continue
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        m = data["measured"]
        print(f"{data['id']}: peak {m['peak_allocated_bytes'] / 2**30:.2f} GiB ({m['peak_phase']})")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
