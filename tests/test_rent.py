"""fit --objective cost, "What should I rent?": GPU types x counts x layouts, cheapest first.

Expected values come from the definition of the search (engine/planning/rent.py): time to train = tokens_to_train /
the plan's tokens/s (engine/timing/model.py step_time), GPU-hours = seconds x GPUs / 3600, cost = GPU-hours x the
price the user gave; the prices here are test inputs, not facts about any provider.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import PlannerError, ScenarioError
from engine.planning.listing import TIE
from engine.planning.rent import RentOption, checkpoint_bytes, rank, rent_search
from engine.planning.rent_counts import gpu_counts
from engine.planning.rent_reasons import (
    LATE,
    LATE_EVEN_AT_CEILING,
    LATE_EVEN_FASTEST,
    NONE_IN_BUDGET,
    NONE_IN_TIME,
    NOT_FIT_HOST,
    OVER_BUDGET,
    OVER_BUDGET_EVEN_FASTEST,
)
from engine.planning.rent_report import parse_prices, render_rent, rent_report, rent_to_json, row_text
from engine.timing import step_time
from engine.units import format_count, format_seconds

ROOT = Path(__file__).resolve().parent.parent
PRICES = {"h100-sxm-80gb": 2.0, "a100-80gb": 1.0}  # test inputs


def scenario(**extra):
    return scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                               "micro_batch": 1, "grad_accum": 16, "seq_len": 4096, "attention": "flash",
                               "precision": "mixed-bf16", "checkpointing": "full", "zero_stage": 3,
                               "tokens_to_train": 2 * 10**9, "currency": "USD", **extra})


@pytest.fixture(scope="module")
def plain():
    return rent_search(scenario(), PRICES)


def test_rows_fit_keep_the_training_and_cost_hours_times_price(plain):
    s = scenario()
    assert plain.ranked
    global_batch = s.micro_batch * s.grad_accum * s.dp
    for row in plain.ranked:
        p = row.plan.scenario
        assert estimate(p).fits and (p.model, p.method, p.precision, p.seq_len) == (s.model, s.method, s.precision,
                                                                                   s.seq_len)
        assert p.micro_batch * p.grad_accum * p.dp == global_batch
        assert (p.gpu, p.world_size) == (row.gpu, row.gpus)
        seconds = s.tokens_to_train / step_time(p).tokens_per_second
        assert row.seconds == pytest.approx(seconds)
        assert row.gpu_hours == pytest.approx(seconds * row.gpus / 3600)
        assert row.cost == pytest.approx(row.gpu_hours * PRICES[row.gpu])
        assert row.host_bytes == estimate(p).host_bytes


def test_cheapest_first_with_ties_to_fewer_gpus(plain):
    costs = [r.cost for r in plain.ranked]
    # cheapest first; costs within TIE of the cheapest left are equal, so a row costs at most (1 + TIE) x less than
    # the one before it
    assert all(b >= a / (1 + TIE) for a, b in zip(costs, costs[1:], strict=False))


def test_ties_go_to_fewer_gpus_then_the_plainer_layout(plain):
    base = plain.ranked[0]

    def row(gpus, cost, plan=base.plan):
        return RentOption("h100-sxm-80gb", "H100", gpus, 1, gpus, 2.0, plan, (), 1.0, cost / 2.0, cost)

    # 8 GPUs at 100.5 ties with 16 GPUs at 100 (within TIE = 1%): fewer GPUs first; 102 is not a tie
    out = rank([row(16, 100.0), row(8, 100.5), row(4, 102.0)])
    assert [r.gpus for r in out] == [8, 16, 4]
    plainer = base.plan
    offloads = next((r.plan for r in plain.ranked + plain.dropped if r.plan and r.plan.scenario.offload != "none"),
                    None)
    if offloads is not None:
        out = rank([row(8, 100.0, offloads), row(8, 100.0, plainer)])
        assert out[0].plan is plainer


def test_price_scales_cost_not_hours(plain):
    doubled = rent_search(scenario(), {k: 2 * v for k, v in PRICES.items()})
    first = {(r.gpu, r.gpus): r for r in plain.ranked}
    for r in doubled.ranked:
        if (r.gpu, r.gpus) in first:
            assert r.gpu_hours == pytest.approx(first[r.gpu, r.gpus].gpu_hours)
            assert r.cost == pytest.approx(2 * first[r.gpu, r.gpus].cost)


def test_deadline_drops_late_rows_with_how_late():
    fastest = rent_search(scenario(), PRICES)
    deadline = min(r.seconds for r in fastest.ranked) * 1.5  # between the fastest and slowest one-GPU options
    result = rent_search(scenario(), PRICES, deadline_seconds=deadline)
    assert all(r.seconds <= deadline for r in result.ranked)
    late = [r for r in result.dropped if str(r.dropped).startswith("misses the deadline")]
    assert late and all(r.dropped.template in (LATE, LATE_EVEN_AT_CEILING, LATE_EVEN_FASTEST, NONE_IN_TIME)
                        for r in late)
    for r in late:
        if r.seconds is not None:
            assert r.seconds > deadline


def test_budget_drops_costlier_rows():
    free = rent_search(scenario(), PRICES)
    budget = min(r.cost for r in free.ranked) * 1.005  # only the cheapest (and its ties) stay
    result = rent_search(scenario(), PRICES, budget=budget)
    assert result.ranked and all(r.cost <= budget for r in result.ranked)
    over = [r for r in result.dropped if str(r.dropped).startswith("over budget")]
    assert over
    # a row searched in full says by how much; one whose every fast-enough layout was skipped has no cost to show
    assert all(r.cost > budget for r in over if r.dropped.template == OVER_BUDGET)
    assert all(r.plan is None for r in over if r.dropped.template in (NONE_IN_BUDGET, OVER_BUDGET_EVEN_FASTEST))


def test_host_memory_is_checked_and_named():
    # 70B full fine-tuning on one 80 GB GPU fits only with the states offloaded to a node of far more than 64 GiB
    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 1, "micro_batch": 1,
                            "grad_accum": 8, "seq_len": 2048, "precision": "mixed-bf16", "checkpointing": "full",
                            "tokens_to_train": 10**8, "host_memory_bytes": 64 * 2**30})
    result = rent_search(s, {"h100-sxm-80gb": 2.0}, max_gpus=1)
    assert not result.ranked
    assert result.dropped[0].dropped.template == NOT_FIT_HOST and "64.00 GiB" in str(result.dropped[0].dropped)


def test_a_count_the_global_batch_does_not_split_over_says_so_not_does_not_fit():
    """Llama 3.1 70B with a global batch of 1 sequence (micro_batch 1 x grad_accum 1) under Hugging Face Trainer on
    64 H100s: no layout exists (speed_search's replicas split the global batch evenly, and tensor parallelism
    stays inside the 8-GPU node the one-H100 set-up is rented in, rent.py node_gpus), so no count beyond what TP 8
    and the other model splits cover can run it (32 still has one). It read "does not fit: no layout holds it in
    the GPUs and the CPU memory of the rented node" before, a memory verdict for what is a batch question."""
    from engine.planning.rent_no_layout import NO_LAYOUT

    s = scenario(model="llama-3.1-70b", framework="huggingface", gpus_per_node=1, grad_accum=1, tokens_to_train=10**12)
    result = rent_search(s, {"h100-sxm-80gb": 2.0}, max_gpus=64)
    no_layout = [row for row in result.dropped if row.dropped.template == NO_LAYOUT]
    assert {row.gpus for row in no_layout} == {64} and "= 1)" in str(no_layout[0].dropped)
    assert all(row.plan is None for row in no_layout)


