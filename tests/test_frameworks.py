"""The `framework` key and its explicit overrides (issue 11), engine layer.

Expected values are derived by hand from the frameworks' source code named in engine/frameworks/ (torchtune's
CEWithChunkedOutputLoss, Liger's fused linear cross-entropy chunk rule, torchtitan's SelectiveAC policy,
torchtune's optimizer-in-backward hooks, Megatron's distributed optimizer) and from the model's config.json
dimensions (Llama-3-8B: hidden 4096, vocab 128256, q 4096, kv 1024, ffn 14336, 32 heads).
"""

from __future__ import annotations

import math

import pytest

from engine import ScenarioError, estimate, scenario_from_dict
from engine.frameworks import FRAMEWORKS, TABLE, FrameworkDefaults

H, V, Q, KV, F, HEADS = 4096, 128256, 4096, 1024, 14336, 32


def _s(**kw):
    base = {"model": "llama-3-8b", "precision": "bf16", "micro_batch": 1, "seq_len": 2048}
    base.update(kw)
    return scenario_from_dict(base)


def _comp(est, key, moment=0):
    return next(c for c in est.components if c.key == key).moments[moment]


def test_every_framework_is_accepted_and_states_its_sources():
    for fw in FRAMEWORKS:
        assert estimate(_s(framework=fw)).peak_allocated_bytes > 0
        assert TABLE[fw].sources and all(what and where for what, where in TABLE[fw].sources)


@pytest.mark.parametrize("key,value", [("framework", "keras"), ("cross_entropy", "fast"),
                                       ("compile", "yes"), ("modules_to_save", ["q_proj"]),
                                       ("expandable_segments", 1), ("reduce_bucket_size", 0),
                                       ("host_memory_bytes", -5)])
def test_bad_values_get_one_sentence(key, value):
    with pytest.raises(ScenarioError) as exc:
        _s(**{key: value})
    assert str(exc.value).startswith(key)


def test_default_framework_is_the_traced_transformers_step():
    assert estimate(_s()).peak_allocated_bytes == estimate(_s(cross_entropy="standard")).peak_allocated_bytes


def test_chunked_loss_as_torchtune_computes_it():
    # CEWithChunkedOutputLoss: all 8 bf16 logit chunks + the fp32 log-softmax of every chunk + one chunk's upcast.
    tv = 2048 * V
    logits = _comp(estimate(_s(framework="torchtune")), "logits")
    assert logits == pytest.approx(2 * tv + 4 * tv + 4 * tv / 8)
    standard = _comp(estimate(_s()), "logits")
    assert standard == pytest.approx(2 * tv + 4 * tv + 4 * tv)


def test_fused_linear_loss_never_materialises_the_logits():
    # Liger: chunk = next_power_of_2(ceil(BT / ceil(V / H))) = next_pow2(ceil(2048 / 32)) = 64 tokens.
    est = estimate(_s(method="lora", cross_entropy="fused-linear"))
    chunk = 64
    expected = 2 * chunk * V + 2 * 2048 * H + 4 * 2048  # logits chunk + grad_input + fp32 per-token loss
    assert _comp(est, "logits") == pytest.approx(expected)
    # the head trains in a full fine-tune: its bf16 grad_weight is filled during the forward pass
    full = estimate(_s(cross_entropy="fused-linear"))
    assert _comp(full, "logits") == pytest.approx(expected + 2 * V * H)


def test_fused_loss_keeps_the_logits_in_their_own_dtype():
    # flash-attn's CrossEntropyLoss (flash_attn/losses/cross_entropy.py, llm-foundry's default loss_fn): the kernel
    # keeps the bf16 logits and one fp32 loss and log-sum-exp per token; backward adds a bf16 gradient of the
    # logits (inplace_backward is off). The standard path's fp32 upcast and log-softmax are never made.
    tv, t = 2048 * V, 2048
    est = estimate(_s(cross_entropy="fused"))
    assert _comp(est, "logits", 0) == pytest.approx(2 * tv + 8 * t)
    assert _comp(est, "logits", 1) == pytest.approx(2 * 2 * tv + 4 * t)
    assert _comp(est, "logits", 0) < _comp(estimate(_s()), "logits", 0) / 4


