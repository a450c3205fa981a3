"""The one figure of Megatron's module host work (presets/host_overhead.json te_modules factor) and its checks.

Transformer Engine's and Megatron-Core's module and Function calls per layer part are counted from code
(engine/timing/te_module_host.py); what one call costs on the DGX H100 hosts of Megatron-Bridge's skills runs is not
measured anywhere found, so it is priced as a factor on one torch.nn.Linear call and launch (13.48 us). The factor is
derived from one measured pair only, Qwen3-30B-A3B TP2 PP2 EP4 eager against TE-scoped CUDA graphs of attn +
moe_router + moe_preprocess (623 -> 484 ms, skills/nemo-mbridge-perf-cuda-graphs/card.yaml at 067f987d): the factor at
which the predicted eager step exceeds the graphed one by the measured difference. Left out of it and checked: the
GPT-OSS-20B pair of the same card and Moonlight-16B's rows (skills-dense). The factor is set in this process only.

Run: .venv/bin/python benchmarks/te_module_host_factor.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import statistics  # noqa: E402

from engine.accuracy.published_throughput import compare, load_rows, quantile  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.scenario.memo import memo_tables  # noqa: E402
from engine.timing.host import host_figures  # noqa: E402
from engine.timing.model import step_time  # noqa: E402

PAIR = ("megatron-bridge-skills-qwen3_30b_a3b-h100-16-tp2pp2ep4-eager",
        "megatron-bridge-skills-qwen3_30b_a3b-h100-16-tp2pp2ep4-te-scoped-graphs")
CHECK_PAIR = ("megatron-bridge-skills-gpt_oss_20b-h100-16-tp2pp4ep4-eager",
              "megatron-bridge-skills-gpt_oss_20b-h100-16-tp2pp4ep4-te-scoped-graphs")
CHECK_ROWS = "mbridge-skill-moonlight_16b"


def _clear() -> None:
    for table in memo_tables():
        table.clear()


def step_seconds(rows: dict[str, dict], ids: list[str], factor: float) -> dict[str, tuple[float, float]]:
    """{id: (measured, predicted step seconds)} with the factor set to `factor` (then restored)."""
    entry = host_figures()["te_modules"]
    kept = entry["factor"]
    entry["factor"] = factor
    _clear()
    try:
        out = {}
        for i in ids:
            s = scenario_from_dict(rows[i]["scenario"])
            t = step_time(s)
            out[i] = (t.tokens_per_step / (rows[i]["measured"] * s.world_size), t.step_seconds)
        return out
    finally:
        entry["factor"] = kept
        _clear()


def derive(rows: dict[str, dict]) -> float:
    """The factor at which predicted eager - graphed equals the measured difference (bisection)."""
    low, high = 0.0, 30.0
    for _ in range(30):
        mid = (low + high) / 2
        got = step_seconds(rows, list(PAIR), mid)
        measured = got[PAIR[0]][0] - got[PAIR[1]][0]
        predicted = got[PAIR[0]][1] - got[PAIR[1]][1]
        low, high = (mid, high) if predicted < measured else (low, mid)
    return (low + high) / 2


def main() -> int:
    rows = {r["id"]: r for r in load_rows()}
    factor = derive(rows)
    print(f"preset factor {host_figures()['te_modules']['factor']}; derived from the Qwen3-30B-A3B pair: {factor:.2f}")
    checks = list(PAIR) + list(CHECK_PAIR) + sorted(i for i in rows if CHECK_ROWS in i)
    for f in (1.0, factor):
        got = step_seconds(rows, checks, f)
        print(f"\nfactor {f:.2f} (not cross-validated: every source's MFU ceilings)")
        for i in checks:
            m, p = got[i]
            print(f"  {i:<75} measured {m * 1e3:7.1f} ms  predicted {p * 1e3:7.1f} ms  {m / p - 1:+.1%}")
        for a, b in (PAIR, CHECK_PAIR):
            print(f"  pair {a.split('-')[-1]} / graphs: measured {got[a][0] / got[b][0]:.3f}x, "
                  f"predicted {got[a][1] / got[b][1]:.3f}x")
    print("\nall published rows, cross-validated (leave one source out), without and with the module calls; "
          "the derivation pair left out:")
    for f in (0.0, host_figures()["te_modules"]["factor"]):
        print(f"  factor {f:.2f}: {whole_set(rows, f)}")
    return 0


def whole_set(rows: dict[str, dict], factor: float) -> str:
    """All rows but the derivation pair at `factor`: median and p90 |error|, rows beyond 25%, and the H100 MoE rows'
    median signed error."""
    entry = host_figures()["te_modules"]
    kept = entry["factor"]
    entry["factor"] = factor
    _clear()
    try:
        out = compare([r for i, r in rows.items() if i not in PAIR])
    finally:
        entry["factor"] = kept
        _clear()
    errors = [abs(c.error) for c in out]
    moe = [c.error for c in out if c.gpu.startswith("h100")
           and resolve_model(scenario_from_dict(rows[c.id]["scenario"])).is_moe]
    return (f"{len(out)} rows, median {statistics.median(errors):.2%}, p90 {quantile(errors, 0.9):.2%}, "
            f"{sum(e > 0.25 for e in errors)} beyond 25%; H100 MoE ({len(moe)}) median signed "
            f"{statistics.median(moe):+.1%}")


if __name__ == "__main__":
    raise SystemExit(main())
