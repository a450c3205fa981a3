"""The Time tab's formula words (engine/timing/formulas.py, engine/posttraining/term_words.py) say what this session's
mechanisms compute (h-review21b): Hopper's NCCL displacement (h-a2await), Megatron-Core's gradient-buffer passes
(h-mcoreopt), the node-boundary crossings (h-megastep) and the rank wait's inputs (h-verlscore, h-verldynbsz). Each
check holds a word against the code path it describes, so that a change to one without the other fails."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.posttraining.term_words import RL_FORMULAS, RL_PROVENANCE
from engine.scenario import resolve_model
from engine.scenario.format import KEYS
from engine.timing.contention import nccl_sm_share
from engine.timing.data import efficiency
from engine.timing.formulas import BUBBLE_FORMULAS, FORMULAS
from engine.timing.hardware import hardware_for
from engine.timing.provenance import time_provenance
from engine.timing.term_formulas import DP_NO_SM_SHARE, DP_SM_SHARE, DP_TAIL_WAVE, OPT_APEX, OPT_CLIP, OPT_GRAD_BUFFER

RANK_IMBALANCE = Path(__file__).resolve().parent.parent / "engine" / "posttraining" / "rank_imbalance.py"


def _h100(**kw):
    return scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", **kw})


def test_the_data_parallel_words_give_hoppers_displaced_share():
    # sm_residency.tail_share: 1 - 1 / ceil(132 / (132 - 16)) = 1/2 on an H100 (132 SMs, NCCL's 16 CTAs across nodes)
    assert nccl_sm_share(hardware_for(_h100())) == pytest.approx(1 / 2)
    assert "on Hopper" in FORMULAS["communication_dp"] and "1/2" in FORMULAS["communication_dp"]
    # h-review21c: only a GEMM of more CTAs than the SMs NCCL leaves loses it
    assert "more CTAs than the SMs NCCL" in FORMULAS["communication_dp"]


def test_hoppers_data_parallel_words_give_the_share_the_code_computes_for_the_scenarios_gemms():
    # Qwen2.5-0.5B across 2 nodes: NCCL holds 16 of 132 SMs (presets/efficiency.json nccl_contention ctas hopper),
    # and its 896-wide projections' GEMMs fit in the 116 left (sm_residency.tail_share_of_gemms' q_proj: 112 CTAs),
    # so the share over the layer's GEMM FLOPs is below the whole 1/2, and the words give that figure
    s = scenario_from_dict({"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "framework": "torchtitan",
                            "gpus_per_node": 8, "nodes": 2})
    dp = time_provenance(s)["communication_dp"]
    inputs = dict(dp.inputs)
    assert dp.formula == DP_TAIL_WAVE and "loses nothing" in dp.formula
    assert (inputs["nccl_sms"], inputs["gpu_sms"]) == (16, 132)
    code = nccl_sm_share(hardware_for(s), False, (s, resolve_model(s), True))
    assert 0 < code < 1 / 2
    assert inputs["displaced_share"] == f"{code:.3g}"


def test_off_hopper_the_data_parallel_words_give_nccls_share_of_the_sms():
    # MI300X: 56 of 304 SMs (CUs) held inside a node (nccl_contention ctas_inside_node), no tail wave (not
    # gemm_tile_scheduler static_persistent): the share is 56 / 304
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "mi300x", "framework": "torchtitan"})
    dp = time_provenance(s)["communication_dp"]
    assert dp.formula == DP_SM_SHARE and "Hopper" not in dp.formula
    assert dict(dp.inputs)["displaced_share"] == f"{56 / 304:.3g}"


def test_where_nccls_sms_are_not_known_the_data_parallel_words_say_nothing_is_displaced():
    # B200: presets/efficiency.json nccl_contention ctas has no blackwell entry, so nccl_sm_share is 0
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "b200", "framework": "torchtitan"})
    assert nccl_sm_share(hardware_for(s)) == 0
    dp = time_provenance(s)["communication_dp"]
    assert dp.formula == DP_NO_SM_SHARE and not dp.inputs


def test_the_optimizer_words_name_the_passes_of_the_code_the_row_runs():
    # presets/efficiency.json frameworks megatron: step_grad_buffer_passes 2 (zero_ and check_grads' norm,
    # core_v0.13.0); optimizer_steps apex-distributed-fused-adam: 1 (zero_grad's grad_buffer.zero_(), apex b496d85f);
    # meta-llama3 borrows the profile without running its step (profile_step_passes false): the generic clip passes
    table = efficiency()
    megatron = time_provenance(_h100(framework="megatron"))["optimizer"]
    assert megatron.formula == OPT_GRAD_BUFFER
    assert dict(megatron.inputs)["step_grad_buffer_passes"] == table["frameworks"]["megatron"]["step_grad_buffer_passes"]
    apex = time_provenance(_h100(framework="megatron", optimizer_step="apex-distributed-fused-adam"))["optimizer"]
    assert apex.formula == OPT_APEX and "Megatron-Core" not in apex.formula
    assert dict(apex.inputs) == {
        "step_bytes_per_param": f"{table['optimizer_steps']['apex-distributed-fused-adam']['step_bytes_per_param']} B",
        "step_grad_buffer_passes": table["optimizer_steps"]["apex-distributed-fused-adam"]["step_grad_buffer_passes"]}
    meta = time_provenance(_h100(framework="meta-llama3"))["optimizer"]
    assert meta.formula == OPT_CLIP and "gradient buffer" not in meta.formula
    assert dict(meta.inputs) == {"clip_passes": table["optimizer_bytes_per_param"]["clip_passes"]}
    assert "Megatron-Core: + 2" not in FORMULAS["optimizer"]


def test_the_pipeline_words_name_the_node_boundary_crossing():
    # node_boundary.py prices the boundary stage's NIC exchange in the sends and one crossing each way in the fill,
    # for the blocking non-interleaved schedules (1F1B, GPipe), not the zero-bubble fork's asynchronous ones
    assert "node boundary" in FORMULAS["communication_pp"]
    for schedule in ("1f1b", "gpipe"):
        assert "per node boundary" in BUBBLE_FORMULAS[schedule]
    for schedule in ("zb-h1", "zb-2p", "zbv"):
        assert "node boundary" not in BUBBLE_FORMULAS[schedule]


def test_the_rank_wait_words_name_every_scenario_key_the_code_reads():
    # the scenario keys rank_imbalance.py reads as attributes (train.x / s.x), less the layout's and the length's
    # that the words say in their own terms (ranks, micro-batches, tokens a sequence, mean and longest)
    tree = ast.parse(RANK_IMBALANCE.read_text(encoding="utf-8"))
    names = {k.name for k in KEYS}
    read = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in names}
    said_otherwise = {"framework", "packing", "grad_accum", "micro_batch", "seq_len", "completion_len"}
    assert read - said_otherwise == {"sequence_len_std", "max_tokens_per_micro_batch"}
    for key in read - said_otherwise:
        assert key in RL_FORMULAS["rank_imbalance"]
    assert "sequence_len_std" in RL_PROVENANCE["rank_imbalance"].basis


def test_the_time_tabs_hover_shows_the_words_and_figures_of_the_scenario_at_hand(qtbot):
    # the legend's hover (gui/time_bar.py) carries the provenance's formula and the figures it reads: on Meta's
    # stack the generic clip passes, not Megatron-Core's buffer passes; on Hopper the displaced share the code computes
    from engine.workloads import step_time
    from gui.time_bar import TimeBar
    bar = TimeBar()
    qtbot.addWidget(bar)
    s = scenario_from_dict({"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "framework": "meta-llama3",
                            "gpus_per_node": 8, "nodes": 2})
    bar.show_time(step_time(s), time_provenance(s))
    hover = bar.legend.toolTip()
    share = nccl_sm_share(hardware_for(s), False, (s, resolve_model(s), True))
    assert f"displaced_share = {share:.3g}" in hover and "nccl_sms = 16" in hover
    assert "clip_passes = 2" in hover and "gradient buffer" not in hover


# h-review22: the words of session 22's mechanisms against their code paths

def _vision(**kw):
    # ms-swift's Megatron Qwen2.5-VL-7B DPO example as tests/data/published/posttraining_time.json enters it, here
    # without checkpointing, so only the frozen-backward tower's own checkpointing runs anything again
    return scenario_from_dict({"model": "qwen2.5-vl-7b", "gpu": "a100-80gb", "gpus_per_node": 4, "tp": 4,
                               "framework": "megatron", "method": "full", "checkpointing": "none", "micro_batch": 1,
                               "seq_len": 4096, "images_per_sample": 1, "image_resolution": 980, **kw})


def test_the_image_encoder_words_say_a_frozen_backward_tower_runs_its_input_gradients_and_its_blocks_again():
    # engine/timing/vision_time.py vision_seconds: a frozen-backward tower (ms-swift's vit_gradient_checkpointing on a
    # frozen tower, modelscope/ms-swift a161d54d4 swift/megatron/trainers/base.py lines 266-275) has a backward with
    # no weight gradient and runs its checkpointed blocks again whatever the scenario's checkpointing
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for
    from engine.timing.vision_time import vision_seconds

    def tower(mode):
        s = _vision(vision_tower=mode)
        v = resolve_model(s).vision
        return vision_seconds(s, v, rates_for(s, hardware_for(s), framework_profile(s.framework)), 1)

    frozen, back, trained = tower("frozen"), tower("frozen-backward"), tower("trained")
    assert frozen.gemm_bwd == frozen.recompute == 0.0
    assert back.gemm_bwd > 0.0 and back.wgrad == 0.0 and trained.wgrad > 0.0
    assert back.recompute > 0.0 and trained.recompute == 0.0  # checkpointing none: only frozen-backward's own
    assert "frozen-backward: input gradients only" in FORMULAS["compute"]
    assert "backward only where the tower trains" not in FORMULAS["compute"]
    assert "a frozen-backward one's always (its blocks checkpointed)" in FORMULAS["recompute"]


def test_the_recompute_words_name_the_lm_head_where_the_frameworks_checkpointing_wraps_it():
    # model.py _ends_seconds adds the head's forward matmul to the recompute under full checkpointing where the
    # profile says its checkpointing wraps the head: Aleph-Alpha/scaling 78489292be parallel_module.py lines 260-270
    # (presets/efficiency.json _checkpoint_recomputes_head_source); Megatron's wraps the transformer layers only
    wrapping = {name for name, prof in efficiency()["frameworks"].items()
                if isinstance(prof, dict) and prof.get("checkpoint_recomputes_head")}
    assert wrapping == {"aleph-alpha-scaling"}
    assert "the LM head's matmul too where the framework's checkpointing wraps it" in FORMULAS["recompute"]


def test_the_loss_words_give_the_bytes_a_logit_of_transformer_engines_release():
    # presets/efficiency.json loss_bytes_per_token_per_vocab te / te-inplace (_source_te: TransformerEngine 01bbe3ee,
    # v2.18, writes an fp32 gradient; v2.2-v2.17 write it over the bf16 logits), the figure costs.head_cost reads
    from engine.timing.costs import head_cost
    from engine.timing.gemm import Rates

    table = efficiency()["loss_bytes_per_token_per_vocab"]
    rates = Rates(1e15, 1e15, 5e14, 3e12, 2)
    spec = resolve_model(_h100(framework="megatron"))
    for path, per_logit in (("te", 22), ("te-inplace", 10)):
        s = _h100(framework="megatron", cross_entropy=path)
        inputs = dict(time_provenance(s)["memory_bound"].inputs)
        assert inputs == {"loss": path, "loss_bytes_per_logit": f"{per_logit} B"} and table[path] == per_logit
        assert head_cost(spec, 1024, 1, rates, path)[1] == pytest.approx(1024 * spec.vocab * per_logit / 3e12)


def test_the_compute_words_give_the_sustained_share_the_rates_are_slowed_to():
    # GB200: Azure's back-to-back FP8 GEMMs of random values, 2,906.9 of 3,615 TFLOPS (presets/efficiency.json
    # sustained_compute_fraction _source_gb200): 0.804, which model.py _compute_rates multiplies into the GEMM rate
    from engine.timing.data import framework_profile
    from engine.timing.model import rates_for

    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "gb200", "framework": "megatron", "gpus_per_node": 4})
    hw = hardware_for(s)
    compute = time_provenance(s)["compute"]
    assert dict(compute.inputs) == {"sustained_share": "0.804"} and compute.formula == FORMULAS["compute"]
    assert "power limit" in compute.basis
    rates = rates_for(s, hw, framework_profile(s.framework))
    assert rates.gemm == pytest.approx(hw.peak("bf16") * hw.matmul_fraction * 0.804)
    # a GPU its power limit does not hold back (A100: gpu-fryer's 270 of a MAMF of 271.2): no share to give
    assert not time_provenance(scenario_from_dict({"model": "llama-3.1-8b", "gpu": "a100-80gb"}))["compute"].inputs


def test_the_time_tabs_hover_gives_metas_gather_and_nemo_rls_worker_output(qtbot):
    # Meta's Llama 3 stack all-gathers K and V (arXiv:2407.21783 section 3.3.2; context_parallel.py
    # kv_all_gather_seconds): the hover carries the provenance's gather words, not the ring's FORMULAS text.
    # NeMo-RL's synchronous worker (worker_output.py): the generation's hover gives the seconds the code adds.
    from engine.accuracy import posttraining_time as ptt
    from engine.accuracy.published_throughput import load_rows
    from engine.posttraining.timing import step_provenance
    from engine.workloads import step_time
    from gui.time_bar import GENERATION_FIGURE_LABELS, TimeBar, figure_text

    bar = TimeBar()
    qtbot.addWidget(bar)
    meta = scenario_from_dict(next(r for r in load_rows() if r["id"] == "meta-llama3-405b-16384gpu-seq131072")["scenario"])
    t = step_time(meta)
    assert t.breakdown_seconds["communication_cp"] > 0
    bar.show_time(t, step_provenance(meta))
    hover = bar.legend.toolTip()
    assert "all-gather of the other cp - 1 ranks" in hover and "ring exchange of K/V blocks" not in hover
    nemo = scenario_from_dict(next(r for r in ptt.read_rows() if r["id"].endswith("llama3.1-8b-16xh100"))["scenario"])
    t = step_time(nemo)
    seconds = dict(t.generation)["worker_output_seconds"]
    assert seconds > 0 and "NeMo-RL's synchronous worker" in RL_FORMULAS["generation"]
    bar.show_time(t, step_provenance(nemo))
    label = GENERATION_FIGURE_LABELS["worker_output_seconds"]
    assert f"{label} = {figure_text('worker_output_seconds', seconds)}" in bar.legend.toolTip()
