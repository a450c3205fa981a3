"""Make it fit: exact limits, monotonicity, plans that fit and rank sensibly, the fit command."""

import dataclasses
import json
import subprocess
import sys

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ScenarioError, estimate, model_presets, scenario_from_dict
from engine.frameworks.defaults import FRAMEWORKS
from engine.planning.family import largest_model_that_fits
from engine.planning.fit_report import fit_report, render_fit
from engine.planning.solver import (
    MAX_MICRO_BATCH,
    gpu_counts,
    limits,
    min_seq_len,
    plan_search,
    plans,
    with_gpus,
)

SMALL = {"model": "llama-3.2-1b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16", "checkpointing": "full"}
TIGHT = {"model": "qwen2.5-0.5b", "gpu": "a100-40gb", "micro_batch": 2}
BIG_MOE = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb"}
NODE = {"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "micro_batch": 8, "seq_len": 4096}


def fits(s) -> bool:
    return estimate(s).fits


@pytest.mark.parametrize("data", [SMALL, TIGHT, {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "qlora"}])
def test_limits_are_exact(data):
    s = scenario_from_dict(data)
    lim = limits(s)
    assert lim.max_micro_batch is not None and lim.max_seq_len is not None
    assert fits(dataclasses.replace(s, micro_batch=lim.max_micro_batch))
    if lim.max_micro_batch < MAX_MICRO_BATCH:
        assert not fits(dataclasses.replace(s, micro_batch=lim.max_micro_batch + 1))
    assert lim.max_seq_len % lim.seq_len_step == 0
    assert fits(dataclasses.replace(s, seq_len=lim.max_seq_len))
    assert not fits(dataclasses.replace(s, seq_len=lim.max_seq_len + lim.seq_len_step))


@pytest.mark.parametrize("strategy", ["dp", "zero3", "tp_pp"])
def test_min_gpus_is_exact(strategy):
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "checkpointing": "full"})
    n = limits(s).min_gpus[strategy]
    counts = gpu_counts(s)
    if strategy == "dp":  # replicas never lower per-GPU memory: 8B full fine-tuning needs ~130 GB
        assert n is None
        return
    assert n is not None and n > 1
    assert fits(with_gpus(s, n, strategy))
    before = with_gpus(s, counts[counts.index(n) - 1], strategy)
    assert before is None or not fits(before)


def test_limits_none_when_nothing_fits():
    lim = limits(scenario_from_dict({"model": "llama-3.1-405b", "gpu": "rtx-3060-12gb"}))
    assert lim.max_micro_batch is None and lim.max_seq_len is None and lim.min_gpus["dp"] is None


MODELS = ("qwen2.5-0.5b", "llama-3.2-1b", "qwen3-0.6b", "olmoe-1b-7b")



@st.composite
def base_scenarios(draw: st.DrawFn):
    """A small model on an H100 under any framework row (engine/frameworks) that takes it, with fp8 and the
    framework's own optimizer among the choices; the framework is kept only where the scenario validates."""
    data = {"model": draw(st.sampled_from(MODELS)), "method": draw(st.sampled_from(("full", "lora", "qlora"))),
            "checkpointing": draw(st.sampled_from(("none", "full"))),
            "precision": draw(st.sampled_from(("amp-bf16", "bf16", "fp8"))),
            "optimizer": draw(st.sampled_from(("adamw", "auto"))), "gpu": "h100-sxm-80gb"}
    try:
        scenario_from_dict(data)
    except ScenarioError:
        data["precision"] = "bf16"
    with_framework = {**data, "framework": draw(st.sampled_from(FRAMEWORKS))}
    try:
        return scenario_from_dict(with_framework)
    except ScenarioError:
        return scenario_from_dict(data)


@settings(max_examples=25, deadline=None)
@given(base_scenarios(), st.integers(1, 64), st.integers(1, 64))
def test_more_micro_batch_never_needs_less(s, a, b):
    lo, hi = sorted((a, b))
    assert estimate(dataclasses.replace(s, micro_batch=lo)).total_bytes <= \
        estimate(dataclasses.replace(s, micro_batch=hi)).total_bytes


