"""Megatron-Core's Transformer Engine layers (engine/frameworks/megatron_layer.py), its recompute_modules and
cpu_offloading_num_layers, and the published Megatron-Bridge runs (runs that really ran) they are checked against."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import THROUGHPUT_FILE, THROUGHPUT_PARTS_DIR, load_rows
from engine.errors import ScenarioError
from engine.frameworks.megatron_layer import megatron_layer_terms
from engine.memory.detailed import act_context
from engine.memory.states import dtypes_for
from engine.scenario import resolve_model

BASE = {"model": "llama-3-8b", "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 4096,
        "attention": "flash", "gpu": "b200"}


def _terms(**kw) -> dict[str, float]:
    s = scenario_from_dict({**BASE, **kw})
    spec = resolve_model(s)
    ctx = act_context(s, spec, dtypes_for(s))
    return dict(megatron_layer_terms(ctx, spec, False, ctx.recompute))


def _activations(**kw) -> float:
    e = estimate(scenario_from_dict({**BASE, **kw}))
    return next(c for c in e.busiest.components if c.key == "activations").moments[0]


def test_te_linears_keep_fp8_inputs_and_the_fused_swiglu_keeps_gate_and_up_only():
    # Llama-3-8B: hidden 4096, ffn 14336 (its config.json); 4096 tokens per micro-batch.
    t, h, f = 4096, 4096, 14336
    bf16, fp8 = _terms(), _terms(precision="fp8")
    assert bf16["MLP: fc1 output (gate and up) kept by the fused SwiGLU"] == 2 * 2 * t * f
    assert bf16["MLP: SwiGLU output kept by linear_fc2"] == 2 * t * f
    assert fp8["MLP: SwiGLU output kept by linear_fc2"] == 1 * t * f  # TE keeps its quantised copy, one byte
    assert fp8["MLP norm output: kept by linear_fc1"] == t * h
    # MXFP8 adds one E8M0 scale byte per 32 elements (TE MXFP8TensorStorage)
    assert _terms(precision="fp8", fp8_recipe="mxfp8")["MLP: SwiGLU output kept by linear_fc2"] == (1 + 1 / 32) * t * f
    # the TE norm keeps its bf16 input and one fp32 inverse RMS per token, not an fp32 copy of the input
    assert bf16["MLP norm (fused into linear_fc1): input and fp32 inverse RMS kept by the TE norm"] == 2 * t * h + 4 * t
    # under fp8 linear_proj keeps its own fp8 copy of the attention output next to the kernel's bf16 output
    assert "attention output: fp8 copy kept by linear_proj" in fp8 and "attention output: fp8 copy kept by linear_proj" \
        not in bf16


def test_recompute_modules_drop_what_megatron_discards():
    full = _terms(checkpointing="selective", recompute_modules=[])
    core = _terms(checkpointing="selective")  # Megatron's default: ["core_attn"]
    mlp = _terms(checkpointing="selective", recompute_modules=["mlp"])
    assert "attention: softmax statistics" in full and "attention: softmax statistics" not in core
    assert sum(mlp.values()) < sum(full.values())
    assert not any(k.startswith("MLP: fc1") for k in mlp)
    with pytest.raises(ScenarioError):
        scenario_from_dict({**BASE, "recompute_modules": ["attention"]})


def test_cpu_offloading_num_layers_keeps_the_other_layers_on_the_gpu():
    # Transformer Engine get_cpu_offload_context: activation memory is (layers - offloaded layers) x one layer's.
    none, eight = _activations(), _activations(activation_offload_layers=8)
    assert eight == pytest.approx(none * (32 - 8) / 32)  # Llama-3-8B has 32 layers


def test_published_megatron_bridge_runs_judged_not_to_fit_only_go_down():
    # Megatron-Bridge's performance table (tests/data/published/throughput.json rows, runs that really ran): a
    # "does not fit" verdict is a memory bug. Before the TE layer model and the recipes' memory settings 25 of 27
    # were judged not to fit and 2 tight; 3 and 4 before fp8_param_gather (the recipes' fp8 weights; 405B on GB200 and
    # Llama 3 70B FSDP on GB300 became tight); this pins what is left (Llama 3 70B FSDP on GB200).
    # The 27 rows of the 26.04.01 table (docs/fern/versions/0.4.2/pages/performance-summary.mdx) carry their recipes'
    # memory settings; the archived releases' rows (issue 23 item 4) borrow them and are pinned separately below.
    # DeepSeek-V3 on GB200 recomputes the MLP, not mla_up_proj (scripts/performance/configs/deepseek/
    # deepseek_workload_base_configs.py at v0.4.2 c8101293, DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V1:
    # recompute_modules=['mlp']): with the recipe's value that row is tight, 8 tight or not fitting.
    current = [r for r in load_rows()
               if r["framework"] == "Megatron-Bridge" and "pages/performance-summary.mdx" in r["source"]]
    verdicts = Counter(estimate(scenario_from_dict(r["scenario"])).verdict for r in current)
    assert sum(verdicts.values()) == 27
    assert verdicts["does not fit"] <= 1
    assert verdicts["does not fit"] + verdicts["tight"] <= 8


def test_archived_megatron_bridge_runs_judged_not_to_fit_only_go_down():
    # The 141 runs of Megatron-Bridge's archived tables (25.09 to 26.04) and 26.08 (docs/performance-summary.md),
    # whose unstated memory settings come from the 26.04.01 row of the same model and system: measured on adding
    # them, 18 judged not to fit (most are the layouts the 26.04.01 rows above already miss: Llama 3 70B FSDP on
    # GB200/GB300, 405B on GB200) and 18 tight; with the presets' fp8_param_gather 10 and 24 (the 405B GB200 and 70B
    # GB300 FSDP rows became tight), with the 25.09 recipes' settings (405B GB200: cpu_offloading_num_layers 95;
    # DeepSeek-V3 H100: selective recompute, etp 1) 8 and 25, with the recipes' micro-batch 1 and virtual stages on
    # the two Llama 3 70B MXFP8 rows whose table disagrees with them 6 and 26. Pinned so that the count can only fall.
    # The 12 NVFP4 runs of 26.02-26.04 (h-nvfp4): 11 fit, 1 tight (405B on 256 GB200s at TP 4, PP 16, VP 4, the
    # layout of the FP8 row judged not to fit in 26.06 below). The 8 runs h-leftovers moved into rows (DeepSeek-V3 with
    # MTP on B200, seven Qwen3-235B-A22B folding runs): all fit. The 9 Nemotron 3 Nano runs (h-mamba3, hybrid Mamba
    # blocks): all fit.
    archived = [r for r in load_rows(THROUGHPUT_FILE) if r["framework"] == "Megatron-Bridge"
                and "pages/performance-summary.mdx" not in r["source"]]
    verdicts = Counter(estimate(scenario_from_dict(r["scenario"])).verdict for r in archived)
    assert sum(verdicts.values()) == 170
    assert verdicts["does not fit"] <= 6
    assert verdicts["does not fit"] + verdicts["tight"] <= 32


def test_megatron_bridge_26_06_runs_judged_not_to_fit_only_go_down():
    # The 36 runs of Megatron-Bridge's 26.06 and 26.06.01 tables (tests/data/published/throughput/
    # megatron-bridge-26.06.json), whose unstated settings come from the earlier row of the same model and system:
    # measured on adding them, 1 judged not to fit (Llama 3.1 405B FP8 on 256 GB200s, TP 4, PP 16, VP 4) and 5
    # tight. Pinned so that the count can only fall. The two NVFP4 runs of 26.06 (h-nvfp4) fit, and the six Nemotron 3
    # Nano runs (h-mamba3, hybrid Mamba blocks).
    part = load_rows(THROUGHPUT_PARTS_DIR / "megatron-bridge-26.06.json")
    verdicts = Counter(estimate(scenario_from_dict(r["scenario"])).verdict for r in part)
    assert sum(verdicts.values()) == 44
    assert verdicts["does not fit"] <= 1
    assert verdicts["does not fit"] + verdicts["tight"] <= 6


def test_transformer_engine_cross_entropy_keeps_an_fp32_gradient_instead_of_fp32_logits_and_log_softmax():
    # transformer_engine/pytorch/cross_entropy.py (at d0067d0): the forward writes the logits' gradient in fp32
    # (torch.empty_like(_input, dtype=torch.float32)) and saves it; Megatron-Bridge's recipes run it
    # (cross_entropy_fusion_impl "te"). Llama-3-8B's vocabulary is 128,256; one 4,096-token micro-batch.
    def logits(ce: str) -> tuple[float, float]:
        e = estimate(scenario_from_dict({**BASE, "cross_entropy": ce}))
        m = next(c for c in e.busiest.components if c.key == "logits").moments
        return m[0], m[1]

    tv = 4096 * 128256
    te, standard = logits("te"), logits("standard")
    assert te[0] == (2 + 4) * tv + 16 * 4096
    # Megatron's own _VocabParallelCrossEntropy (megatron/core/tensor_parallel/cross_entropy.py at d98e8a6) works
    # in place on one fp32 copy of the logits: 6 bytes per logit too, and backward writes the gradient over it
    assert standard == ((2 + 4) * tv, (4 + 2) * tv)


def test_megatron_split_counting_the_embedding_and_the_loss():
    # megatron/core/transformer/transformer_block.py get_num_layers_to_build: (126 + 2) layers over 16 ranks x 4
    # chunks, 2 per chunk; the first chunk of rank 0 and the last chunk of rank 15 build one layer fewer.
    from engine.memory.parallelism.pipeline import micro_batches_in_flight, scenario_stage_ranges

    s = scenario_from_dict({**BASE, "model": "llama-3.1-405b", "tp": 4, "pp": 16, "vpp": 4, "gpus_per_node": 4,
                            "nodes": 256, "pp_schedule": "interleaved-1f1b", "grad_accum": 384,
                            "sequence_parallel": True, "pipeline_split_accounts_for": ["embedding", "loss"]})
    sizes = [len(r) for r in scenario_stage_ranges(s, 126)]
    assert sizes == [7] + [8] * 14 + [7]
    # rank 0 warms up with (4 - 1) x 16 + 2 x 15 forwards, plus one: 79 chunk forwards, 16 at a time per chunk:
    # chunk 0 (1 layer) runs 16 + 15 of them, chunks 1-3 (2 layers) 16 each: 127 layer forwards of its 7 layers
    assert micro_batches_in_flight(s, 0, 126) == pytest.approx(127 / 7)
    assert micro_batches_in_flight(s, 1, 126) == pytest.approx((3 * 16 + 2 * 14 + 1) / 4)


def test_megatron_recompute_modules_cost_the_time_of_what_they_rebuild():
    from engine.timing import step_time

    def seconds(**kw) -> float:
        return step_time(scenario_from_dict({**BASE, "gpus_per_node": 8, "zero_stage": 1, **kw})).step_seconds

    none = seconds()
    # selective with no module rebuilds nothing; each module adds its forward again (recompute never faster)
    assert seconds(checkpointing="selective", recompute_modules=[]) == pytest.approx(none)
    assert none < seconds(checkpointing="selective") < seconds(checkpointing="selective",
                                                               recompute_modules=["core_attn", "mlp"])


def test_megatron_launch_flags_for_offloading_the_split_and_the_te_loss_are_read():
    # Megatron-LM argument names (megatron/training/arguments.py builds them from TransformerConfig fields:
    # cpu_offloading_num_layers, account_for_*_in_pipeline_split, cross_entropy_fusion_impl)
    from engine.configs import import_texts

    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
              "--pipeline-model-parallel-size 4 --num-layers 30 --hidden-size 4096 --num-attention-heads 32 "
              "--seq-length 4096 --micro-batch-size 1 --bf16 --cpu-offloading --cpu-offloading-num-layers 4 "
              "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split "
              "--cross-entropy-loss-fusion --cross-entropy-fusion-impl te\n")
    scenario = import_texts([("train.sh", script)]).scenario
    assert scenario["activation_offload_layers"] == 4
    assert scenario["pipeline_split_accounts_for"] == ["embedding", "loss"]
    assert scenario["cross_entropy"] == "te"


def _weights(**kw) -> float:
    e = estimate(scenario_from_dict({**BASE, "precision": "fp8", "zero_stage": 1, "gpus_per_node": 8, **kw}))
    return next(c for c in e.busiest.components if c.key == "weights").moments[0]


def test_fp8_param_gather_keeps_the_layers_linear_weights_in_fp8():
    # Megatron --fp8-param-gather (Megatron-Bridge's fp8_cs and fp8_mx presets set it: src/megatron/bridge/training/
    # mixed_precision.py at 067f987d): Transformer Engine builds the GEMM weights as fp8 tensors. Llama-3-8B's
    # config.json: hidden 4096, 32 query heads and 8 KV heads of 128, ffn 14336, 32 layers.
    h, q, kv, f, layers = 4096, 4096, 1024, 14336, 32
    linear = layers * (h * (q + 2 * kv) + q * h + 3 * h * f)
    # Blackwell (compute capability 10.x) takes fp8 GEMMs in any layout: one byte, no transpose
    # (transformer_engine/pytorch/utils.py is_non_tn_fp8_gemm_supported at d0067d0)
    off, on = _weights(fp8_recipe="tensorwise"), _weights(fp8_recipe="tensorwise", fp8_param_gather=True)
    assert off - on == pytest.approx(linear * (2 - 1))
    # Hopper's fp8 GEMMs are TN only: the transpose is kept beside the data, two bytes as before
    hopper = {"gpu": "h100-sxm-80gb", "fp8_recipe": "tensorwise"}
    assert _weights(**hopper, fp8_param_gather=True) == pytest.approx(_weights(**hopper))
    # MXFP8 scales 1x32 blocks along one dimension: a row-wise and a column-wise copy, one E8M0 scale per 32 values
    mx_off, mx_on = _weights(fp8_recipe="mxfp8"), _weights(fp8_recipe="mxfp8", fp8_param_gather=True)
    assert mx_on - mx_off == pytest.approx(linear * (2 * (1 + 1 / 32) - 2))
    # not an fp8 run: nothing changes
    assert _weights(precision="mixed-bf16", fp8_param_gather=True) == _weights(precision="mixed-bf16")


def test_megatron_fp8_param_gather_flag_is_read():
    # megatron/training/arguments.py at 2a75ac12 line 1931: --fp8-param-gather (store_true), with --fp8-format
    from engine.configs import import_texts

    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 30 "
              "--hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --micro-batch-size 1 --bf16 "
              "--fp8-format hybrid --fp8-param-gather\n")
    scenario = import_texts([("train.sh", script)]).scenario
    assert scenario["precision"] == "fp8" and scenario["fp8_param_gather"] is True
    plain = import_texts([("train.sh", script.replace(" --fp8-param-gather", ""))]).scenario
    assert "fp8_param_gather" not in plain

