"""Issue 24: the memory regimes still off (mechanisms 1-6, 9, 10), each against the framework's own source."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import estimate, resolve_model, scenario_from_dict
from engine.memory.loss import loss_memory
from engine.scenario.behaviour import behaviour

GIB = 2**30


def _s(**kw):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "precision": "mixed-bf16",
                               "micro_batch": 1, "seq_len": 8192, **kw})


def _comp(est, key, moment=0):
    return sum(c.moments[moment] for c in est.components if c.key == key)


def _loss(s):
    spec = resolve_model(s)
    tokens = s.micro_batch * s.seq_len
    return spec, tokens, loss_memory(behaviour(s), tokens, spec.vocab, spec.hidden, 2, 1, True, 2, False)


# --- 1: what the loss keeps for its backward follows the loss, not a fixed fp32 log-softmax


@pytest.mark.parametrize("ce, saved_per", [
    # transformers loss_utils.py ForCausalLMLoss: logits.float(), F.cross_entropy saves log_softmax's fp32 output
    ("standard", lambda t, v, h: 4 * t * v),
    # flash_attn/losses/cross_entropy.py: keeps the logits (bf16) and one fp32 log-sum-exp per token
    ("fused", lambda t, v, h: 2 * t * v + 4 * t),
    # transformer_engine/pytorch/cross_entropy.py: the fp32 gradient written in forward is what it saves
    ("te", lambda t, v, h: 4 * t * v),
    # Liger fused_linear_cross_entropy.py: grad_input (b·s·h, bf16) and grad_weight (V·h, the weight's dtype)
    ("fused-linear", lambda t, v, h: 2 * t * h + 2 * v * h),
])
def test_loss_saved_tensors_follow_the_implementation(ce, saved_per):
    spec, tokens, loss = _loss(_s(cross_entropy=ce))
    assert loss.saved == pytest.approx(saved_per(tokens, spec.vocab, spec.hidden))


def test_fsdp2_root_regather_holds_only_what_a_fused_linear_loss_saved():
    # FSDP2's root pre-backward gathers the root (embeddings, norm, lm_head) again, flat all-gather output and
    # copied-out parameters (2 x root x bf16, traced: engine/memory/parallelism/fsdp.py), while the loss still
    # holds its saved tensors. Liger's fused-linear loss (fused_linear_cross_entropy.py) holds grad_input (b·s·h)
    # and grad_weight (V·h) there, no b·s·V tensor: FSDP2's term and the loss's together are exactly these.
    fused = estimate(_s(fsdp=True, fsdp_version=2, gpus_per_node=8, cross_entropy="fused-linear"))
    spec = resolve_model(_s())
    root = spec.embedding_params + spec.head_params + spec.hidden
    saved = 2 * 8192 * spec.hidden + 2 * spec.vocab * spec.hidden
    at_regather = _comp(fused, "zero3_gather", 1) + _comp(fused, "logits", 1)
    assert at_regather == pytest.approx(2 * 2 * root + saved)
    # the standard loss keeps its fp32 log-softmax there instead (4 bytes per logit)
    standard = estimate(_s(fsdp=True, fsdp_version=2, gpus_per_node=8))
    assert standard.phases["backward"] - fused.phases["backward"] > 4 * 8192 * spec.vocab


# --- 5: cross-entropy in the compute dtype without an upcast


def test_no_upcast_loss_is_three_compute_dtype_bsv_tensors():
    # Qwen-1 modeling_qwen.py QWenLMHeadModel.forward (huggingface.co/Qwen/Qwen-7B): shift_logits =
    # lm_logits[..., :-1, :].contiguous() then CrossEntropyLoss on bf16: logits, the shifted copy and the bf16
    # log-softmax output in forward; backward: the saved output, the nll gradient and log_softmax's gradient.
    spec, tokens, loss = _loss(_s(cross_entropy="no-upcast"))
    tv = tokens * spec.vocab
    assert loss.forward == pytest.approx(3 * 2 * tv)
    assert loss.backward == pytest.approx(3 * 2 * tv)
    assert loss.saved == pytest.approx(2 * tv)
    # against the standard loss (bf16 logits + fp32 upcast + fp32 log-softmax = 10 bytes per logit)
    _, _, standard = _loss(_s())
    assert standard.forward - loss.forward == pytest.approx(4 * tv)


# --- 4: load-inclusive figures in `estimate --json`


def test_estimate_json_reports_what_the_framework_figure_includes():
    # litgpt/finetune/lora.py prints torch.cuda.max_memory_allocated() at the end without resetting the
    # statistics, and its FSDP runs load the full 16-bit checkpoint next to the shards (fabric.load_raw): the
    # figure it reports is the larger of the step's peak and the load's peak.
    from engine.cli import estimate_to_json

    litgpt = estimate(_s(framework="litgpt", method="lora", fsdp=True, gpus_per_node=2, seq_len=512,
                         precision="bf16"))
    out = estimate_to_json(litgpt)
    assert litgpt.load_gpu_bytes > litgpt.peak_allocated_bytes  # this run's load is its peak
    assert out["reported_allocated_bytes"] == round(max(litgpt.peak_allocated_bytes, litgpt.load_gpu_bytes))
    assert out["reported_reserved_bytes"] == out["peak_reserved_bytes"] >= out["reported_allocated_bytes"]
    # torchtune's get_memory_stats resets the peak statistics when it is first logged, after model init
    # (torchtune/training/memory.py at 0331778, reset_stats=True), so its figure is the step's
    tune = estimate_to_json(estimate(_s(framework="torchtune", fsdp=True, gpus_per_node=2)))
    assert tune["reported_allocated_bytes"] == tune["peak_allocated_bytes"]


# --- 10: the pp x vpp chunk check counts the embedding and the loss where Megatron does


def test_pipeline_chunks_count_the_embedding_and_loss_layers():
    # Megatron-Bridge's Llama 3.1 405B pretraining recipe: PP 16 x VPP 8 with account_for_embedding_in_pipeline_split
    # and account_for_loss_in_pipeline_split (126 layers + 2 = 128 = 16 x 8 chunks of one layer; get_num_layers_to_build
    # builds no decoder layer in the first chunk of the first rank, nor the last chunk of the last rank).
    kw = dict(model="llama-3.1-405b", gpus_per_node=8, nodes=64, tp=8, pp=16, vpp=8, pp_schedule="interleaved-1f1b",
              grad_accum=64, framework="megatron", precision="bf16", seq_len=8192, checkpointing="selective")
    est = estimate(_s(**kw, pipeline_split_accounts_for=["embedding", "loss"]))
    assert [st.layers for st in est.stages][:2] == [7, 8] and est.stages[-1].layers == 7
    with pytest.raises(Exception, match="128 model chunks"):  # without the two counted layers: 128 > 126
        estimate(_s(**kw))


# --- 2: Megatron / NeMo defaults


def test_megatron_reduces_its_gradient_buffer_in_place_in_the_recipes_dtype():
    # megatron/core/distributed/param_and_grad_buffer.py: buckets are views of the contiguous grad buffer, reduced in
    # place, so no flat copy exists whatever its dtype; Megatron-Bridge's perf recipes set grad_reduce_in_fp32=False
    # (perf_recipes/_common.py _benchmark_common): the buffer is bf16, 2 bytes per parameter.
    est = estimate(_s(framework="megatron", gpus_per_node=8, main_grads_fp32=False, seq_len=2048))
    assert not any(c.key == "ddp_buckets" for c in est.components)
    grads = next(c for c in est.components if c.key == "gradients")
    assert dict(grads.inputs)["bytes_per_param"] == 2
    fp32 = estimate(_s(framework="megatron", gpus_per_node=8, seq_len=2048))  # Megatron-LM's bf16 default: fp32
    assert dict(next(c for c in fp32.components if c.key == "gradients").inputs)["bytes_per_param"] == 4


def test_lora_adapters_in_the_frameworks_dtype():
    # Megatron-Bridge peft/lora.py and torchtune's LoRALinear build the adapters in the model's dtype (bf16); peft
    # upcasts them to fp32 (transformers' Trainer path).
    def adapter_bytes(framework):
        est = estimate(_s(framework=framework, method="lora", seq_len=2048))
        return dict(next(c for c in est.components if c.key == "lora_weights").inputs)["bytes_per_param"]

    assert adapter_bytes("megatron") == adapter_bytes("torchtune") == 2
    assert adapter_bytes("huggingface") == 4


def _h100_recipe(**kw):
    base = dict(model="llama-3-8b", gpu="h100-sxm-80gb", gpus_per_node=8, framework="megatron",
                precision="mixed-bf16", micro_batch=1, distributed_optimizer=True, sequence_parallel=True,
                pp_schedule="interleaved-1f1b", main_grads_fp32=False, expandable_segments=True)
    return scenario_from_dict({**base, **kw})


# Megatron-Bridge 067f987d recipes that ran on 80 GB H100s (pretraining, bf16, grad_reduce_in_fp32=False):
H100_RECIPES = {
    # perf_recipes/llama/h100/llama31.py llama31_405b_pretrain_1024gpu_h100_bf16_config: 1024 GPUs, GBS 1536
    "llama31-405b": dict(model="llama-3.1-405b", nodes=128, tp=8, pp=8, vpp=8, cp=2, seq_len=8192, grad_accum=192,
                         cross_entropy="te", pipeline_split_accounts_for=["embedding", "loss"]),
    # perf_recipes/qwen/h100/qwen3_moe.py qwen3_235b_a22b_pretrain_256gpu_h100_bf16_config: 256 GPUs, GBS 8192,
    # expert_tensor_parallel_size 1 (recipes/qwen/h100/qwen3_moe.py)
    "qwen3-235b": dict(model="qwen3-235b-a22b", nodes=32, tp=2, pp=8, vpp=4, ep=32, etp=1, seq_len=4096,
                       grad_accum=512, cross_entropy="te", pipeline_split_accounts_for=["embedding", "loss"]),
    # perf_recipes/deepseek/h100/deepseek_v3.py deepseek_v3_pretrain_1024gpu_h100_bf16_config: 1024 GPUs, GBS 16384,
    # recompute mla_up_proj and mlp; its layout "Et|(tt|)*30mL" puts 2 layers in a chunk, as the plain split does
    "deepseek-v3": dict(model="deepseek-v3", nodes=128, tp=2, pp=8, vpp=4, ep=64, etp=1, seq_len=4096,
                        grad_accum=256, cross_entropy="te", checkpointing="selective",
                        recompute_modules=["mla_up_proj", "mlp"]),
    # recipes/gpt/h100/gpt3_175b.py gpt3_175b_pretrain_32gpu_h100_bf16_config: 64 nodes, GBS 2048, micro-batch 2;
    # GPTModelProvider(96 layers, hidden 12288, ffn 49152, 96 heads, no dropout, learned positions), vocab 32000
    "gpt3-175b": dict(model={"name": "GPT-3 175B", "hf_config": {
        "model_type": "gpt2", "n_layer": 96, "n_embd": 12288, "n_head": 96, "n_positions": 2048, "vocab_size": 32000,
        "n_inner": 49152, "tie_word_embeddings": False, "resid_pdrop": 0.0, "embd_pdrop": 0.0, "attn_pdrop": 0.0}},
        nodes=64, tp=4, pp=8, vpp=6, seq_len=2048, micro_batch=2, grad_accum=64),
}


@pytest.mark.parametrize("name", sorted(H100_RECIPES))
def test_megatron_bridge_recipes_that_ran_on_80gb_cards_fit(name):
    est = estimate(_h100_recipe(**H100_RECIPES[name]))
    assert est.verdict == "fits", (name, est.total_bytes / GIB)


def test_expert_tensor_parallel_folding():
    # Megatron's MoE parallel folding (megatron/core/parallel_state.py: ep x etp x expert-dp = tp x cp x dp): with
    # etp 1, EP 32 spans the 2 tensor-parallel x 16 data-parallel ranks; each rank holds 128 / 32 whole experts, the
    # same expert bytes as EP 16 with experts split over TP 2, but its dispatcher sends only its sequence-parallel
    # tokens (t/tp x top_k) to whole experts (moe/token_dispatcher.py) instead of all-gathering them over TP.
    kw = H100_RECIPES["qwen3-235b"]
    folded = estimate(_h100_recipe(**kw))
    split = estimate(_h100_recipe(**{**kw, "ep": 16, "etp": 0}))
    assert _comp(folded, "weights") == pytest.approx(_comp(split, "weights"))
    spec = resolve_model(_h100_recipe(**kw))
    permuted_saved = 4096 / 2 * spec.top_k * spec.hidden * 2  # the tokens the grouped fc1 keeps, halved by folding
    layers, in_flight = folded.busiest.layers, folded.busiest.microbatches_in_flight
    assert _comp(split, "activations") - _comp(folded, "activations") == pytest.approx(
        layers * in_flight * permuted_saved, rel=0.01)


# --- 9: a config.json that omits a key takes its model class's default


def test_omitted_keys_take_the_model_classes_defaults():
    # SmolLM3Config declares tie_word_embeddings=True (transformers 5.25, presets/hf_config_defaults.json written by
    # validation/hf_config_defaults.py): without the key the released SmolLM3-3B still counts 3,075,098,624
    # parameters (Hugging Face safetensors total, presets/models/smollm3-3b.json), not 8.5% more.
    import json

    from engine.models.config_defaults import class_defaults
    from engine.models.hf_config import model_from_hf_config
    from engine.models.presets import PRESETS_DIR

    preset = json.loads((PRESETS_DIR / "models" / "smollm3-3b.json").read_text(encoding="utf-8"))
    cfg = {k: v for k, v in preset["hf_config"].items() if k != "tie_word_embeddings"}
    assert model_from_hf_config(cfg).total_params == preset["published_params"]
    # ... while a Llama config without the key stays untied (LlamaConfig declares False)
    assert model_from_hf_config({**cfg, "model_type": "llama"}).total_params > 1.08 * preset["published_params"]
    # a key the file states, even as null, is never replaced (DeepSeek-V2-Lite's q_lora_rank null: no compression)
    assert class_defaults()["deepseek_v2"]["q_lora_rank"] == 1536


def test_every_supported_model_type_has_its_classes_defaults():
    # every supported model_type that transformers defines has a row; "deepseek" and "kimi_k2" are remote code
    from engine.models.config_defaults import class_defaults
    from engine.models.hf_config import SUPPORTED_MODEL_TYPES
    from engine.models.hf_families import ALIASES

    table = class_defaults()
    missing = {t for t in SUPPORTED_MODEL_TYPES if t not in table and ALIASES.get(t, t) not in table}
    assert missing <= {"deepseek", "kimi_k2"}, missing
    # the vision-language text configs state no tie_word_embeddings of their own (transformers 5.25.0
    # Qwen2_5_VLTextConfig, Qwen3VLTextConfig): the outer config's value decides (engine/configs/common.py, h-qwen35vl)
    assert all("tie_word_embeddings" in table[t] for t in table if t not in ("qwen2_5_vl_text", "qwen3_vl_text"))


# --- 3: DeepSpeed ZeRO-3 gathers per module


def test_deepspeed_zero3_gathers_one_module_and_its_prefetch_bucket():
    # deepspeed/runtime/zero/partitioned_param_coordinator.py (edaa722) fetch_sub_module: the module in use, then the
    # next parameters while fewer than min(stage3_max_live_parameters - available, stage3_prefetch_bucket_size)
    # elements are in flight (the last one may pass the bucket by one layer matrix); release_sub_module frees a
    # module's parameters after use. Mixtral-8x7B (layers of 1.4B parameters): the largest module is the embedding
    # (32,000 x 4,096), the largest layer matrix an expert's 14,336 x 4,096; bf16 parameters.
    kw = dict(model="mixtral-8x7b", framework="deepspeed", zero_stage=3, gpus_per_node=8, precision="mixed-bf16",
              seq_len=2048)
    embed, matrix = 32000 * 4096, 14336 * 4096
    est = estimate(_s(**kw))
    assert _comp(est, "zero3_gather") == pytest.approx(2 * (embed + 50_000_000 + matrix))
    # stage3_max_live_parameters bounds it (never below the module in use)
    tight = estimate(_s(**kw, stage3_max_live_parameters=100_000_000))
    assert _comp(tight, "zero3_gather") == pytest.approx(2 * embed)


def test_deepspeed_zero3_accepts_zero_live_parameters_and_prefetches_nothing():
    # deepspeed/runtime/zero/config.py (edaa722): max_live_parameters and prefetch_bucket_size are Field(..., ge=0);
    # partitioned_param_coordinator.py fetch_sub_module prefetches `while numel_prefetching <
    # min(max_live - available, bucket)`, never with 0: only the module in use (Mixtral's embedding) is gathered.
    # axolotl's deepspeed_configs/zero3_bf16_cpuoffload_params.json sets max_live_parameters 0.
    kw = dict(model="mixtral-8x7b", framework="deepspeed", zero_stage=3, gpus_per_node=8, precision="mixed-bf16",
              seq_len=2048)
    embed = 32000 * 4096
    assert _comp(estimate(_s(**kw, stage3_max_live_parameters=0)), "zero3_gather") == pytest.approx(2 * embed)
    assert _comp(estimate(_s(**kw, stage3_prefetch_bucket_size=0)), "zero3_gather") == pytest.approx(2 * embed)
    from engine.configs.importing import import_files
    data = Path(__file__).parent / "data" / "configs"
    imported = import_files([data / "deepspeed/axolotl_zero3_bf16_cpuoffload_params.json"]).scenario
    assert imported["stage3_max_live_parameters"] == 0


# --- 6: torchtitan's compiled loss depends on its release


def test_torchtitan_compiles_the_loss_from_release_0_2_0():
    # torchtitan/config/configs.py: compile.components defaults to ["model", "loss"] and components/loss.py
    # BaseLoss._maybe_compile wraps the loss in torch.compile (commit 08b8b24, 2025-08-20, in 0.2.0); 0.1.0
    # compiled each TransformerBlock only. Compiled, the loss keeps the bf16 logits (one fused kernel); eager, the
    # logits, their fp32 upcast and the fp32 log-softmax (engine/memory/loss.py).
    kw = dict(framework="torchtitan", compile=True, seq_len=4096)
    spec = resolve_model(_s())
    tv = 4096 * spec.vocab
    current = estimate(_s(**kw))
    older = estimate(_s(**kw, compile_loss=False))
    assert _comp(current, "logits") == pytest.approx(2 * tv)
    assert _comp(older, "logits") == pytest.approx((2 + 4 + 4) * tv)


def test_megatron_gradient_buffer_lives_all_step():
    # megatron/core/distributed/param_and_grad_buffer.py allocates grad_data once (torch.zeros at wrap time) and
    # zero_grad_buffer() zeroes it every iteration: the gradients exist at the forward peak of the first micro-batch,
    # unlike PyTorch's .grad freed by zero_grad(set_to_none=True). Megatron-LM's own CI measures it too:
    # gpt3_7b_tp1_pp4_memory_speed (tests/data/published/published.json, mem-allocated-bytes 24.8 GB between steps).
    kw = dict(gpus_per_node=4, pp=4, vpp=8, pp_schedule="interleaved-1f1b", grad_accum=4, seq_len=2048)
    megatron = estimate(_s(framework="megatron", **kw))
    pytorch = estimate(_s(framework="pytorch", **kw))
    last = len(megatron.stages) - 1
    grads = next(c for c in megatron.stages[last].components if c.key == "gradients").moments
    assert grads.forward == grads.backward_end > 0
    assert next(c for c in pytorch.stages[last].components if c.key == "gradients").moments.forward == 0


def test_megatron_hidden_dropout_keeps_a_mask_per_block():
    # megatron/core/fusions/fused_bias_dropout.py: the bias-dropout-add after attention and after the MLP keeps a
    # one-byte mask of the residual stream each (Megatron's default hidden_dropout 0.1)
    from engine.frameworks.megatron_layer import megatron_layer_terms
    from engine.memory.detailed import act_context
    from engine.memory.states import dtypes_for

    s = _s(framework="megatron", seq_len=2048)
    spec = resolve_model(s)
    ctx = act_context(s, spec, dtypes_for(s))
    dropped = dataclasses.replace(spec, residual_dropout=0.1)
    extra = sum(b for _, b in megatron_layer_terms(ctx, dropped, False, frozenset())) - sum(
        b for _, b in megatron_layer_terms(ctx, spec, False, frozenset()))
    assert extra == 2 * 2048 * spec.hidden


def test_megatron_interleaved_schedule_groups_micro_batches_by_pipeline_size():
    # megatron/core/pipeline_parallel/schedules.py get_pp_rank_microbatches (d98e8a6): rank r warms up with
    # (pp - r - 1) x 2 + (vpp - 1) x microbatch_group_size_per_vp_stage chunk forwards (the group defaults to pp),
    # then runs one more forward before its first backward. PP 8, VPP 2, 12 micro-batches, rank 0:
    # 14 + 8 + 1 = 23 chunk forwards of 24, i.e. 11.5 micro-batches of the rank's whole layer set.
    from engine.memory.parallelism.pipeline import micro_batches_in_flight

    s = _s(framework="megatron", gpus_per_node=8, pp=8, vpp=2, pp_schedule="interleaved-1f1b", grad_accum=12)
    assert micro_batches_in_flight(s, 0) == pytest.approx(23 / 2)