def test_the_speed_bounds_walk_is_the_one_that_says_no_layout_exists():
    """rent.py walks a count's layouts once (speed_search.speed_bound, 0.0 tokens/s where there is none) and takes
    the no-layout reason from that walk: the counts the test above drops as having no layout are those with a 0.0
    bound, and a count with a layout has a positive one."""
    from engine.planning.speed_search import speed_bound

    s = scenario(model="llama-3.1-70b", framework="huggingface", gpus_per_node=1, grad_accum=1, tokens_to_train=10**12)
    # rent's base of n rented nodes of 1 GPU: the global batch of 1 on one replica, the rest a pipeline (rent._base)
    on = {n: s.with_unchecked(nodes=n, tp=1, cp=1, pp=n, ep=1, micro_batch=1) for n in (1, 32, 64)}
    assert speed_bound(on[1]) > 0 and speed_bound(on[32]) == speed_bound(on[64]) == 0.0


def test_checkpoint_size_follows_its_formula():
    s = scenario()
    spec_params = estimate(s).total_params
    size, formula = checkpoint_bytes(s)
    # mixed-bf16 AdamW (engine/memory/states.py): 2 B weights + 4 B master + 2 x 4 B states per trained parameter
    assert size == spec_params * (2 + 4 + 8) and f"{spec_params:,}" in str(formula)
    lora, text = checkpoint_bytes(scenario(method="lora", lora_rank=16))
    assert lora < size / 50 and "adapter" in str(text)