@settings(max_examples=25, deadline=None)
@given(base_scenarios(), st.integers(1, 256), st.integers(1, 256))
def test_longer_sequence_never_needs_less(s, a, b):
    lo, hi = sorted((a, b))
    assert estimate(dataclasses.replace(s, seq_len=128 * lo)).total_bytes <= \
        estimate(dataclasses.replace(s, seq_len=128 * hi)).total_bytes


@settings(max_examples=25, deadline=None)
@given(base_scenarios().filter(lambda s: s.method != "qlora"), st.integers(1, 40), st.integers(1, 40))
def test_more_zero3_gpus_never_need_more_per_gpu(s, a, b):
    # From 2 GPUs up: going from 1 to 2 adds the NCCL buffers, which a tiny sharded model may not repay.
    counts = gpu_counts(s)[1:]
    lo, hi = sorted((counts[a], counts[b]))
    few, many = with_gpus(s, lo, "zero3"), with_gpus(s, hi, "zero3")
    if few is None or many is None:  # a framework row that cannot lay the model out that way (limits.py with_gpus)
        return
    assert estimate(many).total_bytes <= estimate(few).total_bytes


@pytest.mark.parametrize("data", [BIG_MOE, NODE, {"model": "llama-3-8b", "gpu": "rtx-4090"}])
def test_every_plan_fits_through_the_engine(data):
    s = scenario_from_dict(data)
    assert not fits(s)
    found = plans(s)
    assert 0 < len(found) <= 8
    for p in found:
        again = estimate(s.replace(**p.changes))  # validated, file-form values
        assert again.fits and p.fits
        assert round(again.total_bytes) == round(p.total_bytes)
        assert set(p.assumptions_changed) <= {"global batch", "method", "sequence length", "hardware", "numerics"}
        assert p.summary and p.cost_note
    ranks = [(p.disruption, len(p.steps)) for p in found]
    assert ranks == sorted(ranks)


def test_target_headroom_is_met_and_fitting_scenario_needs_no_plan():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "lora",
                            "lora_targets": "all-linear"})
    assert fits(s) and plans(s) == []
    for p in plans(s, target_headroom_fraction=0.3):
        est = estimate(s.replace(**p.changes))
        assert est.headroom_bytes >= 0.3 * est.capacity_bytes


def test_ranking_prefers_checkpointing_over_offload():
    found = plans(scenario_from_dict(BIG_MOE))
    ckpt = [i for i, p in enumerate(found) if p.changes.get("checkpointing") == "full" and "offload" not in p.changes]
    off = [i for i, p in enumerate(found) if "offload" in p.changes]
    assert ckpt and off and max(ckpt) < min(off)
    assert found[0].changes["checkpointing"] == "full"
    assert "LoRA (r=16, all linear layers)" in found[0].summary and found[0].changes["precision"] == "bf16"


def test_plans_are_minimal_and_outcomes_unique():
    s = scenario_from_dict(NODE)
    found = plans(s)
    keys = [(round(p.total_bytes), round(p.peak_allocated_bytes), p.scenario.world_size) for p in found]
    assert len(keys) == len(set(keys))
    for p in found:  # no plan is another plan plus more changes
        for q in found:
            assert p is q or not set(q.changes.items()) < set(p.changes.items())


def test_identical_outcomes_are_merged():
    # Without pruning, "ZeRO-3 + offload of weights" and "offload of weights" (which needs ZeRO-3) are one scenario.
    st_ = plan_search(scenario_from_dict(NODE), exhaustive=True, max_estimates=3000)
    keys = [(round(p.total_bytes), round(p.peak_allocated_bytes), p.scenario.world_size) for p in st_.plans]
    assert len(keys) == len(set(keys))
    assert any(p.alternatives for p in st_.plans)
    scenarios = [p.scenario for p in st_.plans]
    assert len(scenarios) == len(set(scenarios))