def test_op_selective_keeps_what_torchtitans_policy_saves():
    est = estimate(_s(checkpointing="op-selective", optimizer="sgd"))
    t = 2048
    per_layer = 2 * t * H + 2 * t * Q + 2 * t * KV + 2 * t * Q + 4 * t * HEADS + 2 * t * F + 2 * t * H
    assert _comp(est, "activations") == pytest.approx(32 * per_layer)
    # torchtitan and torchtune mean the per-op policy by "selective"; Hugging Face/Megatron the attention core
    assert _comp(estimate(_s(framework="torchtitan", checkpointing="selective")), "activations") == pytest.approx(
        32 * per_layer)
    assert _comp(estimate(_s(checkpointing="selective")), "activations") > 32 * per_layer


def test_optimizer_in_backward_drops_the_full_gradient_set():
    plain, oib = estimate(_s()), estimate(_s(optimizer_in_backward=True))
    assert _comp(oib, "gradients", 3) == 0  # nothing left at the optimizer moment
    assert _comp(oib, "gradients", 2) <= 2 * V * H  # one parameter's bf16 gradient (the largest: the embedding)
    assert oib.peak_allocated_bytes < plain.peak_allocated_bytes - 10 * 2**30
    with pytest.raises(ScenarioError):
        _s(optimizer_in_backward=True, grad_accum=4)


def test_qlora_base_weights_shard_and_offload():
    """FSDP / ZeRO-3 shard and offload bitsandbytes' packed 4-bit data (0.5 byte a weight); its quantisation constants
    (1/64 + 4/16384 bytes a weight with double quantisation, QLoRA paper section 3) are a QuantState on the module,
    whole on every GPU (bitsandbytes 005a63c2 nn/modules.py, engine/memory/states.py quantized_sharded_split);
    tests/test_qlora_sharding.py checks the torchao NF4 side."""
    one = _comp(estimate(_s(method="qlora")), "quantized_weights")
    params = one / (0.5 + 1 / 64 + 4 / 16384)
    eight = _comp(estimate(_s(method="qlora", fsdp=True, gpus_per_node=8)), "quantized_weights")
    assert eight == pytest.approx(params * (0.5 / 8 + 1 / 64 + 4 / 16384))
    zero3 = _s(method="qlora", zero_stage=3, gpus_per_node=8, offload="optimizer+params")
    assert _comp(estimate(zero3), "quantized_weights") == pytest.approx(params * (1 / 64 + 4 / 16384))


def test_modules_to_save_trains_a_copy_of_the_head():
    plain, saved = estimate(_s(method="lora")), estimate(_s(method="lora", modules_to_save=["lm_head"]))
    assert saved.trainable_params - plain.trainable_params == V * H
    # copy (2 bytes) + gradient (2) + two AdamW states (2 + 2) in bf16
    assert saved.phases["optimizer"] - plain.phases["optimizer"] >= 8 * V * H
    with pytest.raises(ScenarioError):
        _s(modules_to_save=["lm_head"])  # method full already trains the head


def test_megatron_distributed_optimizer_and_fp32_main_grads():
    # Megatron mixed precision: 2 (bf16 weight) + 4 (fp32 main_grad) + 12/d (master + Adam states, sharded).
    s = dict(precision="mixed-bf16", framework="megatron", gpus_per_node=8, distributed_optimizer=True)
    est = estimate(_s(**s))
    n = sum(v for k, v in next(c for c in est.components if c.key == "gradients").inputs if k == "params")
    assert _comp(est, "gradients", 3) == pytest.approx(4 * n)
    assert _comp(est, "master_weights") == pytest.approx(4 * n / 8)
    assert _comp(est, "optimizer_states") == pytest.approx(8 * n / 8)


