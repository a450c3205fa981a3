"""ZB-V (pp_schedule zbv): two model chunks a rank in a V (engine/scenario/pipeline_ends.py), its bubble, exchanges and
in-flight memory (engine/timing/zero_bubble.py, engine/timing/pipeline.py, engine/memory/parallelism/zero_bubble.py),
against arXiv:2401.10241 section 6 and Tables 6-7 (Qi, Wan, Huang, Lin, Sea AI Lab) and the Zero Bubble fork
(sail-sg/zero-bubble-pipeline-parallelism at f68d3879); each expected value from there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.errors import ScenarioError
from engine.frameworks.defaults import defaults_for
from engine.memory.estimate import estimate
from engine.memory.parallelism.zero_bubble import zero_bubble_in_flight
from engine.scenario.pipeline_ends import head_stage, rank_chunks
from engine.timing.model import step_time
from engine.timing.step_result import BREAKDOWN_KEYS
from engine.timing.zero_bubble import zero_bubble_fill

PART = Path(__file__).parent / "data" / "published" / "throughput" / "zero-bubble-2024.json"
ROWS = {r["id"]: r for r in json.loads(PART.read_text())["rows"]}


def _scenario(row_id: str, **changes: object):
    return scenario_from_dict({**ROWS[row_id]["scenario"], **changes})


def test_the_v_puts_the_first_and_the_last_chunk_on_rank_0():
    """Section 6: a 16-layer model on 4 stages puts 'layers 1-2 and layers 15-16' on worker 1 and 'layers 3-4 and
    layers 13-14' on worker 2 (chunks 0 and 7, 1 and 6 of eight); torchtitan b5bcd76c66d0 pipeline_parallel.py lines
    550-567 zips range(pp) with range(2 pp - 1, pp - 1, -1). The loop (interleaved) keeps r + k pp, the head on pp - 1."""
    v = scenario_from_dict({"model": "llama-3.1-8b", "pp": 4, "pp_schedule": "zbv", "vpp": 2, "gpus_per_node": 4})
    loop = scenario_from_dict({"model": "llama-3.1-8b", "pp": 4, "pp_schedule": "interleaved-1f1b", "vpp": 2,
                               "gpus_per_node": 4})
    assert [rank_chunks(v, r) for r in range(4)] == [[0, 7], [1, 6], [2, 5], [3, 4]]
    assert [rank_chunks(loop, r) for r in range(4)] == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert head_stage(v) == 0 and head_stage(loop) == 3


def test_rank_0_holds_the_embedding_the_head_and_the_forks_padding():
    """The fork pads 30 layers to 32 over 16 x 2 chunks and get_offset takes one from chunk 0 and one from chunk 31
    (megatron/model/transformer.py lines 1604-1617 at f68d3879), both rank 0's in the V: rank 0 builds no decoder
    layer, every other rank 2. Its memory holds the head (the logits), which 1F1B's rank 0 does not."""
    v = estimate(_scenario("zb-pp-t6-6.2b-16xa100-b6-m48-zb-v"))
    one = estimate(_scenario("zb-pp-t6-6.2b-16xa100-b6-m48-1f1b"))
    assert [st.layers for st in v.stages] == [0] + [2] * 15
    assert [st.layers for st in one.stages] == [1] + [2] * 14 + [1]
    logits = {c.key for c in v.stages[0].components} - {c.key for c in one.stages[0].components}
    assert any("logit" in k or "loss" in k for k in logits), logits


def test_every_rank_holds_1f1bs_first_stage_micro_batches():
    """Section 6: 'a peak activations memory of p M_B', 'inherently balanced across all workers' (the fork's
    v_schedule.py PipelineGraph max_mem = f_mem x 2p a chunk); fewer micro-batches than stages hold all of them."""
    assert [zero_bubble_in_flight("zbv", 8, i, 24, 0.9) for i in range(8)] == [8] * 8
    assert zero_bubble_in_flight("zbv", 8, 3, 5, 0.9) == 5
    v = estimate(_scenario("zb-pp-t6-14.6b-24xa100-b2-m72-zb-v"))
    assert {st.microbatches_in_flight for st in v.stages} == {24}


def test_the_bubble_is_zb_h2s_and_none_where_f_b_and_w_are_equal():
    """Section 6: 'Under the condition T_F = T_B = T_W, ZB-V achieves zero bubble'; otherwise ZB-H2's
    (p - 1)(T_F + T_B - 2 T_W) of Table 2, to which Table 8 puts ZB-V's rates within 0.85-1.02x."""
    p, f, b, w = 16, 3.0, 3.5, 2.0
    fill, wgrad = (p - 1) * (f + b + w), (p - 1) * w
    assert zero_bubble_fill("zbv", p, 64, fill, wgrad) == pytest.approx((p - 1) * (f + b - 2 * w))
    assert zero_bubble_fill("zbv", p, 64, (p - 1) * 3 * f, (p - 1) * f) == 0.0