def test_cancel_stops_early_and_progress_is_reported():
    s = scenario_from_dict(NODE)
    full = plan_search(s)
    calls = []

    def cancel():  # asked once per combination: stop on the fourth
        calls.append(1)
        return len(calls) > 3

    stopped = plan_search(s, cancel=cancel)
    assert stopped.cancelled and stopped.visited <= 3 and stopped.estimates < full.estimates
    seen = []
    plan_search(s, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] and all(d <= t for d, t in seen)


def test_largest_model_in_family_is_a_member_and_fits():
    s = scenario_from_dict(BIG_MOE)
    answer = largest_model_that_fits(s)
    family = model_presets()["qwen3-30b-a3b"].family
    assert answer.family == family and answer.model is not None
    assert model_presets()[answer.model].family == family
    assert fits(s.replace(model=answer.model))
    sizes = [c.total_params for c in answer.candidates]
    assert sizes == sorted(sizes) and len(sizes) == sum(p.family == family for p in model_presets().values())
    best = next(c for c in answer.candidates if c.model == answer.model)
    assert not any(c.fits for c in answer.candidates if c.total_params > best.total_params)


def test_dense_members_of_a_moe_family_run_expert_parallel_ranks_as_data_parallel():
    """examples/qwen3-30b-a3b-8x-h100.json sets ep 8: the family's dense members were all 'invalid' ("Expert
    parallelism needs a mixture-of-experts model"), so 'the largest Qwen3 that fits' could not be a dense one. They
    are now judged on the same 8 GPUs and sharding with the 8 expert-parallel ranks as data-parallel ones, as
    Megatron folds them; the MoE members keep ep 8."""
    from engine import load_scenario

    s = load_scenario(str(REPO / "examples" / "qwen3-30b-a3b-8x-h100.json"))
    assert s.ep == 8
    answer = largest_model_that_fits(s)
    by_model = {c.model: c for c in answer.candidates}
    for c in answer.candidates:
        spec = model_presets()[c.model].spec
        member = s.replace(model=c.model, ep=1) if not spec.is_moe else s.replace(model=c.model)
        assert c.verdict != "invalid" or (spec.is_moe and spec.n_experts % s.ep), c.model
        if c.verdict != "invalid":
            assert c.verdict == estimate(member).verdict, c.model
    assert by_model["qwen3-14b"].fits and answer.model is not None and not model_presets()[answer.model].spec.is_moe


def test_fit_command_json_contract(tmp_path):
    path = tmp_path / "moe.json"
    path.write_text(json.dumps({"schema_version": 1, **BIG_MOE}))
    result = subprocess.run([sys.executable, "main.py", "fit", str(path), "--json"], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"limits", "plans", "verdict", "largest_model_in_family"}
    # the contract, extended (never renamed) by what each fewest-GPUs limit counted and the framework it counted for
    # and whether the counts let a colocated generation engine split (engine_split_varied: false, no such engine)
    assert set(data["limits"]) == {"max_micro_batch", "max_seq_len", "min_gpus", "min_gpus_counted", "framework",
                                   "engine_split_varied"}
    assert data["limits"]["engine_split_varied"] is False
    # the default framework, Hugging Face's Trainer, has no pipeline (engine/frameworks/parallelism.py HUGGINGFACE:
    # accelerate's ParallelismConfig has no pipeline dimension): its TP limit counts TP in a node only
    assert data["limits"]["min_gpus_counted"] == {"dp": "dp", "zero3": "zero3", "tp_pp": "tp"}
    assert data["limits"]["framework"] == "Hugging Face (Trainer / TRL / accelerate)"
    assert set(data["limits"]["min_gpus"]) == {"dp", "zero3", "tp_pp"}
    assert data["plans"]
    for p in data["plans"]:
        assert {"changes", "peak_allocated_bytes", "total_bytes", "fits", "headroom_bytes",
                "assumptions_changed", "cost_note", "summary"} <= set(p)  # the contract; steps/notes extend it
        assert all({"text", "template", "params"} == set(m) for m in p["steps"] + p["notes"])
        assert p["fits"] and p["headroom_bytes"] >= 0
    text = render_fit(fit_report(scenario_from_dict(BIG_MOE)), "GB")
    assert "Plans, least disruptive first" in text and " GB" in text