def test_gpu_counts_are_powers_of_two_then_whole_nodes():
    assert gpu_counts(8, 64) == [(1, 1), (2, 1), (4, 1), (8, 1), (8, 2), (8, 4), (8, 8)]
    assert gpu_counts(4, 8) == [(1, 1), (2, 1), (4, 1), (4, 2)]


def test_rows_explain_themselves(plain):
    report = rent_report(scenario(), PRICES, budget=10**9, deadline_seconds=10**9)
    row = report["ranked"][0]
    text = row_text(row, "USD")
    assert f"{row['price_per_gpu_hour']:g} USD" in text and "GPU-hours" in text and "USD" in text
    assert "layout" in text and row["gpu_name"] in text
    full = render_rent(report)
    assert "cheapest first" in full and "One checkpoint" in full and "no storage, network or host prices" in full
    # the tokens as the Time tab says them (units.format_count): "2,000,000,000,000 tokens" (user audit 15)
    assert f"What to rent for {format_count(report['tokens_to_train'])} tokens" in full


def test_without_prices_only_the_scenarios_gpu_is_searched_by_gpu_hours():
    result = rent_search(scenario(gpu_hour_price=3.0), {})
    assert result.gpus_searched == ("h100-sxm-80gb",)
    assert all(r.cost == pytest.approx(r.gpu_hours * 3.0) for r in result.ranked)
    hours = rent_search(scenario(), {})
    assert all(r.cost is None for r in hours.ranked)
    keys = [r.gpu_hours for r in hours.ranked]
    assert all(b >= a / (1 + TIE) for a, b in zip(keys, keys[1:], strict=False))