def test_it_sends_twice_1f1bs_and_sums_a_tied_embedding_on_rank_0():
    """2 pp chunk boundaries a micro-batch, twice 1F1B's sends (the fork's README table: pipeline communication volume
    2x); the tied embedding's two copies on one rank need no exchange (parallel_state.py lines 391-392 at f68d3879:
    embedding_ranks = [ranks[0]] under --zero-bubble-v-schedule). ZB-1p, one chunk a rank, sends once."""
    pp_comm = BREAKDOWN_KEYS.index("communication_pp")
    v = step_time(_scenario("zb-pp-t6-6.2b-16xa100-b6-m48-zb-v")).seconds[pp_comm]
    untied = _scenario("zb-pp-t6-6.2b-16xa100-b6-m48-zb-1p")
    one = step_time(untied).seconds[pp_comm]
    from engine.scenario import as_laid_out
    from engine.timing import model as timing
    from engine.timing.tied_embeddings import tied_embedding_seconds
    s = as_laid_out(untied)
    tied = tied_embedding_seconds(s, timing.resolve_model(s), timing.hardware_for(s))
    assert tied > 0 and v == pytest.approx(2 * (one - tied), rel=1e-6)


@pytest.mark.parametrize("model, b, ms", [("6.2b-16xa100", 6, (48, 64, 128)), ("14.6b-24xa100", 2, (72, 96, 192)),
                                          ("28.3b-32xa100", 2, (96, 128, 256))])
def test_table6s_order_zb_v_above_zb_1p_above_1f1b(model, b, ms):
    """Table 6 measures ZB-V faster than ZB-1p and ZB-1p than 1F1B at each of the nine settings (same b and m)."""
    for m in ms:
        rate = {k: step_time(_scenario(f"zb-pp-t6-{model}-b{b}-m{m}-{k}")).tokens_per_second_per_gpu
                for k in ("zb-v", "zb-1p", "1f1b")}
        assert rate["zb-v"] > rate["zb-1p"] > rate["1f1b"], (model, m, rate)


def test_who_runs_it_and_the_vpp_it_needs():
    """The fork (--zero-bubble-v-schedule, megatron/arguments.py line 1134) and torchtitan (torch's
    ScheduleZBVZeroBubble) run it; upstream Megatron-LM, DeepSpeed and the fork's one-chunk rows do not. It runs two
    chunks a rank (arguments.py line 201 sets vpp 2; torchtitan asserts 2 stages a rank): another vpp is refused."""
    for framework in ("megatron-zb", "torchtitan"):
        assert "zbv" in defaults_for(framework).parallelism.pp_schedules, framework
    for framework in ("megatron", "deepspeed", "pytorch"):
        assert "zbv" not in defaults_for(framework).parallelism.pp_schedules, framework
    with pytest.raises(ScenarioError, match="vpp 2"):
        estimate(_scenario("zb-pp-t6-6.2b-16xa100-b6-m48-zb-v", vpp=1))


def test_the_search_tries_it_at_two_chunks_where_the_layers_split_over_2_pp():
    """pipeline_schedules adds ZB-V at vpp 2 for the fork where the layers split evenly over 2 pp chunks (the fork's
    arguments.py lines 193-198: layers a stage divisible by pp, even)."""
    from engine.planning.pipeline_chunks import pipeline_schedules

    fork = scenario_from_dict({"model": "llama-3.1-8b", "framework": "megatron-zb", "pp": 4, "gpus_per_node": 4})
    assert ("zbv", 2, {}) in pipeline_schedules(fork, 4, 32, 32)
    assert "zbv" not in {sched for sched, _, _ in pipeline_schedules(fork, 4, 36, 36)}


def test_a_fork_script_and_a_torchtitan_config_import_as_zbv():
    """--zero-bubble-v-schedule (the fork, line 1134) and pipeline_parallel_schedule 'ZBVZeroBubble' (torchtitan's
    get_schedule_class name of ScheduleZBVZeroBubble) import as zbv at vpp 2."""
    from engine.configs.importing import import_texts

    script = ("torchrun pretrain_gpt.py --num-layers 24 --hidden-size 2048 --num-attention-heads 16 "
              "--seq-length 1024 --pipeline-model-parallel-size 4 --micro-batch-size 1 --global-batch-size 32 "
              "--zero-bubble-v-schedule --fp16\n")  # it implies --enable-zero-bubble (arguments.py line 202)
    got = import_texts([("run.sh", script)]).scenario
    assert got["framework"] == "megatron-zb" and got["pp_schedule"] == "zbv" and got["vpp"] == 2
    toml = (Path(__file__).parent / "data" / "configs" / "torchtitan" / "deepseek_v3_16b.toml").read_text()
    titan = import_texts([("deepseek_v3_16b.toml", toml.replace('"Interleaved1F1B"', '"ZBVZeroBubble"'))]).scenario
    assert titan["pp_schedule"] == "zbv" and titan["vpp"] == 2