def test_deepspeed_bucket_sizes_are_used():
    small = estimate(_s(zero_stage=2, gpus_per_node=4, reduce_bucket_size=50_000_000))
    assert _comp(small, "zero_buckets", 2) == pytest.approx(2 * 50_000_000)


def test_deepspeed_zero3_keeps_a_whole_gradient_bucket():
    # deepspeed/runtime/zero/stage3.py: contiguous_gradients (default) allocates reduce_bucket_size elements in the
    # gradient dtype when the optimizer is built, even for LoRA whose trainable weights are far fewer (bf16: 2 bytes).
    est = estimate(_s(framework="deepspeed", zero_stage=3, gpus_per_node=8, method="lora"))
    assert next(c for c in est.components if c.key == "zero3_ipg_bucket").moments == pytest.approx(
        (2 * 500_000_000,) * 4)
    small = estimate(_s(framework="deepspeed", zero_stage=3, gpus_per_node=8, method="lora",
                        reduce_bucket_size=100_000_000))
    assert _comp(small, "zero3_ipg_bucket") == pytest.approx(2 * 100_000_000)
    assert not any(c.key == "zero3_ipg_bucket" for c in estimate(_s(fsdp=True, gpus_per_node=8)).components)


def test_fsdp_qlora_keeps_the_root_unit_gathered():
    # torch FSDP1 _post_forward_reshard does not free the root's parameters after forward (FSDP2 likewise): the
    # embeddings, final norm and lm_head of Llama-3-8B (config.json: vocab 128256, hidden 4096, untied) stay
    # gathered in bf16 from forward to backward, beside the local shard.
    q = dict(method="qlora", precision="bf16", fsdp=True)
    two, one = estimate(_s(gpus_per_node=2, **q)), estimate(_s(gpus_per_node=1, **q))
    root = (2 * V * H + H) * 2
    assert _comp(two, "zero3_gather") - _comp(one, "zero3_gather") == pytest.approx(root)


def test_allocator_gap_follows_the_loss_spike_not_the_activations():
    # engine/frameworks/allocator.py: parameter- and activation-shaped blocks come back in the same sizes every
    # step and are reused; the reserved-but-unused remainder is a share of the b·s·V spike (GAP_LOSS, calibrated on
    # tests/data/gpu_measured). Checkpointing changes the activations, not the logits: the gap stays the same.
    from engine.frameworks.allocator import GAP_LOSS, GAP_LOSS_EXPANDABLE

    def gap(est):
        return next(c for c in est.busiest.overheads if c.key == "fragmentation").peak_bytes

    plain, ckpt = estimate(_s(method="lora")), estimate(_s(method="lora", checkpointing="full"))
    spike = _comp(plain, "logits")
    assert _comp(ckpt, "logits") == pytest.approx(spike)
    assert gap(plain) == pytest.approx(GAP_LOSS * spike) and gap(ckpt) == pytest.approx(GAP_LOSS * spike)
    assert gap(estimate(_s(method="lora", expandable_segments=True))) == pytest.approx(GAP_LOSS_EXPANDABLE * spike)


def test_compile_and_activation_offload_reduce_saved_activations():
    plain = _comp(estimate(_s(method="lora")), "activations")
    assert _comp(estimate(_s(method="lora", compile=True)), "activations") < plain
    offload = estimate(_s(method="lora", activation_offload=True))
    act = next(c for c in offload.components if c.key == "activations")
    per_layer = dict(act.inputs)["per_layer_bytes"]
    assert act.moments[0] == pytest.approx(2 * per_layer, rel=1e-6)
    assert dict(act.inputs)["offloaded_bytes"] == pytest.approx(plain - 2 * per_layer, rel=1e-6)


