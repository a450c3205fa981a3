"""The busiest expert-parallel rank's share of the routed rows in the published MoE runs (issue 23; Megatron-Bridge
issue #1998, 'Low QWEN3 30B B200 and H100 performance with dropless'): whether the dropless rows' gap can be the
slowest rank setting every MoE layer's time.

How the published runs route, from their code:
- Megatron-Bridge's performance tables from 25.11 (v0.2.0) run dropless with forced balance: every Qwen3 config
  sets moe_router_force_load_balancing = True ('required for token dropless', scripts/performance/configs/qwen3/
  qwen3_llm_pretrain.py line 47 at v0.2.0; configs/qwen/qwen3_llm_pretrain.py line 44 at v0.3.0; DeepSeek and
  gpt-oss likewise, deepseek_llm_pretrain.py line 43 and gpt_oss_llm_pretrain.py line 37 at v0.2.0), and
  utils/helpers.py (v0.2.0 lines 228-234) sets it for any dropless run. Megatron-Core then replaces the router's
  logits by normal noise (megatron/core/transformer/moe/router.py line 556 and moe_utils.py RandomSTE lines 901-943
  at NVIDIA/Megatron-LM 0d8e0714, the commit v0.2.0 pins: logits.clone().normal_() from a generator seeded 42 +
  global rank), so the learned router never routes: no transient from its initialisation, and every token picks a
  uniformly random top-k set (top-k of i.i.d. normals), independently on every rank, layer and step.
- The 25.09 token-drop runs (v0.1.0rc3 scripts/performance/run_script.py: apply_moe_token_drop, capacity factor 1
  and moe_pad_expert_input_to_capacity) pad every expert to the balanced count: the same rows on every rank.
- Real (learned) routing: ms-swift's Qwen3-30B-A3B SFT (aux_loss 1e-3 on a real dataset) and the Moonlight-16B
  skill rows (moe_router_force_load_balancing False, random init, mock data, iterations 11-20 of 20): no published
  per-rank load for them is known here, so only the share that would close each row is printed.

Under forced balance a rank's rows from one token are hypergeometric (k of E experts, L = E / EP of them local;
group-limited top-k is drawn by simulation), so a rank's rows per micro-batch are mean N k L / E with variance N
var1 over the N tokens the EP group routes, and the busiest of EP ranks (their sum is fixed) expects
mean + sigma sqrt(EP / (EP - 1)) e(EP), e(n) the expected largest of n standard normals. The experts' GEMMs are
counted in 128-row tiles (presets/efficiency.json gemm_waves tile_m): random counts around a mean also cost their
partial tiles, E[ceil(rows / 128)] against ceil(mean / 128). The printed bound scales all the row's GPU time
(compute, memory-bound and EP communication of its step) by both factors, more than the experts and all-to-alls
alone could add. Run: .venv/bin/python benchmarks/routing_imbalance.py [ID-SUBSTRING ...]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from engine.accuracy.published_throughput import rows_matching, source_of  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.ceiling import leave_out  # noqa: E402
from engine.timing.data import efficiency  # noqa: E402
from engine.timing.model import step_time  # noqa: E402

_GPU_TERMS = ("compute", "memory_bound", "communication_ep")


def expected_max_normal(n: int) -> float:
    """E[max of n i.i.d. standard normals] = integral of x n phi(x) Phi(x)^(n-1) dx (trapezoid, |x| <= 12)."""
    if n <= 1:
        return 0.0
    xs = np.linspace(-12.0, 12.0, 48_001)
    phi = np.exp(-xs * xs / 2) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(xs / math.sqrt(2)))
    return float(np.trapezoid(xs * n * phi * cdf ** (n - 1), xs))


def hypergeometric_var(experts: int, local: int, top_k: int) -> float:
    """Variance of the rows one token sends to one rank holding `local` of `experts`, top_k distinct uniform picks."""
    p = local / experts
    return top_k * p * (1 - p) * (experts - top_k) / (experts - 1)


def per_token_var(experts: int, local: int, top_k: int, groups: int = 0, group_topk: int = 0,
                  tokens: int = 200_000, seed: int = 0) -> float:
    """The same variance by simulating the router on normal logits; with groups, Megatron-Core's group-limited top-k
    (moe_utils.py group_limited_topk at 0d8e0714: a group's score is the sum of its top (top_k / group_topk) logits,
    the best group_topk groups, then the top_k experts among them). Rank 0 holds experts 0 .. local - 1."""
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((tokens, experts), dtype=np.float32)
    if groups and group_topk:
        per_group = logits.reshape(tokens, groups, experts // groups)
        score = np.sort(per_group, axis=-1)[..., -(top_k // group_topk):].sum(-1)
        keep = np.argsort(score, axis=-1)[:, -group_topk:]
        mask = np.full((tokens, groups), -np.inf, dtype=np.float32)
        np.put_along_axis(mask, keep, 0.0, axis=-1)
        logits = (per_group + mask[..., None]).reshape(tokens, experts)
    chosen = np.argpartition(-logits, top_k - 1, axis=-1)[:, :top_k]
    return float((chosen < local).sum(-1).var())


def expected_tiles_ratio(mean_rows: float, sd_rows: float, tile: int) -> float:
    """E[ceil(rows / tile)] over normal rows (sd_rows) against ceil(mean_rows / tile)."""
    if sd_rows <= 0:
        return 1.0
    xs = np.linspace(mean_rows - 8 * sd_rows, mean_rows + 8 * sd_rows, 4_001)
    w = np.exp(-((xs - mean_rows) / sd_rows) ** 2 / 2)
    return float((np.ceil(np.maximum(xs, 1) / tile) * w).sum() / w.sum() / math.ceil(mean_rows / tile))


def routing(row: dict[str, Any]) -> str:
    """How the run routes, from its id and its stated settings (see the module's docstring for the sources)."""
    text = (row.get("notes", "") + " " + json.dumps(row.get("uncertain", ""))).lower()
    if "tokendrop" in row["id"]:
        return "drop-and-pad"
    if "real routing" in text:
        return "learned"
    if any(m in text for m in ("force-balanced", "forced balance", "force_load_balancing true")):
        return "forced"
    if row["id"].startswith("megatron-bridge-") and not row["id"].startswith("megatron-bridge-skills"):
        return "forced"  # the performance tables' configs (module docstring)
    return "not stated"


def imbalance(row: dict[str, Any]) -> dict[str, Any] | None:
    """The row's routing, rows per EP rank and micro-batch (mean, sd), the busiest rank's share and tile factor
    under forced balance, the most they add to the step, and the share of all GPU time that would close the row."""
    s = scenario_from_dict(row["scenario"])
    spec = resolve_model(s)
    if not spec.is_moe or s.ep <= 1 or s.framework != "megatron":
        return None
    experts, top_k, local = spec.n_experts, spec.top_k, spec.n_experts // s.ep
    tokens = s.ep * s.micro_batch * s.seq_len // (s.cp * s.tp)  # the EP group's tokens (sequence parallel under TP)
    mean = tokens * top_k * local / experts
    groups, gtop = spec.router_groups, spec.router_group_topk
    var1 = (per_token_var(experts, local, top_k, groups, gtop) if groups and gtop
            else hypergeometric_var(experts, local, top_k))
    kind = routing(row)
    sd = math.sqrt(tokens * var1) if kind == "forced" else 0.0
    share = 1 + sd * math.sqrt(s.ep / (s.ep - 1)) * expected_max_normal(s.ep) / mean
    p = top_k / experts
    tile = int(efficiency()["gemm_waves"]["tile_m"])
    tiles = expected_tiles_ratio(mean / local, math.sqrt(tokens * p * (1 - p)), tile) if kind == "forced" else 1.0
    with leave_out(source_of(row)):  # cross-validated, as the headline errors
        t = step_time(s)
    gpu = sum(t.breakdown_seconds.get(k, 0.0) for k in _GPU_TERMS)
    measured_step = t.step_seconds * t.tokens_per_second_per_gpu / row["measured"]
    return {"routing": kind, "rows_mean": mean, "rows_sd": sd, "share": share, "tiles": tiles,
            "bound": gpu * (share * tiles - 1) / t.step_seconds,
            "error": t.tokens_per_second_per_gpu / row["measured"] - 1,
            "closing_share": (measured_step - t.step_seconds + gpu) / gpu}


def main(filters: list[str]) -> None:
    print(f"{'row':66s} {'routing':>12s} {'rows/rank':>9s} {'sd':>5s} {'busiest':>7s} {'tiles':>6s} {'adds':>6s} "
          f"{'error':>7s} {'closing':>7s}")
    for row in rows_matching(filters):
        r = imbalance(row)
        if r is None:
            continue
        print(f"{row['id'][:66]:66s} {r['routing']:>12s} {r['rows_mean']:9,.0f} {r['rows_sd']:5.0f} "
              f"{r['share']:7.4f} {r['tiles']:6.3f} {r['bound']:+6.1%} {r['error']:+7.1%} {r['closing_share']:7.2f}")
    print("busiest: the slowest EP rank's rows over the mean (forced balance; 1 otherwise); tiles: the experts' "
          "expected 128-row tiles over the mean's; adds: the step time both add at most (all GPU time scaled); "
          "closing: the share of all GPU time on the busiest rank that would close the row alone")


if __name__ == "__main__":
    main(sys.argv[1:])