def test_a_torchtitan_schedule_it_maps_is_not_also_listed_as_not_used():
    """pipeline_parallel_schedule 1F1B / Interleaved1F1B / ZBVZeroBubble are read as pp_schedule; only a schedule the
    planner has no value for (InterleavedZeroBubble) is listed as not used. Before, every mapped one but ZBV was both
    mapped and 'not modelled yet'."""
    from engine.configs.importing import import_texts

    toml = (Path(__file__).parent / "data" / "configs" / "torchtitan" / "deepseek_v3_16b.toml").read_text()
    for name, value in (("1F1B", "1f1b"), ("Interleaved1F1B", "interleaved-1f1b"), ("ZBVZeroBubble", "zbv"),
                        ("InterleavedZeroBubble", None)):
        got = import_texts([("t.toml", toml.replace('"Interleaved1F1B"', f'"{name}"'))])
        skipped = [u for u in got.unmapped if "pipeline_parallel_schedule" in u.key]
        assert got.scenario.get("pp_schedule") == value and bool(skipped) == (value is None), name


def test_zbv_on_layers_its_chunks_do_not_split_is_one_sentence_and_a_marked_schedule(qtbot, tmp_path):
    """The Zero Bubble fork asserts ZB-V's layers divisible by pp and even a stage (megatron/arguments.py lines
    193-198 at f68d3879) after --allow-padding-num-layers rounds them up to a multiple of pp (lines 152-161):
    Gemma 2 9B's 42 layers at pp 4 (11 a stage padded) and Llama's 32 at pp 3 (11) ran silently as an uneven split;
    the estimate now says so in one sentence, Make it fit proposes the fork's 1F1B, and the window marks the schedule
    list with the sentence. 32 layers at pp 4 (8 a stage) and the paper's GPT-6.2B, 30 layers at pp 16 (2 a stage
    padded: arXiv:2401.10241's published rows, tests/test_framework_runs.py) say nothing."""
    from engine import estimate
    from engine.scenario.runnable import runnable_layouts
    from tests.window_helpers import window_from

    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron-zb",
            "pp_schedule": "zbv", "vpp": 2, "grad_accum": 8}
    for model, pp, warned in (("gemma-2-9b", 4, True), ("llama-3.1-8b", 3, True), ("llama-3.1-8b", 4, False),
                              ("llama-3.1-8b", 16, False)):
        s = scenario_from_dict({**base, "model": model, "pp": pp, "gpus_per_node": pp * 2})
        sentences = [str(w) for w in estimate(s).warnings if "ZB-V only with" in str(w)]
        assert len(sentences) == int(warned), (model, pp)
        if warned:
            assert any(lay.changes.get("pp_schedule") == "1f1b" for lay in runnable_layouts(s))
    win = window_from(qtbot, tmp_path, {**base, "model": "gemma-2-9b", "pp": 4}, shown=False)
    assert "ZB-V only with" in win.setup_panel.limits.schedule.toolTip()


def test_a_zbv_export_pads_layers_that_pp_does_not_divide():
    """Qwen3-0.6B's 28 layers at pp 8: the fork runs them as 32 (4 a stage, even) only with --allow-padding-num-layers
    (megatron/arguments.py lines 152-161 and 193-194 at f68d3879), so the export writes it; 32 layers at pp 4 need
    none. Neither is warned about."""
    from engine import estimate
    from engine.configs import export_config

    base = {"gpu": "h100-sxm-80gb", "framework": "megatron-zb", "pp_schedule": "zbv", "vpp": 2, "grad_accum": 8}
    padded = scenario_from_dict({**base, "model": "qwen3-0.6b", "pp": 8, "gpus_per_node": 8})
    even = scenario_from_dict({**base, "model": "llama-3.1-8b", "pp": 4, "gpus_per_node": 4})
    assert "--allow-padding-num-layers" in export_config(padded, "megatron")
    assert "--allow-padding-num-layers" not in export_config(even, "megatron")
    assert not any("ZB-V only with" in str(w) for s in (padded, even) for w in estimate(s).warnings)