def test_bad_inputs_are_one_sentence():
    with pytest.raises(ScenarioError, match="tokens_to_train"):
        rent_search(scenario(tokens_to_train=None), PRICES)
    for bad in ({"prices": {"no-such-gpu": 1}}, {"prices": {"a100-80gb": -1}}, {"prices": {"a100-80gb": True}},
                {"currency": "XYZ"}, [1, 2], {"prices": []}):
        with pytest.raises(PlannerError):
            parse_prices(bad)
    assert parse_prices({"currency": "EUR", "prices": {"a100-80gb": 1.5}}) == ({"a100-80gb": 1.5}, "EUR")


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "main.py", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _cost_files(tmp_path):
    """Llama 3.1 8B ZeRO-3 for 2 x 10^9 tokens and a EUR price list, as files for the CLI's cost objective."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "micro_batch": 1, "grad_accum": 16,
                                "seq_len": 4096, "precision": "mixed-bf16", "checkpointing": "full",
                                "zero_stage": 3, "tokens_to_train": 2 * 10**9}))
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"currency": "EUR", "prices": PRICES}))
    return path, prices


def test_cli_cost_objective(tmp_path):
    path, prices = _cost_files(tmp_path)
    out = run("fit", str(path), "--objective", "cost", "--prices", str(prices), "--deadline-days", "30",
              "--budget", "100000", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["objective"] == "cost" and data["currency"] == "EUR" and data["deadline_seconds"] == 30 * 86400
    assert data["ranked"] and all(r["cost"] <= 100000 for r in data["ranked"])
    text = run("fit", str(path), "--objective", "cost", "--prices", str(prices))
    assert text.returncode == 0 and "EUR" in text.stdout and "cheapest first" in text.stdout
    prices.write_text("{not json")
    bad = run("fit", str(path), "--objective", "cost", "--prices", str(prices))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "is not JSON" in bad.stderr
    neg = run("fit", str(path), "--objective", "cost", "--budget", "-5")
    assert neg.returncode == 2 and "must be a number" in neg.stderr


def test_fastest_fitting_is_the_speed_searchs_first_plan_and_honours_its_floor():
    from engine.planning.speed_search import fastest_fitting, speed_bound, speed_search

    s = scenario()
    plan, made = fastest_fitting(s)
    first = speed_search(s).plans[0]
    # the same search without the method/numerics variants: the same first plan, or one tied with it (TIE)
    assert made > 0 and plan.time.tokens_per_second >= first.time.tokens_per_second * (1 - TIE)
    assert plan.time.tokens_per_second <= speed_bound(s) * (1 + TIE)
    none, _ = fastest_fitting(s, floor=speed_bound(s) * 1.01)  # faster than any layout's bound: nothing is tried
    assert none is None


def test_a_rows_hours_times_its_price_reads_as_its_cost():
    """2.51 GPU-hours at 2.5 USD cost 6.275 USD; the row read "3 GPU-hours x 2.5 USD = 6 USD", hours rounded to
    whole ones, which does not multiply out. Under 100 GPU-hours: 3 significant digits; a cost under 100 to the cent
    (units.format_cost; h-review21: "= 6 USD" did not multiply out either)."""
    from engine.planning.rent_report import gpu_hours_text

    row = {"gpu_hours": 2.51, "price_per_gpu_hour": 2.5, "cost": 2.51 * 2.5, "gpus": 1, "gpu_name": "H100",
           "nodes": 1, "time_to_train_seconds": 2.51 * 3600, "mfu": 0.11, "changes": {}}
    assert "2.51 GPU-hours x 2.5 USD = 6.27 USD" in row_text(row, "USD")  # 6.2749... in binary
    assert (gpu_hours_text(226.4), gpu_hours_text(12_345.6), gpu_hours_text(0.0421)) == ("226", "12,346", "0.0421")


def test_a_shard_group_the_search_resets_is_in_the_layout_text():
    """A ZeRO-3 plan within shard groups of 4 (dp_shard) gets base layouts with dp_shard 0 (engine/planning/rent.py
    _base: over every rank, the search settles its own group); an option whose group differs from the scenario's
    says so in its layout text (it read as the scenario's own group before), in the set-up's words as the other keys
    (engine/scenario/key_words.py: "Shard group (GPUs): all" for 0, "HSDP: shard within N GPUs" else)."""
    from engine.scenario.key_words import describe_changes

    s = scenario(dp_shard=4)
    report = rent_report(s, {"h100-sxm-80gb": 2.0})
    changed = [o for o in report["ranked"] if dict(o["changes"]).get("dp_shard", 4) != 4]
    assert changed
    for o in changed:
        assert describe_changes({"dp_shard": dict(o["changes"])["dp_shard"]}) in row_text(o, "USD")


def test_the_command_lines_layouts_are_the_windows_words(tmp_path):
    """`fit --objective cost` printed a fixed key=value list (no vpp, pp_schedule, sequence_parallel) where the window
    says every change in the set-up's words: both now print engine/scenario/key_words.py layout_words of the option's
    changes, translated under --lang; the --json keys stay the changes' keys."""
    from PySide6.QtCore import QTranslator

    from engine.scenario.key_words import layout_words
    from gui.i18n import qm_path

    path, prices = _cost_files(tmp_path)
    args = ("fit", str(path), "--objective", "cost", "--prices", str(prices), "--deadline-days", "30")
    ranked = json.loads(run(*args, "--json").stdout)["ranked"]
    catalogue = QTranslator()
    assert ranked and catalogue.load(str(qm_path("zh_CN")))
    for language, tr in (("en", lambda text: text), ("zh_CN", lambda text: catalogue.translate("Fields", text) or text)):
        rows = [line for line in run("--lang", language, *args).stdout.splitlines() if line[:1].isdigit()]
        assert len(rows) == len(ranked)
        for row, option in zip(rows, ranked, strict=True):
            words = layout_words(option["changes"], tr)
            assert row.endswith(words) and "=" not in words, (row, words)
        assert language == "en" or "梯度累积" in rows[0], rows[0]


def test_a_grpo_run_with_its_engine_split_over_8_gpus_is_rented_in_counts_of_8():
    """The GRPO example at Qwen2.5-32B with the colocated vLLM engine over 8 GPUs (rollout_tp 8): the search tried
    1 GPU first, which the engine cannot be split over (engine/scenario/posttraining_checks.py), took that for the
    GPU not running the plan at all and found nothing on any GPU type."""
    from engine.planning.rent_counts import counts_the_engine_splits

    data = json.loads((ROOT / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text())
    s = scenario_from_dict({**data, "model": "qwen2.5-32b", "gpus_per_node": 8, "zero_stage": 3, "rollout_tp": 8,
                            "tokens_to_train": 2 * 10**9})
    # gpu_counts(8): 1, 2 and 4 GPUs of a node, then whole nodes of 8; the engine's groups of 8 keep the nodes
    assert counts_the_engine_splits(s, gpu_counts(8)) == [c for c in gpu_counts(8) if c[0] == 8]
    found = rent_search(s, {"h100-sxm-80gb": 2.5})
    assert found.ranked, [str(r.dropped) for r in found.dropped]
    assert all(r.gpus % 8 == 0 for r in (*found.ranked, *found.dropped))
    # a supervised run, or an engine on GPUs of its own, keeps every count
    sft = scenario_from_dict({**data, "training_objective": "sft", "gpus_per_node": 8})
    assert counts_the_engine_splits(sft, gpu_counts(8)) == gpu_counts(8)


def test_rows_carry_their_plans_step_range_and_the_tie_rule_is_said(plain):
    # user audit 6: "cheapest first" above 32 x H100 at 799 USD then 64 x H100 at 793 (rank(): costs within TIE are
    # equal, fewer GPUs first), and each row's time and cost without the range its step has in `estimate`
    report = rent_to_json(plain, "USD")
    text = render_rent(report)
    assert f"cheapest first (costs within {TIE:.0%} of each other count as equal: fewer GPUs first)" in text
    for row, o in zip(report["ranked"], plain.ranked, strict=True):
        t = o.plan.time  # each figure is proportional to the step: the step's multiples (bands.py seconds_range)
        low, high = (x / t.step_seconds for x in t.seconds_range)
        assert row["time_to_train_seconds_range"] == pytest.approx([o.seconds * low, o.seconds * high])
        assert row["cost_range"] == pytest.approx([o.cost * low, o.cost * high])
        words = f"likely {format_seconds(o.seconds * low)} to {format_seconds(o.seconds * high)}"
        assert words in text
    first = plain.ranked[0]
    assert f"({first.nodes} node{'s' if first.nodes > 1 else ''})" in row_text(report["ranked"][0], "USD")
    assert "node(s)" not in text and "type(s)" not in text


def test_a_budget_does_not_stop_the_walk_at_a_count_whose_layouts_all_offload():
    """User audit 6: a 70B full fine-tune (torchtitan, 1e9 tokens, 3-day deadline) found 16 x B200 at ~620 USD and
    32 x H100 at ~800 without a budget, and nothing at all with a budget of 1,000: 8 H100s fit only by offloading
    (~1,290 USD), that count was "over budget", and the walk stopped there (rent_search broke on NONE_IN_BUDGET unless
    an option of the type had offloaded). Until a type has an option, larger counts are searched; the budget then
    keeps every option found without it that costs less (the same search, rent.py)."""
    s = scenario(model="llama-3.1-70b", framework="torchtitan", micro_batch=1, grad_accum=1, seq_len=8192,
                 tokens_to_train=10**9, gpus_per_node=8, nodes=2)
    prices = {"h100-sxm-80gb": 2.5, "b200": 5.0}
    free = rent_search(s, prices, deadline_seconds=3 * 86400)
    budget = 1000.0
    within = {(r.gpu, r.gpus) for r in free.ranked if r.cost <= budget}
    assert within, "the case: options under the budget exist"
    assert any(r.gpu == "h100-sxm-80gb" and r.gpus == 8 and r.cost > budget for r in free.ranked), \
        "the case: 8 H100s, offloading, cost more than the budget"
    capped = rent_search(s, prices, deadline_seconds=3 * 86400, budget=budget)
    assert within <= {(r.gpu, r.gpus) for r in capped.ranked}
    report = rent_to_json(capped, "USD")  # each row's likely range against the budget (rent_report._with_limits)
    for row in report["ranked"]:
        assert row["likely_over_budget"] == (row["cost_range"][1] > budget)
        assert row["likely_past_deadline"] == (row["time_to_train_seconds_range"][1] > 3 * 86400)


def test_a_small_cost_or_budget_does_not_read_as_whole_units():
    """units.format_cost kept whole units: a 20M-token LoRA on one H100 at 2.2 USD an hour (0.657 GPU-hours) read
    "= 1 USD", a --budget 0.5 "budget 0 USD" and "over budget by 0 USD" (h-review21). Under 100 to the cent; from 100
    up whole units, within 0.5% of the figure."""
    from engine.units import format_cost

    assert (format_cost(0.657 * 2.2, "USD"), format_cost(0.5, "USD"), format_cost(0.1, "")) == \
        ("1.45 USD", "0.50 USD", "0.10")
    assert (format_cost(99.994, "EUR"), format_cost(99.996, "EUR"), format_cost(12_345.6, "USD")) == \
        ("99.99 EUR", "100 EUR", "12,346 USD")