def test_plans_never_shorten_sequences_below_the_images_tokens():
    """A vision-language model refuses a sequence shorter than its images' tokens (the engine warns of it): Make it
    fit and the one-step suggestions never propose one, and the fastest-layout search keeps the sequence."""
    from engine.planning.speed_search import speed_search
    from engine.planning.suggest import suggestions

    base = {"model": "qwen2.5-vl-7b", "gpu": "rtx-4090", "method": "full", "seq_len": 16384, "micro_batch": 1}
    # Qwen2.5-VL's config (presets/models/qwen2.5-vl-7b.json): 14-px patches merged 2x2, so a 1344-px image is
    # (1344 / 14)^2 / 4 = 2304 tokens and four of them 9216.
    image_tokens = 4 * (1344 // 14) ** 2 // 4
    text_only = scenario_from_dict(base)
    # Without images the search does shorten below that, so the images are what holds the plans back below.
    assert any(p.scenario.seq_len < image_tokens for p in plans(text_only))
    s = scenario_from_dict({**base, "images_per_sample": 4, "image_resolution": 1344})
    assert min_seq_len(s) == image_tokens and min_seq_len(text_only) == 0
    for p in plans(s):
        assert p.scenario.seq_len >= image_tokens, p.summary
        assert not [w for w in p.estimate.warnings if "images" in str(w)], p.summary
    shortened = [sug.changes["seq_len"] for sug in suggestions(s) if "seq_len" in sug.changes]
    assert all(n >= image_tokens for n in shortened)
    assert [sug.changes["seq_len"] for sug in suggestions(text_only) if "seq_len" in sug.changes] == [8192]
    result = speed_search(s)
    assert all(p.scenario.seq_len == s.seq_len for p in result.plans + result.changes_what_you_train)


def test_largest_model_of_a_family_takes_the_images_of_a_vision_language_scenario():
    """Qwen2.5's text models fit a set-up its VL model does not, but they have no vision tower: with images in the
    sample they are no answer to "which model of this family fits"."""
    s = scenario_from_dict({"model": "qwen2.5-vl-7b", "gpu": "a100-80gb", "method": "lora", "seq_len": 4096,
                            "micro_batch": 2, "images_per_sample": 2, "image_resolution": 896})
    text_only = largest_model_that_fits(s.replace(images_per_sample=0, image_resolution=0))
    assert text_only.model is not None and model_presets()[text_only.model].spec.vision is None
    answer = largest_model_that_fits(s)
    assert answer.model is None or model_presets()[answer.model].spec.vision is not None
    for c in answer.candidates:
        if model_presets()[c.model].spec.vision is None:
            assert c.verdict == "invalid" and "vision tower" in c.reason


def test_liger_kernels_are_suggested_where_transformers_can_patch_them_in():
    from engine.planning.suggest import suggestions

    # Llama-3-8B LoRA on a 24 GB card with 8K tokens: the fp32 logits (b·s·V) and the eager norms and SwiGLU are
    # what use_liger_kernel removes (engine/memory/loss.py fused-linear, activations.py Liger terms).
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16",
                            "seq_len": 8192})
    liger = [sug for sug in suggestions(s) if sug.changes.get("liger_kernels")]
    assert len(liger) == 1 and liger[0].changes["cross_entropy"] == "fused-linear"
    assert liger[0].saved_bytes > 4 * 2**30  # the logits alone: 8192 x 128256 x 4 bytes, more than once
    for other in ({"framework": "torchtitan"}, {"liger_kernels": True}):
        assert not any(sug.changes.get("liger_kernels") for sug in suggestions(s.replace(**other)))


def test_make_it_fit_offers_liger_kernels_as_a_cheap_step():
    # The same 8K-token LoRA on a 24 GB card: checkpointing alone does not fit (engine), checkpointing with Liger's
    # kernels does, and that plan changes no assumption (same model, method, sequence and hardware).
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16",
                            "seq_len": 8192})
    assert not estimate(s.replace(checkpointing="full")).fits
    first = plans(s)[0]
    assert first.changes["liger_kernels"] is True and first.changes["checkpointing"] == "full"
    assert first.fits and first.assumptions_changed == ()