def test_litgpt_chunks_by_128_tokens_in_fp32_and_keeps_its_logits():
    # lightning/fabric wrappers.py: the precision plugin's convert_output casts the logit chunks to fp32 (the
    # default dtype); litgpt/utils.py chunked_cross_entropy log-softmaxes each 128-token chunk in that dtype and
    # keeps it for backward; finetune/lora.py keeps `logits` bound until the next forward returns.
    tv = 2048 * V
    est = estimate(_s(framework="litgpt"))
    assert _comp(est, "logits") == pytest.approx(4 * tv + 4 * tv)
    kept = next(c for c in est.components if c.key == "logits_kept")
    assert kept.moments == pytest.approx((0.0, 4 * tv, 4 * tv, 4 * tv))
    assert math.ceil(2048 / 128) == dict(next(c for c in est.components if c.key == "logits").inputs)["chunks"]


def test_litgpt_unties_the_head_and_quantises_it_under_qlora():
    # litgpt/model.py GPT has its own lm_head; convert_hf_checkpoint copies a tied embedding into it. Llama-3.2-1B
    # (config.json: tie_word_embeddings true, vocab 128256, hidden 2048) gains one 128256 x 2048 weight.
    head = 128256 * 2048
    hf = estimate(scenario_from_dict({"model": "llama-3.2-1b", "precision": "bf16", "method": "lora"}))
    lit = estimate(scenario_from_dict({"model": "llama-3.2-1b", "precision": "bf16", "method": "lora",
                                       "framework": "litgpt"}))
    assert _comp(lit, "frozen_weights") - _comp(hf, "frozen_weights") == pytest.approx(2 * head)
    # Fabric's BitsandbytesPrecision converts every nn.Linear, the head included: it is stored in NF4 (0.5 byte +
    # one fp32 absmax per 64 weights), not in bf16 next to the embedding.
    q = {"model": "llama-3.2-1b", "precision": "bf16", "method": "qlora", "qlora_double_quant": False}
    hf_q = estimate(scenario_from_dict(q))
    lit_q = estimate(scenario_from_dict({**q, "framework": "litgpt"}))
    assert _comp(lit_q, "frozen_weights") == pytest.approx(_comp(hf_q, "frozen_weights"))
    assert _comp(lit_q, "quantized_weights") - _comp(hf_q, "quantized_weights") == pytest.approx(
        head * (0.5 + 4 / 64))


def test_bitsandbytes_qlora_keeps_each_quantised_layer_input():
    # bitsandbytes MatMul4Bit: ctx.tensors = (A, B). With fp32 LoRA adapters on q and v (peft keeps an fp32 cast,
    # not the bf16 input), the quantised layers keep in bf16: the MLP norm output (t x h) and the SwiGLU product
    # (t x ffn) in all 32 layers (the LoRA outputs need gradients), and the attention norm output (t x h) in layers
    # 1..31 (layer 0's input comes from the frozen embedding and needs none).
    t = 2048
    bnb = _comp(estimate(_s(method="qlora")), "activations")
    # the same fp32 adapters on both sides (torchtune's own are in the model dtype: lora_adapter_dtype auto)
    torchao = _comp(estimate(_s(method="qlora", framework="torchtune", cross_entropy="standard",
                                checkpointing="none", lora_adapter_dtype="fp32")), "activations")
    assert bnb - torchao == pytest.approx(32 * 2 * t * (H + F) + 31 * 2 * t * H, rel=0.01)


def test_lora_dropout_keeps_the_dropped_input_and_mask():
    t = 2048
    plain = _comp(estimate(_s(method="lora")), "activations")
    dropout = _comp(estimate(_s(method="lora", lora_dropout=0.05)), "activations")
    # peft casts the input to the fp32 adapter dtype per adapter; with dropout, lora_A keeps the fp32 dropout output
    # instead of the fp32 cast, plus dropout's one-byte mask: q and v add one t x h byte mask each, in 32 layers.
    assert dropout - plain == pytest.approx(32 * 2 * 1 * t * H)
    bf16 = _comp(estimate(_s(method="lora", lora_adapter_dtype="compute")), "activations")
    bf16_dropout = _comp(estimate(_s(method="lora", lora_adapter_dtype="compute", lora_dropout=0.1)), "activations")
    # bf16 adapters on q and v shared one saved bf16 input (2 bytes); with dropout each keeps its own bf16 dropout
    # output and mask (2 + 1 bytes each): 6 - 2 = 4 bytes per element of the t x h input, in 32 layers
    assert bf16_dropout - bf16 == pytest.approx(32 * 4 * t * H)


