"""2025-2026 architectures (issue 12): layouts, inference caches, vision towers, clear refusals. Engine only."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import estimate, model_from_hf_config, model_presets
from engine.errors import ModelConfigError
from engine.memory.estimate import kv_cache_bytes, kv_cache_per_layer
from engine.scenario import scenario_from_dict

REPO = Path(__file__).resolve().parent.parent
ISSUE_12_MODELS = ["deepseek-v3", "deepseek-r1", "deepseek-v2-lite", "kimi-k2", "gemma-3-1b", "gemma-3-4b",
                   "gemma-3-12b", "gemma-3-27b", "llama-4-scout", "llama-4-maverick", "gpt-oss-20b", "gpt-oss-120b",
                   "phi-4", "mistral-small-3.1-24b", "llama-3.3-70b", "smollm3-3b", "olmo-2-7b", "olmo-2-13b",
                   "glm-4.5-air", "qwen3-next-80b-a3b", "qwen2.5-vl-7b", "qwen2.5-coder-7b",
                   "deepseek-r1-distill-qwen-7b"]


def spec(model_id):
    return model_presets()[model_id].spec


def test_every_issue_12_preset_loads_and_estimates():
    for model_id in ISSUE_12_MODELS:
        preset = model_presets()[model_id]
        assert preset.source.startswith("https://") and preset.published_params_source, model_id
        est = estimate(scenario_from_dict({"model": model_id, "precision": "bf16", "lora_targets": "all-linear",
                                           "method": "lora"}))
        assert est.peak_allocated_bytes > preset.spec.total_params, model_id  # bf16 weights at least
        assert est.active_params <= est.total_params == preset.spec.total_params


def test_mla_layout_and_latent_cache():
    s = spec("deepseek-v3")  # config.json: q_lora_rank 1536, kv_lora_rank 512, nope 128 + rope 64, v 128
    names = [lin.name for lin in s.attention_linears()]
    assert names == ["q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"]
    assert s.moe_layer_flags[:4] == (False, False, False, True)  # first_k_dense_replace = 3
    # MLA caches the 512-wide latent + the 64-wide shared RoPE key per token and layer (DeepSeek-V2 paper, Sec. 2.1).
    assert kv_cache_bytes(s, 1, 1000, 2) == 61 * 1000 * (512 + 64) * 2
    lite = spec("deepseek-v2-lite")  # "q_lora_rank": null -> a plain q_proj
    assert lite.attention_linears()[0].name == "q_proj"
    assert spec("deepseek-v3").mtp_params > 10e9  # the 14B MTP module is reported apart, not built by transformers


def test_sliding_chunked_and_hybrid_caches():
    g = spec("gemma-3-27b")  # 5 local (window 1024) : 1 global
    kinds = g.kinds
    assert kinds[:6] == ("sliding",) * 5 + ("full",) and kinds.count("full") == 62 // 6
    per_layer = kv_cache_per_layer(g, 1, 32768, 2)
    assert per_layer[0] == 1024 * 2 * 16 * 128 * 2 and per_layer[5] == 32768 * 2 * 16 * 128 * 2
    oss = spec("gpt-oss-20b")  # alternating 128-token window / full; sinks are parameters, not cache
    assert kv_cache_per_layer(oss, 1, 4096, 2)[:2] == [128 * 2 * 8 * 64 * 2, 4096 * 2 * 8 * 64 * 2]
    assert oss.small_params(True) - spec("gpt-oss-20b").norms_per_layer * oss.hidden == oss.heads  # one sink per head
    nxt = spec("qwen3-next-80b-a3b")  # 3 gated-DeltaNet layers : 1 full-attention layer
    assert nxt.kinds[:4] == ("linear", "linear", "linear", "full")
    short, long = kv_cache_per_layer(nxt, 1, 1024, 2), kv_cache_per_layer(nxt, 1, 65536, 2)
    assert short[0] == long[0]  # a recurrent state does not grow with the context
    assert long[3] == 64 * short[3]
    scout = spec("llama-4-scout")  # chunked attention (8192) on 3 of every 4 layers
    assert scout.kinds[:4] == ("chunked", "chunked", "chunked", "full")
    assert kv_cache_per_layer(scout, 1, 65536, 2)[0] == 8192 * 2 * 8 * 128 * 2


def test_hybrid_mamba_stack_caches_only_in_attention_and_mamba_blocks():
    """Nemotron 3 Nano (presets/models/nemotron-3-nano-30b-a3b.json, its config.json): 52 blocks, 6 attention ('*')
    with 2 KV heads of 128, 23 Mamba-2 ('M': 64 heads x 64, state 128, 8 groups, conv kernel 4) and 23 MoE ('E').
    vLLM's NemotronH caches K and V in the '*' blocks, a conv tail + SSM state per sequence in the 'M' blocks and
    nothing in the 'E' blocks; the `kv-cache` command counted all 52 as attention layers (8.7x too much)."""
    nano = spec("nemotron-3-nano-30b-a3b")
    attention = 6 * 2 * 2 * 128 * 2  # blocks x (K, V) x kv_heads x head_dim x bf16 bytes, per token
    mamba = 23 * (3 * (4096 + 2 * 8 * 128) + 64 * 64 * 128) * 2  # blocks x (conv tail + SSM state) x bf16, per sequence
    assert kv_cache_bytes(nano, 4, 32768, 2) == 4 * (32768 * attention + mamba)
    per_layer = kv_cache_per_layer(nano, 1, 1024, 2)
    assert len(per_layer) == 52 and per_layer.count(0.0) == 23  # the MoE blocks cache nothing


def test_vision_tower_counts_and_training():
    qvl = spec("qwen2.5-vl-7b")
    assert qvl.vision is not None and qvl.vision_params > 0.6e9
    # 448 x 448 px -> 32 x 32 patches of 14 px -> 2 x 2 merge -> 256 tokens (Qwen2.5-VL processor arithmetic)
    assert qvl.vision.tokens_per_image(448) == 256
    assert spec("gemma-3-4b").vision.tokens_per_image(2000) == 256  # mm_tokens_per_image, any input size
    base = {"model": "qwen2.5-vl-7b", "precision": "bf16", "images_per_sample": 4, "image_resolution": 448}
    frozen = estimate(scenario_from_dict(base))
    trained = estimate(scenario_from_dict({**base, "vision_tower": "trained"}))
    assert "vision_activations" in {c.key for c in trained.busiest.components}
    assert "vision_activations" not in {c.key for c in frozen.busiest.components}
    assert trained.peak_allocated_bytes > frozen.peak_allocated_bytes
    assert trained.trainable_params - frozen.trainable_params == qvl.vision_params


def test_hybrid_layers_keep_their_own_parameters():
    nxt = spec("qwen3-next-80b-a3b")
    full = estimate(scenario_from_dict({"model": "qwen3-next-80b-a3b", "precision": "bf16", "ep": 1}))
    assert full.trainable_params == nxt.total_params  # every layer counted with its own (DeltaNet or attention) shape
    assert nxt.layer_params(True, True) != nxt.layer_params(True, False)


def test_unsupported_model_type_names_what_is_missing():
    with pytest.raises(ModelConfigError, match="encoder-only"):
        model_from_hf_config({"model_type": "bert", "hidden_size": 8})
    with pytest.raises(ModelConfigError, match="not supported"):
        model_from_hf_config({"model_type": "mamba9", "hidden_size": 8})
    with pytest.raises(ModelConfigError, match="vision tower"):
        model_from_hf_config({"model_type": "mistral3", "text_config": json.loads(json.dumps(
            model_presets()["mistral-7b"].hf_config)), "vision_config": {"model_type": "clip_vision_model"}})


def test_estimate_json_reports_total_and_active_params(tmp_path):
    scenario = tmp_path / "oss.json"
    scenario.write_text(json.dumps({"model": "gpt-oss-20b", "method": "lora", "lora_targets": "all-linear"}))
    out = subprocess.run([sys.executable, str(REPO / "main.py"), "estimate", str(scenario), "--json"],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    data = json.loads(out.stdout)
    s = spec("gpt-oss-20b")
    assert data["total_params"] == s.total_params and data["active_params"] == s.active_params
    assert data["active_params"] < data["total_params"] / 4  # top-4 of 32 experts


_VL = {"model": "qwen2.5-vl-7b", "gpu": "h100-sxm-80gb", "method": "full", "precision": "bf16"}


def test_the_engine_warns_about_images_it_cannot_take():
    """One sentence each: images for a text-only model, and more image tokens than the sequence holds."""
    text_only = estimate(scenario_from_dict({**_VL, "model": "llama-3-8b", "images_per_sample": 1}))
    assert any("has no vision tower" in str(w) for w in text_only.warnings)
    # 504 px -> 324 tokens per image (Qwen2.5-VL: 14-pixel patches, 2 x 2 merged): 2 images need 648 > 512
    fits = estimate(scenario_from_dict({**_VL, "seq_len": 512, "images_per_sample": 1, "image_resolution": 504}))
    assert not any("more than seq_len" in str(w) for w in fits.warnings)
    too_many = estimate(scenario_from_dict({**_VL, "seq_len": 512, "images_per_sample": 2, "image_resolution": 504}))
    assert any("648 tokens, more than seq_len 512" in str(w) for w in too_many.warnings)


@pytest.mark.parametrize("pixels, side", [(500, 504), (448, 448), (1000, 1008), (4000, 3584), (10, 56)])
def test_qwen_images_are_resized_like_its_processor(pixels, side):
    """transformers' smart_resize (models/qwen2_vl/image_processing_qwen2_vl.py) with Qwen2.5-VL's released
    preprocessor_config.json (min_pixels 3136, max_pixels 12845056): the nearest multiple of 28 pixels, at least 56 and
    at most 3584 for a square image; 14-pixel patches, 2 x 2 merged into one token."""
    vision = model_presets()["qwen2.5-vl-7b"].spec.vision
    assert vision.patches_per_image(pixels) == (side // 14) ** 2
    assert vision.tokens_per_image(pixels) == (side // 28) ** 2


# MPT-7B's config.json as released (mosaicml/mpt-7b): ALiBi, no biases; llm-foundry's benchmark runs use MPTConfig's
# defaults instead (learned position embeddings, biases).
MPT_7B = {"model_type": "mpt", "d_model": 4096, "n_heads": 32, "n_layers": 32, "expansion_ratio": 4,
          "max_seq_len": 2048, "vocab_size": 50432, "no_bias": True, "learned_pos_emb": True,
          "attn_config": {"alibi": True, "attn_impl": "torch"}}


def test_mpt_layout_is_read_from_its_own_config_keys():
    m = model_from_hf_config(MPT_7B, "MPT-7B")
    # the model card says 6.7B parameters
    assert m.total_params == pytest.approx(6.7e9, rel=0.01)
    assert [lin.name for lin in m.layer_linears(False)] == ["qkv_proj", "o_proj", "up_proj", "down_proj"]
    assert m.ffn == 4 * 4096 and not m.mlp_gated and m.tied_embeddings
    assert m.position_embedding_params == 0  # ALiBi: no position table
    learned = model_from_hf_config({**MPT_7B, "attn_config": {"alibi": False}})
    assert learned.embedding_params - m.embedding_params == 2048 * 4096  # max_seq_len x d_model


def test_a_plain_mlp_keeps_its_activation_input_and_output():
    # act(up_proj(x)) -> down_proj: GELU keeps its input (the up output) and down_proj its input (the GELU output),
    # 2 x ffn per token, where SwiGLU keeps gate, silu(gate), up and their product (4 x ffn). MPT's LPLayerNorm
    # keeps one compute-dtype input per norm (no fp32 copy).
    from engine.memory.activations import layer_terms
    from engine.memory.detailed import act_context
    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.scenario.behaviour import behaviour

    s = scenario_from_dict({"model": {"name": "mpt-7b", "hf_config": MPT_7B}, "precision": "bf16",
                            "attention": "flash", "micro_batch": 1, "seq_len": 2048})
    m = resolve_model(s)
    terms = dict(layer_terms(act_context(s, m, dtypes_for(s), behaviour(s)), m, False, True, True, frozenset()))
    t, h, f = 2048, 4096, 4 * 4096
    assert terms["MLP: up output (the activation's input)"] == 2 * t * f
    assert terms["MLP product: input kept by down_proj"] == 2 * t * f
    assert terms["MLP norm: input kept by the LayerNorm"] == 2 * t * h
    # no RoPE: nothing keeps the fused QKV output besides the attention kernel's own Q, K and V
    assert not any("fused QKV output" in name for name in terms)
    assert sum(terms.values()) == pytest.approx(2 * t * h * (1 + 1 + 3 + 1 + 1 + 1) + 2 * 2 * t * f, rel=0.01)


@pytest.mark.parametrize(("change", "words"), [
    ({"n_heads": 0}, "'n_heads' must be between 1"),
    ({"d_model": 10**12}, "'d_model' must be between 1"),
    ({"n_layers": 10**9}, "'n_layers' must be between 1 and 10,000"),
    ({"n_heads": 7}, "d_model (4096) is not a multiple of n_heads (7)"),
    ({"attn_config": {"kv_n_heads": 5}}, "n_heads (32) is not a multiple of kv_n_heads (5)"),
    ({"expansion_ratio": "4"}, "'expansion_ratio' must be a number above 0"),
])
def test_a_broken_mpt_config_gets_one_sentence(change, words):
    with pytest.raises(ModelConfigError) as exc:
        model_from_hf_config({**MPT_7B, **change})
    assert words in str(exc.value)


def test_gpt_neox_layout_counts_what_the_pythia_paper_counts():
    # Biderman et al. 2023, "Pythia", Table 1: 1B has 1,011,781,632 parameters, 805,736,448 without embeddings;
    # the LayerNorm biases (2 per layer + the final one) are what a weight-only count would miss.
    m = model_presets()["pythia-1b"].spec
    assert m.total_params == 1_011_781_632
    assert m.total_params - 2 * m.embedding_params == 805_736_448  # untied: embed_in and embed_out
    assert m.parallel_residual and not m.mlp_gated and m.norm_bias


def test_phi_layout_shares_one_norm_and_keeps_newgelus_intermediates():
    # PhiForCausalLM (transformers): q/k/v and fc1 read the same LayerNorm output (kept once); NewGELU written out in
    # Python keeps its input, tanh, 1 + tanh and 0.5 x (4 ffn-wide tensors, traced: validation/breakdown.py), fc2 its
    # output; resid_pdrop 0.1 keeps a one-byte mask of each block's output on CUDA.
    from engine.memory.activations import layer_terms
    from engine.memory.detailed import act_context
    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.scenario.behaviour import behaviour

    m = model_presets()["phi-2"].spec
    assert m.total_params == 2_779_683_840 and m.norms_per_layer == 1 and m.head_bias
    s = scenario_from_dict({"model": "phi-2", "precision": "bf16", "attention": "sdpa", "micro_batch": 1,
                            "seq_len": 2048})
    spec = resolve_model(s)
    terms = dict(layer_terms(act_context(s, spec, dtypes_for(s), behaviour(s)), spec, False, True, True, frozenset()))
    t, h, f = 2048, 2560, 10240
    assert "MLP norm output: input kept by fc1" not in terms and not any(n.startswith("MLP norm") for n in terms)
    assert terms["MLP: up output and the activation's intermediates"] == 4 * 2 * t * f
    assert terms["residual dropout masks (attention and MLP outputs)"] == 2 * t * h


def test_gpt2_layout_reads_its_own_keys_and_keeps_its_dropout_masks():
    # openai-community/gpt2: 124,439,808 parameters as transformers builds them (learned positions 1024 x 768,
    # tied embeddings); embd_pdrop and resid_pdrop 0.1 keep one-byte masks (CUDA's dropout kernel).
    m = model_presets()["gpt2"].spec
    assert m.total_params == 124_439_808 and m.position_embedding_params == 1024 * 768 and m.tied_embeddings
    s = scenario_from_dict({"model": "gpt2", "precision": "bf16", "attention": "sdpa", "micro_batch": 1, "seq_len": 1024})
    mask = next(c for c in estimate(s).components if c.key == "embedding_dropout")
    assert mask.moments.forward == 1024 * 768
    with pytest.raises(ModelConfigError, match="n_head"):
        model_from_hf_config({**model_presets()["gpt2"].hf_config, "n_head": 7})


def test_starcoder2_layout_counts_what_transformers_builds():
    # transformers 5.24 Starcoder2Config's defaults are StarCoder2-3B's shapes; Starcoder2ForCausalLM built from them
    # on the meta device has 3,030,371,328 parameters (bigcode/starcoder2-3b is listed at 3.03B).
    cfg = {"model_type": "starcoder2", "hidden_size": 3072, "intermediate_size": 12288, "num_hidden_layers": 30,
           "num_attention_heads": 24, "num_key_value_heads": 2, "hidden_act": "gelu_pytorch_tanh",
           "vocab_size": 49152, "use_bias": True, "residual_dropout": 0.1, "embedding_dropout": 0.1}
    m = model_from_hf_config(cfg, "StarCoder2 3B shapes")
    assert m.total_params == 3_030_371_328
    assert not m.mlp_gated and m.act_tensors == 1 and m.tied_embeddings and m.embedding_dropout == 0.1
