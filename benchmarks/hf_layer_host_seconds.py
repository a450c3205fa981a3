"""Host seconds of one eager Hugging Face decoder layer on this CPU, per code path the planner times for the
frameworks that run transformers' modeling code (issue 23: the layer's own Python beyond its counted calls).

Run in its own environment (h-rlops' venv; never the project's):
    /tmp/venv-rlops/bin/python benchmarks/hf_layer_host_seconds.py --out /tmp/hf_layer.json [--repeats 40]
    PYTHONPATH=. .venv/bin/python benchmarks/hf_layer_host_seconds.py --residual /tmp/hf_layer.json
torch 2.13.0 CPU, transformers 4.52.4, peft 0.15.2 (benchmarks/verl_lora_host_counts.py says why those releases).

Measured as benchmarks/verl_lora_host_counts.py measures FSDP1's Python: thread CPU seconds (time.thread_time; the
build host is a shared 2-core machine) of a 4-layer model less a 2-layer one, over 2, at tiny widths (hidden 16,
intermediate 32, 2 sequences of 4 tokens) so the CPU's arithmetic is small beside the calls' host work, the median
of repeated steps, one thread, fp32 weights: the operators of a bf16 model without autocast (hf_eager_layers'
bf16 entry), whose CPU kernels at these widths take no measurable time (a layer's no-grad forward 265 us at hidden
16, 258 us at hidden 8), where bf16's CPU GEMMs and attention add ~45 us a layer of arithmetic (310 us).
Paths (transformers' Llama and Qwen2 layers):
- score: eval, torch.no_grad() forward (the scoring passes), sdpa with a padded batch's attention mask, or the
  flash_attention_2 path padding-free (verl's use_remove_padding: position_ids restarting, attention_mask None;
  flash-attn replaced by verl_lora_host_counts.install_flash_stand_in's stand-in, which reads max_seqlen to the host);
- train: forward with grad and backward, without and with non-reentrant gradient checkpointing (its recompute runs
  in the backward);
- lora: the same under PEFT LoRA (r 16, all-linear), and the adapter-disabled reference forward (disable_adapter());
- decode: one no-grad step of one new token per sequence with a DynamicCache of 8 past tokens (TRL's engine-less
  generate, use_cache True).
--residual prices what the project's model counts for each path (engine/timing/hf_host.py eager_counts, the PEFT
and checkpoint terms) at this CPU's per-call prices (verl_lora_host_counts.local_prices: torch.add, torch.narrow,
nn.Identity) and gives (measured - priced) per layer in view calls of this CPU (torch.narrow from Python), the unit
presets/host_overhead.json view_seconds prices.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verl_lora_host_counts as vl  # noqa: E402  (the stand-in and the per-call prices: one definition)

WIDTHS = vl.TIMED_WIDTHS
SEQUENCES, SEQ_TOKENS, PAST_TOKENS = 2, 4, 8
LORA = {"r": 16, "lora_alpha": 16, "target_modules": "all-linear", "bias": "none"}
# (path name, model type, attention, checkpointing, lora)
PATHS = (("qwen2-sdpa", "qwen2", "sdpa", False, False), ("qwen2-sdpa-ckpt", "qwen2", "sdpa", True, False),
         ("qwen2-fa2-ckpt", "qwen2", "flash_attention_2", True, False),
         ("qwen2-sdpa-lora-ckpt", "qwen2", "sdpa", True, True),
         ("qwen2-fa2-lora-ckpt", "qwen2", "flash_attention_2", True, True),
         ("llama-sdpa", "llama", "sdpa", False, False), ("llama-sdpa-ckpt", "llama", "sdpa", True, False),
         # the other model types hf_eager_layers counts (transformers 5.x only: its grouped_mm MoE block): Gemma 2 as
         # the measured rows run it (eager attention), the MoE types with SDPA
         ("gemma2-eager", "gemma2", "eager", False, False), ("olmoe-sdpa", "olmoe", "sdpa", False, False),
         ("qwen3_moe-sdpa", "qwen3_moe", "sdpa", False, False), ("mixtral-sdpa", "mixtral", "sdpa", False, False))
FIVE_ONLY = ("gemma2", "olmoe", "qwen3_moe", "mixtral")
# tiny MoE blocks: 4 experts, 2 a token (every layer sparse)
MOE = {"num_experts": 4, "num_local_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
       "decoder_sparse_step": 1, "mlp_only_layers": []}


def build(model_type: str, layers: int, attention: str, ckpt: bool, lora: bool) -> Any:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    if model_type in FIVE_ONLY:
        from transformers import AutoConfig, AutoModelForCausalLM

        extra = {"head_dim": 4, "query_pre_attn_scalar": 4} if model_type == "gemma2" else MOE
        cfg = AutoConfig.for_model(model_type, **WIDTHS, **extra, num_hidden_layers=layers, tie_word_embeddings=True)
        model = AutoModelForCausalLM.from_config(cfg).to(torch.float32)
    else:
        classes = (Qwen2Config, Qwen2ForCausalLM) if model_type == "qwen2" else (LlamaConfig, LlamaForCausalLM)
        cfg = classes[0](**WIDTHS, num_hidden_layers=layers, tie_word_embeddings=True, attn_implementation="sdpa")
        model = classes[1](cfg).to(torch.float32)
    model.config._attn_implementation = attention  # read at every attention call
    if ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    if lora:
        from peft import LoraConfig, TaskType, get_peft_model

        model = get_peft_model(model, LoraConfig(task_type=TaskType.CAUSAL_LM, **LORA))
    return model


def inputs(attention: str) -> dict[str, Any]:
    import torch

    g = torch.Generator().manual_seed(1)
    if attention == "flash_attention_2":  # padding-free: one packed row
        ids = torch.randint(3, WIDTHS["vocab_size"], (1, SEQUENCES * SEQ_TOKENS), generator=g)
        return {"input_ids": ids, "attention_mask": None, "position_ids": torch.arange(SEQ_TOKENS).repeat(SEQUENCES)[None]}
    ids = torch.randint(3, WIDTHS["vocab_size"], (SEQUENCES, SEQ_TOKENS), generator=g)
    mask = torch.ones_like(ids)
    mask[0, 0] = 0  # a left-padded batch: the mask is not all ones, so sdpa gets the 4-D mask
    return {"input_ids": ids, "attention_mask": mask}


def timed(fn: Any, repeats: int) -> float:
    fn()
    fn()
    runs = []
    for _ in range(repeats):
        t = time.thread_time()
        fn()
        runs.append(time.thread_time() - t)
    return statistics.median(runs)


def path_seconds(model_type: str, layers: int, attention: str, ckpt: bool, lora: bool, repeats: int) -> dict[str, float]:
    """Median thread seconds of each pass of one path at `layers` layers."""
    import torch

    model = build(model_type, layers, attention, ckpt, lora)
    batch = inputs(attention)
    out: dict[str, float] = {}

    def score() -> None:
        with torch.no_grad():
            model(**batch, use_cache=False)

    def train() -> None:
        logits = model(**batch, use_cache=False).logits
        logits.float().mean().backward()
        for p in model.parameters():
            p.grad = None

    def forward_grad() -> None:
        model(**batch, use_cache=False).logits.float().mean()

    model.eval()
    out["score"] = timed(score, repeats)
    if lora:
        def reference() -> None:
            with torch.no_grad():
                model(**batch, use_cache=False)

        # disable_adapter() is entered once per reference call over all its micro-batches (verl 9466d371e
        # fsdp_workers.py compute_ref_log_prob; TRL's reference of a peft model): its toggling of every adapted
        # module is left out of the per-micro-batch seconds, as verl_lora_host_counts.py leaves out model.eval()
        with model.disable_adapter():
            out["score_adapter_off"] = timed(reference, repeats)
    model.train()
    out["forward_grad"] = timed(forward_grad, repeats)
    out["train"] = timed(train, repeats)
    out["backward"] = out["train"] - out["forward_grad"]
    if attention == "sdpa" and not ckpt and not lora:
        out["decode"] = decode_seconds(model, repeats)
    return out


def decode_seconds(model: Any, repeats: int) -> float:
    """One no-grad decode step of one token per sequence over a DynamicCache of PAST_TOKENS (generate's forward)."""
    import torch
    from transformers import DynamicCache

    model.eval()
    g = torch.Generator().manual_seed(2)
    past = torch.randint(3, WIDTHS["vocab_size"], (SEQUENCES, PAST_TOKENS), generator=g)
    runs = []
    for i in range(repeats + 2):
        with torch.no_grad():
            cache = DynamicCache()
            model(input_ids=past, attention_mask=torch.ones_like(past), past_key_values=cache, use_cache=True)
            step = past[:, -1:]
            mask = torch.ones(SEQUENCES, PAST_TOKENS + 1, dtype=torch.long)
            pos = torch.full((SEQUENCES, 1), PAST_TOKENS)
            t = time.thread_time()
            model(input_ids=step, attention_mask=mask, position_ids=pos, past_key_values=cache, use_cache=True,
                  cache_position=torch.tensor([PAST_TOKENS]))
            if i >= 2:
                runs.append(time.thread_time() - t)
    return statistics.median(runs)


def measure(repeats: int, rounds: int, only: tuple[str, ...] = ()) -> dict[str, Any]:
    import peft
    import torch
    import transformers

    torch.set_num_threads(1)
    vl.install_flash_stand_in()
    per_layer: dict[str, dict[str, list[float]]] = {}
    for _ in range(rounds):
        for name, model_type, attention, ckpt, lora in PATHS:
            five = int(transformers.__version__.split(".")[0]) >= 5
            if (attention == "flash_attention_2" and five) or (model_type in FIVE_ONLY and not five):
                continue  # 5.x imports flash-attn through `kernels` (lazy_import_flash_attention): no CPU stand-in here
            if only and name not in only:
                continue
            two = path_seconds(model_type, 2, attention, ckpt, lora, repeats)
            four = path_seconds(model_type, 4, attention, ckpt, lora, repeats)
            for k in two:
                per_layer.setdefault(name, {}).setdefault(k, []).append((four[k] - two[k]) / 2)
            print(name, {k: round(v[-1] * 1e6, 1) for k, v in per_layer[name].items()}, file=sys.stderr, flush=True)
    return {"versions": {"torch": torch.__version__, "transformers": transformers.__version__, "peft": peft.__version__},
            "per_layer_s_runs": per_layer,
            "per_layer_s": {n: {k: statistics.median(v) for k, v in d.items()} for n, d in per_layer.items()},
            "local_prices_s": vl.local_prices()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    parser.add_argument("--paths", default="", help="comma-separated path names (default: all)")
    parser.add_argument("--residual", default="",
                        help="--out files, comma-separated (the first's prices): price the model's counts (project Python)")
    args = parser.parse_args(argv)
    if args.residual:
        from hf_layer_residual import by_model_type, figures, residual  # the project's side, apart from the venv's

        files = [json.loads(Path(f).read_text()) for f in args.residual.split(",")]
        measured = {**files[0], "per_layer_s_runs": {k: v for f in files for k, v in f["per_layer_s_runs"].items()}}
        result = residual(measured)
        print(json.dumps({"versions": measured["versions"], **result, "figures_view_calls": figures(result),
                          "by_model_type_view_calls": by_model_type(result)}, indent=1))
        return 0
    result = measure(args.repeats, args.rounds, tuple(p for p in args.paths.split(",") if p))
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