def test_paged_optimizer_states_live_outside_the_allocator():
    est = estimate(_s(optimizer="adamw-8bit-paged"))
    assert not any(c.key == "optimizer_states" for c in est.components)
    assert estimate(_s(optimizer="adamw-8bit")).peak_allocated_bytes > est.peak_allocated_bytes + 10 * 2**30


def test_offloading_moves_gradients_to_cpu():
    est = estimate(_s(zero_stage=2, gpus_per_node=8, offload="optimizer"))
    assert _comp(est, "gradients", 2) == 0


def test_fsdp_with_pipeline_keeps_stage_weights_and_gradients_unsharded():
    # torchtitan: FSDP2 + torch.distributed.pipelining keeps a stage's weights gathered and its gradients unsharded
    # across micro-batches; each GPU of a 2-stage pipeline holds half the layers.
    base = {"model": "llama-3-8b", "fsdp": True, "gpus_per_node": 8, "pp": 2, "grad_accum": 8, "precision": "bf16",
            "checkpointing": "full"}
    hf = estimate(scenario_from_dict(dict(base, framework="huggingface")))
    titan = estimate(scenario_from_dict(dict(base, framework="torchtitan")))
    stage_params = titan.total_params / 2
    extra = _comp(titan, "zero3_gather", 2) - _comp(hf, "zero3_gather", 2)
    assert extra == pytest.approx(2 * 2 * stage_params, rel=0.15)  # bf16 weights + bf16 gradients of the stage


def test_unsloth_layers_save_what_its_kernels_save():
    # unsloth/kernels: fast_rms_layernorm keeps its input X and an fp32 inverse RMS per token; LoRA_QKV and LoRA_W
    # keep only their input; RoPE runs in place on Q and K; flash attention keeps Q, K, V, its output and the
    # log-sum-exp (fp32 per head); LoRA_MLP keeps X, gate and up. Per token and layer, bf16:
    per_token = (2 * H + 4) * 2 + 2 * H * 2 + 2 * (Q + 2 * KV) + 2 * Q + 4 * HEADS + 2 * 2 * F  # 110,728 bytes
    unsloth = estimate(_s(method="lora", framework="unsloth"))
    assert _comp(unsloth, "activations") == pytest.approx(32 * 2048 * per_token)
    assert _comp(unsloth, "activations") < _comp(estimate(_s(method="lora")), "activations")


