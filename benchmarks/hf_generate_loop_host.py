"""Host work of one transformers generate() decode step outside the decoder layers, on this CPU (issue 23: a TRL
trainer's own generate(), rollout_engine none): GenerationMixin._sample's loop (prepare_inputs_for_generation, the
model's own forward around its layers: embedding, rotary cos/sin, the causal mask with its padding check, final norm,
lm_head on the last position; the logits' copy to fp32, the logits processors, softmax and multinomial, the pad
fill of finished sequences, the cat of the new token, the attention mask's and cache position's update, the stopping
criteria and the unfinished check), at TRL's GenerationConfig (trl f2cd577 grpo_trainer.py 1109-1124: do_sample,
temperature 1.0, top_p 1.0, top_k 0, min_p None, repetition_penalty 1.0, disable_compile) with the model in training
mode, as TRL generates.

Run in its own environment (never the project's): torch 2.13.0 CPU (h-rlops' venv) with transformers 5.17.0 (the
release presets/host_overhead.json hf_eager_layers and hf_layer_python count) first on the path:
    PYTHONPATH=/tmp/trlgen-tf5 /tmp/venv-rlops/bin/python benchmarks/hf_generate_loop_host.py [--rounds 3]

Measured as benchmarks/hf_layer_host_seconds.py measures a layer: thread CPU seconds (time.thread_time; a shared
2-core build host), one thread, a tiny Qwen3 (hidden 16, 4 heads of 4, 2 KV heads, vocabulary 256, fp32 weights), 2
left-padded sequences of 6 prompt tokens; generate() to 8 and to 40 new tokens (min_new_tokens = max_new_tokens: no
early stop), the difference over 32 steps is one decode step; the same at 1 and 2 layers, whose difference is a layer;
the 1-layer step less that layer (2 x step(1) - step(2)) is the loop's own work (a model built with no layer takes
another path: its empty cache changes the mask's and cache's calls), the median of the rounds (the host is shared:
single differences of 2 and 4 layers scattered 0.1-1.4 ms). Its ATen operators are counted the same way (a
TorchDispatchMode: kernels, views and calls without a kernel, host synchronisations). The kernels' part is then taken
out at this CPU's compute-operator price (torch.add, verl_lora_host_counts.local_prices), the rest given in view calls
of this CPU (torch.narrow): the step's kernels are priced as launches and the rest at view_seconds on the run's host
(engine/serving/host_iteration.py GENERATE_LOOP_*).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verl_lora_host_counts as vl  # noqa: E402  (the per-call prices: one definition)

WIDTHS = {"hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4, "num_key_value_heads": 2,
          "head_dim": 4, "vocab_size": 256, "max_position_embeddings": 1024}
SHORT, LONG = 8, 40  # new tokens of the two generate() calls; their difference is LONG - SHORT decode steps
PROMPT_TOKENS = 6
NO_WORK = {"aten.detach.default", "aten.alias.default", "aten.lift_fresh.default"}
NO_KERNEL = {"aten.empty_like.default", "aten.empty.memory_format", "aten._local_scalar_dense.default",
             "aten.set_.source_Storage", "aten.set_.source_Storage_storage_offset", "aten.resize_.default"}
SYNC_OPS = {"aten._local_scalar_dense.default", "aten.nonzero.default", "aten.is_nonzero.default"}


def build(layers: int) -> Any:
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(0)
    cfg = Qwen3Config(**WIDTHS, num_hidden_layers=layers, tie_word_embeddings=True)
    cfg._attn_implementation = "sdpa"
    model = Qwen3ForCausalLM(cfg).to(torch.float32)
    model.train()  # TRL generates inside Trainer.training_step, after model.train()
    return model


def run(model: Any, new_tokens: int) -> None:
    import torch
    from transformers import GenerationConfig

    g = torch.Generator().manual_seed(1)
    ids = torch.randint(3, WIDTHS["vocab_size"], (2, PROMPT_TOKENS), generator=g)
    mask = torch.ones_like(ids)
    mask[0, :2] = 0  # left padding: the prompts differ in length, as the probe's do
    config = GenerationConfig(max_new_tokens=new_tokens, min_new_tokens=new_tokens, do_sample=True, temperature=1.0,
                              top_p=1.0, top_k=0, pad_token_id=0, eos_token_id=1, bos_token_id=2,
                              disable_compile=True)
    with torch.no_grad():
        model.generate(input_ids=ids, attention_mask=mask, generation_config=config)


def step_seconds(layers: int, repeats: int) -> float:
    """Median thread seconds of one decode step at `layers` layers."""
    model = build(layers)
    medians = []
    for new in (SHORT, LONG):
        runs = []
        for i in range(repeats + 2):
            t = time.thread_time()
            run(model, new)
            if i >= 2:
                runs.append(time.thread_time() - t)
        medians.append(statistics.median(runs))
    return (medians[1] - medians[0]) / (LONG - SHORT)


def step_counts(layers: int) -> dict[str, float]:
    """ATen kernels, views (and calls without a kernel) and host synchronisations of one decode step."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Counter(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.counts = {"kernels": 0, "views": 0, "syncs": 0}

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = str(func)
            self.counts["syncs"] += name in SYNC_OPS
            if name not in NO_WORK:
                self.counts["views" if func.is_view or name in NO_KERNEL else "kernels"] += 1
            return func(*args, **(kwargs or {}))

    model = build(layers)
    per_run = []
    for new in (SHORT, LONG):
        counter = Counter()
        with counter:
            run(model, new)
        per_run.append(counter.counts)
    return {k: (per_run[1][k] - per_run[0][k]) / (LONG - SHORT) for k in per_run[0]}


def measure(repeats: int, rounds: int) -> dict[str, Any]:
    import torch
    import transformers

    torch.set_num_threads(1)
    counts = {n: step_counts(n) for n in (1, 2)}
    loop_counts = {k: 2 * counts[1][k] - counts[2][k] for k in counts[1]}
    prices = vl.local_prices()
    loops, layers = [], []
    for _ in range(rounds):
        one, two = step_seconds(1, repeats), step_seconds(2, repeats)
        layers.append(two - one)
        loops.append(one - layers[-1])
        print(f"layer {layers[-1] * 1e6:.1f} us, loop {loops[-1] * 1e6:.1f} us", file=sys.stderr, flush=True)
    loop = statistics.median(loops)
    residual = (loop - loop_counts["kernels"] * prices["launch"]) / prices["view"]
    return {"versions": {"torch": torch.__version__, "transformers": transformers.__version__},
            "loop_s_runs": loops, "layer_s_runs": layers, "loop_s": loop, "loop_counts": loop_counts,
            "local_prices_s": prices, "loop_view_calls_beyond_kernels": residual}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    result = measure(args.repeats, args.rounds)
    for k, v in result.items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
