"""A MoE rollout's last pass drains along the completions' spread (engine/posttraining/length_spread.py)."""

from __future__ import annotations

import pytest

from engine.posttraining.length_spread import SEGMENTS, drain_runs, drain_seconds, max_entropy_rate, survival_share


@pytest.mark.parametrize("mean_share", [0.2, 0.49, 0.5, 0.7, 0.8, 0.95])
def test_the_spread_has_the_stated_mean(mean_share: float) -> None:
    # the mean of a length is the integral of its survival function: over [0, 1] it must give the stated mean (the
    # rows' mean completion over their longest, e.g. NeMo-RL v0.6 Qwen3-235B 5,713 / 8,071 = 0.71)
    u = max_entropy_rate(mean_share)
    assert survival_share(u, 0.0, 1.0) == pytest.approx(mean_share, abs=1e-6)
    runs = [survival_share(u, j / SEGMENTS, (j + 1) / SEGMENTS) for j in range(SEGMENTS)]
    assert all(a >= b for a, b in zip(runs[:-1], runs[1:], strict=True))  # fewer sequences run as the pass goes on
    assert 0.0 < runs[-1] and runs[0] <= 1.0


def test_half_the_longest_is_the_uniform_spread() -> None:
    # maximum entropy on [0, L] with mean L/2 is the uniform density: u = 0, survival 1 - x
    assert max_entropy_rate(0.5) == pytest.approx(0.0, abs=1e-6)
    assert survival_share(max_entropy_rate(0.5), 0.0, 0.25) == pytest.approx(0.875, abs=1e-6)


def test_the_drain_keeps_the_iterations_and_the_tokens() -> None:
    # the drain runs `longest` iterations and each sequence's mean completion of tokens (the scheduler decodes one
    # token a running sequence an iteration): the same totals as longest_completion.py's lone tail
    runs = drain_runs(996.0, 1434)  # NeMo-RL v0.5 DeepSeek-V3 on 128 GB200: mean 996, longest 1,434
    assert sum(width for width, _, _ in runs) == pytest.approx(1434)
    assert sum(width * share for width, share, _ in runs) == pytest.approx(996, rel=1e-6)
    assert drain_runs(300.0, 300) == ((300.0, 1.0, 150.0),)  # no tail: one pass at the whole batch


def test_an_affine_iteration_costs_the_same_at_any_spread_and_a_concave_one_more() -> None:
    # longest_completion.py: an iteration affine in the running sequences sums to a x iterations + b x tokens at any
    # spread; a MoE's expert read, concave (1 - (1 - k/E)^n of the experts for n tokens), sums to more than the lone
    # tail's least (Jensen). DeepSeek-V3's top 8 of 256 experts, 128 sequences, mean 996 of 1,434.
    concurrent, mean, longest = 128, 996.0, 1434
    lone_tail = mean + (longest - mean)  # iterations of the uneven spread, each a (at n = concurrent, then 1)

    def affine(running: int, context: float) -> tuple[float, dict[str, float]]:
        return 1.0 + 0.01 * running, {}

    uneven = mean * affine(concurrent, 0)[0] + (longest - mean) * affine(1, 0)[0]
    assert lone_tail == longest
    assert drain_seconds(affine, concurrent, mean, longest, 100.0) == pytest.approx(uneven, rel=0.01)

    def experts(running: int, context: float) -> tuple[float, dict[str, float]]:
        return 1 - (1 - 8 / 256) ** running, {}

    uneven = mean * experts(concurrent, 0)[0] + (longest - mean) * experts(1, 0)[0]
    assert drain_seconds(experts, concurrent, mean, longest, 100.0) > 1.2 * uneven


def test_the_windows_tail_label_says_what_each_kind_of_model_is_priced_at() -> None:
    # gui/time_bar.py labels longest_tail_seconds: last_pass_tail_seconds prices a dense model's tail as one sequence
    # alone (longest_completion.py) and a MoE's as its last pass draining along the spread, which is not one sequence
    # alone (review 20: the label said "the longest completion decoding alone" for both). The iteration below is a
    # stand-in: a weights-read part plus a part per running sequence, DeepSeek-V3's mean 996 of 1,434 (NeMo-RL v0.5).
    from types import SimpleNamespace

    from engine.posttraining.length_spread import last_pass_tail_seconds
    from gui.time_bar import GENERATION_FIGURE_LABELS

    s = SimpleNamespace(completion_len=996, max_completion_len=1434, prompt_len=128, prompt_len_mean=None)

    def iteration(running: int, context: float) -> tuple[float, dict[str, float]]:
        return 1e-3 * (1 - (1 - 8 / 256) ** running) + 1e-5 * running, {}

    step = iteration(128, 0.0)[0]
    dense = last_pass_tail_seconds(iteration, s, SimpleNamespace(is_moe=False), 128, 1, step, 128.0)
    moe = last_pass_tail_seconds(iteration, s, SimpleNamespace(is_moe=True), 128, 1, step, 128.0)
    assert dense == pytest.approx((1434 - 996) * iteration(1, 0.0)[0])  # one sequence alone
    assert moe > 2 * dense  # the drain: many sequences still running after the mean's iterations
    label = GENERATION_FIGURE_LABELS["longest_tail_seconds"]
    assert "one sequence alone" in label and "MoE" in label and "draining" in label
    # and the Time tab's formula says the MoE's spread is assumed (no source states a rollout's length distribution)
    from engine.posttraining.timing import RL_FORMULAS

    assert "the maximum-entropy one of that mean and longest, assumed)" in RL_FORMULAS["generation"]


def test_a_dense_decode_from_cuda_graphs_drains_along_the_spread_and_an_eager_one_keeps_the_lone_tail() -> None:
    # h-nemorlroll: from CUDA graphs (no host floor) a dense iteration is affine in the running sequences but for the
    # KV read, which grows with each sequence's context; the lone tail leaves out its second moment (the sequences
    # past the mean still running at their longer contexts), so the last pass drains as a MoE's does. The stand-in
    # iteration: a weights read plus each running sequence's KV at its context.
    from types import SimpleNamespace

    from engine.posttraining.length_spread import drain_seconds, last_pass_tail_seconds

    s = SimpleNamespace(completion_len=795, max_completion_len=3969, prompt_len=127, prompt_len_mean=None)

    def iteration(running: int, context: float) -> tuple[float, dict[str, float]]:
        return 5e-3 + 2e-8 * running * context, {}

    step = iteration(256, 127 + 795 / 2)[0]
    dense = SimpleNamespace(is_moe=False)
    lone = last_pass_tail_seconds(iteration, s, dense, 256, 1, step, 127.0)
    drained = last_pass_tail_seconds(iteration, s, dense, 256, 1, step, 127.0, graphs=True)
    assert drained == pytest.approx(drain_seconds(iteration, 256, 795, 3969, 127.0) - 795 * step)
    assert drained > lone  # the KV's second moment
    # which rows take which: NeMo-RL's engines capture graphs (grpo_math_1B.yaml enforce_eager false), verl-data's
    # run eager (engine/posttraining/timing.py passes graphs = an engine without enforce_eager)
    from engine import scenario_from_dict
    from engine.accuracy import posttraining_time as ptt
    from engine.posttraining.estimate import step_parts

    rows = {r["id"]: scenario_from_dict(r["scenario"]) for r in ptt.read_rows()}
    assert not step_parts(rows["nemo-rl-v03-blog-grpo-llama3.1-8b-8xh100"]).rs.enforce_eager
    assert step_parts(rows["verl-data-time-grpo-lora-qwen2.5-7b-8gpu"]).rs.enforce_eager