def test_unsloth_long_context_table_runs_are_judged_to_run():
    # Unsloth's benchmark page (docs.unsloth.ai/basics/unsloth-benchmarks, "Llama 3.1 (8B) max. context length"):
    # 4-bit QLoRA on all linear layers, rank 32, batch 1, sequences padded to the length, Unsloth's defaults
    # (offloaded gradient checkpointing, fused cross-entropy, 8-bit AdamW as its notebooks set). Each length ran on
    # that much VRAM: none may be judged "does not fit"; a quarter more no longer fits. The table came with the
    # December 2024 release (unsloth.ai/blog/llama3-3: 342K tokens on 80 GB, 2,900 on 8 GB), before matmul_lora's global
    # dequantisation buffer (tag 2025-02): the unsloth-2024 row.
    table = ((8, 2_972), (12, 21_848), (16, 40_724), (24, 78_475), (40, 153_977), (48, 191_728), (80, 342_733))
    for vram_gb, tokens in table:
        base = {"model": "llama-3.1-8b", "gpu": {"name": f"{vram_gb} GB", "memory_bytes": vram_gb * 10**9},
                "method": "qlora", "precision": "bf16", "lora_rank": 32, "lora_targets": "all-linear",
                "micro_batch": 1, "checkpointing": "full", "attention": "flash", "framework": "unsloth-2024",
                "optimizer": "adamw-8bit"}
        assert estimate(scenario_from_dict({**base, "seq_len": tokens})).verdict != "does not fit", vram_gb
        if vram_gb > 8:
            longer = estimate(scenario_from_dict({**base, "seq_len": tokens * 5 // 4}))
            assert longer.verdict == "does not fit", vram_gb




def test_liger_kernels_keep_one_tensor_per_norm_and_two_for_swiglu():
    # liger_kernel/ops/rms_norm.py saves X and one rstd per row (dX and dW come from them); ops/swiglu.py saves the
    # gate and up outputs and recomputes silu in backward. Hugging Face's eager path keeps an fp32 copy of each
    # norm's input and gate, silu(gate) and up. Llama-3-8B, full fine-tune in bf16, 2048 tokens.
    plain, liger = (estimate(_s(liger_kernels=on, optimizer="sgd")) for on in (False, True))
    t = 2048
    per_layer_saving = 2 * (4 * t * H + 2 * t * H - 2 * t * H) + 2 * t * F  # two norms, one SwiGLU tensor
    assert _comp(plain, "activations") - _comp(liger, "activations") == pytest.approx(32 * per_layer_saving)


# The columns that replaced framework-name comparisons across the engine and the window (issue 21.2): the frameworks
# whose row departs from the column's default, as the comparisons they replace read.
# Megatron's memory facts (meta-llama3: Meta's Llama 3 stack, Megatron's facts a stand-in, engine/frameworks/meta_llama3.py)
# verl-megatron: verl's Megatron actor runs Megatron-Core (engine/frameworks/verl_megatron.py)
MEGATRON = {"megatron", "megatron-2022", "megatron-2021", "megatron-zb", "meta-llama3", "verl-megatron",
            "nemo-rl-megatron"}
# aleph-alpha-scaling (arXiv:2311.05610's codebase) takes DeepSpeed ZeRO-1's memory facts (engine/frameworks/defaults.py),
# its own time profile
DS_FACTS = {"deepspeed", "deepspeed-2021", "deepspeed-2022", "aleph-alpha-scaling"}
FACT_COLUMNS = {
    "loss_parallel_by_default": {"torchtitan", *MEGATRON}, "loss_always_parallel": MEGATRON,
    "vocab_parallel_embedding": MEGATRON, "sp_saves_gathered_inputs": MEGATRON,
    "loss_outside_model": {"torchtitan", "torchtune"}, "pipeline_frees_sent_outputs": MEGATRON,
    "pipeline_keeps_weights": {"torchtitan", "pytorch", "olmo-core", "nemo-automodel-te"},
    "pipeline_returns_outputs": {"torchtitan", *DS_FACTS, "openrlhf"},
    "pipeline_recv_once": {*DS_FACTS, "openrlhf"},
    "cp_ring_attention": MEGATRON, "ep_all_to_all_dispatch": MEGATRON, "te_layers": MEGATRON,
    "selective_by_modules": MEGATRON, "kernels_save_as_compiled": {"unsloth", "unsloth-2024"},
    "fused_lora_kernels": {"unsloth", "unsloth-2024"},
    "takes_megatron_arguments": MEGATRON,
    "zero_bucket_settings": {*DS_FACTS, "openrlhf", "internevo"},
    "offers_liger_kernel": {"huggingface", "trl", "trl-2025", "ms-swift", "axolotl"}, "grads_reduced_in_buffer": MEGATRON,
    # TRL's own trainers cast a quantised model's adapters to bf16 since v0.26.0 (engine/frameworks/defaults.py), and
    # so do axolotl's DPO / IPO / KTO / reward / GRPO trainers, which run TRL 1.8.0's __init__ (engine/frameworks/axolotl.py)
    "quantized_adapters_bf16": {"trl", "axolotl"},
    "lora_adapters_in_model_dtype": {*MEGATRON, "torchtune", "litgpt"}, "loss_in_place": MEGATRON,
    # mlx: mlx-lm compiles optimizer.update into its step (ml-explore/mlx-lm@d78bf58e mlx_lm/tuner/trainer.py line 246)
    "adam_fused": {*MEGATRON, "deepspeed-2022", "deepspeed-2021", "mlx"}, "fsdp_embedding_unit": {"olmo-core"},
    # MLX's Metal kernels (engine/frameworks/mlx.py), on Apple GPUs only
    "metal_only": {"mlx", "mlx-2023"},
    # bitsandbytes, torchao and Unsloth dequantise a quantised weight for its input-gradient GEMM; MLX does not
    # (engine/memory/layer_backward.py dequantized_weight_scratch); Unsloth keeps a global buffer since 2025.2
    "qlora_backward_copy": {"mlx", "mlx-2023"}, "qlora_dequant_buffer": {"unsloth"},
}


@pytest.mark.parametrize("column", sorted(FACT_COLUMNS))
def test_framework_fact_columns_depart_from_their_default_where_their_source_says(column):
    default = FrameworkDefaults.__dataclass_fields__[column].default
    assert {fw for fw in FRAMEWORKS if getattr(TABLE[fw], column) != default} == FACT_COLUMNS[column]


def _optimizer_temp(est):
    return sum(c.moments[3] for c in est.components if c.key == "optimizer_temp")


def test_megatron_adam_is_fused_and_reads_fp32_main_grads_in_place():
    """Megatron's --optimizer adam is Transformer Engine's (else Apex's) FusedAdam (megatron/core/optimizer/
    __init__.py at Megatron-LM d98e8a6): one multi-tensor kernel, no state-sized temporary as torch's foreach AdamW
    keeps. Its master update takes main_param.grad = main_grad.float() (optimizer.py, distrib_optimizer.py): the same
    tensor when the main gradients are fp32 already, an fp32 copy of the (shard's) gradients when they are bf16."""
    hf = estimate(_s(precision="mixed-bf16"))
    n = hf.trainable_params
    # torch's foreach AdamW under mixed precision: one fp32 state-sized temporary + the fp32 gradient copy
    assert _optimizer_temp(hf) == pytest.approx(n * 4 + n * 4, rel=1e-6)
    assert _optimizer_temp(estimate(_s(precision="mixed-bf16", framework="megatron"))) == 0
    bf16_main = estimate(_s(precision="mixed-bf16", framework="megatron", main_grads_fp32=False))
    assert _optimizer_temp(bf16_main) == pytest.approx(n * 4, rel=1e-6)


def test_olmo_core_gathers_the_embedding_only_for_its_forward():
    """OLMo-core's apply_fsdp (src/olmo_core/nn/transformer/model.py at 7e58d1289bc27103880e7a8382ad0847c35e04f7)
    wraps self.embeddings as its own FSDP unit with set_unshard_in_backward(False): around the loss and in backward
    the gathered root is the final norm and lm_head only. OLMo-2-7B's config.json: vocab_size 100352, hidden_size
    4096, untied; the bf16 all-gather (MixedPrecisionPolicy param_dtype bf16) holds 2 bytes per parameter."""
    base = {"model": "olmo-2-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "precision": "amp-bf16",
            "micro_batch": 2, "seq_len": 4096, "attention": "sdpa", "fsdp": True}
    plain, olmo = (estimate(scenario_from_dict({**base, "framework": fw})) for fw in ("pytorch", "olmo-core"))
    embedding_gather = 100352 * 4096 * 2
    for moment in (0, 1):  # end of forward (at the loss), start of backward
        assert _comp(plain, "zero3_gather", moment) - _comp(olmo, "zero3_gather", moment) == embedding_gather
    assert plain.peak_allocated_bytes - olmo.peak_allocated_bytes == embedding_gather
