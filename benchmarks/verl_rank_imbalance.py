"""What-if: verl's padding-free micro-batches run at the pace of their longest rank (issue 23, post-training update and
scoring). The estimate has taken the mechanism since h-verlscore (engine/posttraining/rank_imbalance.py) with the
completions' assumed maximum-entropy spread; this what-if, with the spread each log's range gives, now adds its factor
on top of the estimate's own, so its "after" columns read the log-spread's excess over that. Since h-verldynbsz the
seven rows below state the spread this derives (sequence_len_std, the median diff over 2 e_8 sqrt(rank_sequences)) and
the estimate takes it, so the what-if now counts the logged spread twice on those rows: read it as a sensitivity.

verl splits each rank's share of the batch into micro-batches of a fixed number of sequences
(volcengine/verl@f9a7cf30 verl/workers/actor/dp_actor.py update_policy lines 365-368: `mini_batch.split(
ppo_micro_batch_size_per_gpu)`), or, with use_dynamic_bsz, into ceil(tokens / max_token_len) micro-batches, the MAX over
the ranks, balanced within the rank (verl@9e4074b7, the play-verl logs' date, verl/utils/seqlen_balancing.py
rearrange_micro_batches lines 224-235). With use_remove_padding a micro-batch computes only its real tokens, so the ranks
hold different token counts in the same micro-batch: _balance_batch evens the ranks' totals over the whole step, not
each micro-batch (verl@f9a7cf30 verl/trainer/ppo/ray_trainer.py lines 871-882). Every FSDP unit's all-gather and
reduce-scatter needs all ranks, and FSDP1 keeps the host at most two units ahead of its GPU (limit_all_gathers:
pytorch/pytorch torch/distributed/fsdp/_runtime_utils.py _unshard, the free-event queue's `event.synchronize()`, at
00ae0bc91ac2, the FSDP1 sources engine/timing/fsdp1_host.py reads), so a micro-batch takes its longest rank's time.

The spread comes from each log: verl logs global_seqlen/minmax_diff, the range over the ranks of the token sums of the
batch split into equal contiguous chunks before balancing (seqlen_balancing.py log_seqlen_unbalance lines 189-217). For
n ranks of N sequences each, E[range] = 2 e_n sigma sqrt(N) (e_n: the expected maximum of n standard normals), so the
per-sequence spread is sigma = range / (2 e_n sqrt(N)); a micro-batch of m sequences then takes, on its longest rank,
m mu + e_n sigma sqrt(m) tokens against m mu on average: the per-token seconds of the pass times
1 + e_n sigma / (mu sqrt(m)). A GRPO group's n completions sit together in the contiguous chunks, so where their
lengths correlate the log's range overstates the spread of the balanced micro-batches: an upper bound for those rows.

Run: .venv/bin/python benchmarks/verl_rank_imbalance.py
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy import posttraining_time as ptt  # noqa: E402
from engine.accuracy.posttraining import error_stats  # noqa: E402
from engine.posttraining.estimate import step_parts, training_scenario  # noqa: E402
from engine.posttraining.length_spread import expected_max_of_normals  # noqa: E402
from engine.timing import step_time as training_step_time  # noqa: E402


@dataclass(frozen=True)
class LoggedSpread:
    """One row's log facts: global_seqlen/minmax_diff on the logged steps (the row's own steps), the sequences a rank
    holds a step, the sequences of an update micro-batch (a dynamic row: of its per-rank mini-batch) and of a scoring
    micro-batch (0: the scoring pass balances the rank's whole share, so no per-micro-batch spread)."""
    minmax_diff: tuple[float, ...]
    rank_sequences: int
    update_sequences: int
    scoring_sequences: int
    source: str


# read from each row's log at the commit its `url` names (steps as the row's `steps`)
SPREADS = {
    "diqiuzhuanzhuan-verl-gpg-qwen2-7b-8gpu": LoggedSpread(
        (24729.0, 26003.0, 23779.0), 640, 16, 16,
        "qwen2-7b_math.log steps 2-4; micro 16 fixed for the update and log_prob (use_dynamic_bsz False)"),
    "verl-data-time-grpo-qwen2-7b-fsdp2-8xh20": LoggedSpread(
        (13849.0, 6866.0, 7223.0), 640, 40, 40,
        "gsm8k/qwen2-7b-fsdp2.log steps 2-4; micro 40 fixed, log_prob_micro_batch_size_per_gpu 40"),
    "play-verl-ppo-qwen2-7b-recommended-8xh100": LoggedSpread(
        (13475.0, 8128.0, 5193.0), 640, 40, 0,
        "verl_qwen2_7b_recommended.log steps 2-4; dynamic: a rank's mini-batch 40 sequences, log_prob balanced"),
    "play-verl-ppo-qwen2-7b-min-8xh100": LoggedSpread(
        (1533.0, 2156.0, 3613.0), 64, 4, 0,
        "verl_qwen2_7b_min.log steps 2-4; dynamic: a rank's mini-batch 4 sequences, log_prob balanced"),
    "play-verl-grpo-qwen2.5-0.5b-8xh100": LoggedSpread(
        (814.0, 955.0, 478.0), 64, 16, 0,
        "verl_grpo_qwen2.5b_8gpu.log steps 2-4; dynamic: a rank's mini-batch 16 sequences, log_prob balanced"),
    "verl-mi300x-grpo-deepseek-llm-7b-chat-8gpu": LoggedSpread(
        (13106.0, 7880.0, 10727.0), 640, 80, 110,
        "the row's log steps 2-4; micro 80 fixed, log_prob_micro_batch_size_per_gpu 110"),
    "verl-mi300x-ppo-deepseek-llm-7b-chat-8gpu": LoggedSpread(
        (4894.0, 2825.0, 945.0), 128, 16, 32,
        "the row's log steps 2-4; micro 16 fixed, log_prob_micro_batch_size_per_gpu 32"),
}


def sequence_spread(diffs: tuple[float, ...], ranks: int, rank_sequences: int) -> float:
    """Per-sequence token spread from the logged ranges of the ranks' contiguous token sums (module docstring)."""
    return statistics.median(diffs) / (2 * expected_max_of_normals(ranks) * math.sqrt(rank_sequences))


def longest_rank_factor(sigma: float, mean_tokens: float, sequences: int, ranks: int) -> float:
    """The longest rank's tokens in a micro-batch of `sequences` over the ranks' mean (1 without a spread)."""
    if sequences <= 0 or ranks <= 1 or mean_tokens <= 0:
        return 1.0
    return 1.0 + expected_max_of_normals(ranks) * sigma / (mean_tokens * math.sqrt(sequences))


def per_token_update_seconds(scenario: dict) -> float:
    """The update's per-token terms (compute, memory-bound, recompute) of the training step the post-training step
    runs (engine/posttraining/timing.py rl_step_time: the states loaded where they move between phases)."""
    s = scenario_from_dict(scenario)
    rs = step_parts(s).rs
    loaded = s.with_unchecked(offload="none") if rs.offload_between_phases else s
    parts = training_step_time(training_scenario(loaded, rs)).breakdown_seconds
    return parts["compute"] + parts["memory_bound"] + parts["recompute"]


def what_if(row: dict, spread: LoggedSpread) -> tuple[dict[str, float], dict[str, float]]:
    """(estimated phases now, with the longest rank's pace) of one row."""
    sc = row["scenario"]
    now, parts = ptt.estimated_phases(sc)
    ranks = int(sc.get("gpus_per_node", 1)) * int(sc.get("nodes", 1))
    mean = float(sc.get("prompt_len_mean", sc.get("prompt_len", 0))) + float(sc.get("completion_len", 0))
    sigma = sequence_spread(spread.minmax_diff, ranks, spread.rank_sequences)
    update = (longest_rank_factor(sigma, mean, spread.update_sequences, ranks) - 1) * per_token_update_seconds(sc)
    scoring = (longest_rank_factor(sigma, mean, spread.scoring_sequences, ranks) - 1) * parts.get("scoring", 0.0)
    after = dict(now)
    after["update"] += update
    after["scoring"] += scoring
    after["step"] += update + scoring
    return now, after


def main() -> int:
    rows = [r for r in ptt.read_rows() if not ptt.integrity_problems(r)]
    before = ptt.compare(rows)
    after = []
    print("| row | sigma tokens | update factor | update before | after | scoring before | after | step before | after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c, row in zip(before, rows, strict=True):
        spread = SPREADS.get(c.id)
        if spread is None:
            after.append(c)
            continue
        now, moved = what_if(row, spread)
        sc = row["scenario"]
        ranks = int(sc.get("gpus_per_node", 1)) * int(sc.get("nodes", 1))
        sigma = sequence_spread(spread.minmax_diff, ranks, spread.rank_sequences)
        mean = float(sc.get("prompt_len_mean", sc.get("prompt_len", 0))) + float(sc.get("completion_len", 0))
        moved_c = ptt.TimeCompared(c.id, c.framework, c.objective, c.measured, moved, c.estimated_parts, c.source_name)
        after.append(moved_c)
        cells = [f"{sigma:.0f}", f"{longest_rank_factor(sigma, mean, spread.update_sequences, ranks):.3f}"]
        for phase in ("update", "scoring", "step"):
            cells += [f"{c.error(phase):+.1%}" if c.error(phase) is not None else "", f"{moved_c.error(phase):+.1%}"
                      if moved_c.error(phase) is not None else ""]
        print(f"| {c.id} | " + " | ".join(cells) + " |")
    print("\n| group | phase | rows | median abs before | after | p90 before | after | median signed before | after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    groups_before, groups_after = ptt.groups(before), ptt.groups(after)
    for name, members in groups_before.items():
        for phase in ptt.PHASES:
            b = error_stats(e for m in members if (e := m.error(phase)) is not None)
            a = error_stats(e for m in groups_after[name] if (e := m.error(phase)) is not None)
            if b["count"]:
                print(f"| {name} | {phase} | {b['count']} | {b['median']:.1%} | {a['median']:.1%} | {b['p90']:.1%} | "
                      f"{a['p90']:.1%} | {ptt.signed_median(members, phase):+.1%} | "
                      f"{ptt.signed_median(groups_after[name], phase):+.1%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
