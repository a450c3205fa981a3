"""The configurations measured for tests/data/ground_truth (ids are stable file names)."""

from __future__ import annotations

from typing import Any

from validation.configs import MODELS, model_config, vision_model_config
from validation.measure import Run

_LORA_TAG = {"attention": "attn", "all-linear": "all"}


def make_run(model_key: str, precision: str = "bf16", attention: str = "sdpa", method: str = "full",
             checkpointing: str = "none", optimizer: str = "adamw", b: int = 1, s: int = 2048,
             layers: int | None = None, lora_rank: int = 8,
             lora_targets: list[str] | str = ("q_proj", "v_proj"), note: str = "", grad_accum: int = 1,
             freeze_from: str = "bottom") -> Run:
    """Build a Run and its id: <model>[-L<n>]_<precision>_<attn>_<method>[_ckpt][_fused]_b<b>_s<s>."""
    name, cfg = model_config(model_key, layers)
    targets: Any = list(lora_targets) if not isinstance(lora_targets, str) else lora_targets
    mk = model_key if layers is None or layers == MODELS[model_key][1]["num_hidden_layers"] \
        else f"{model_key}-L{layers}"
    meth = "freeze-top" if method == "freeze" and freeze_from == "top" else method
    if method == "lora":
        tag = _LORA_TAG.get(targets, "") if isinstance(targets, str) else \
            "".join(t[0] for t in targets)
        meth = f"lora-r{lora_rank}-{tag}"
    rid = f"{mk}_{precision}_{attention}_{meth}"
    rid += "_ckpt" if checkpointing == "full" else ""
    rid += "_fused" if optimizer == "adamw-fused" else f"_{optimizer}" if optimizer != "adamw" else ""
    rid += f"_b{b}_s{s}" + (f"_ga{grad_accum}" if grad_accum > 1 else "")
    return Run(id=rid, model_key=model_key, model_name=name, hf_config=cfg, precision=precision,
               attention=attention, checkpointing=checkpointing, method=method, optimizer=optimizer,
               micro_batch=b, seq_len=s, lora_rank=lora_rank, lora_targets=targets, note=note,
               grad_accum=grad_accum, freeze_from=freeze_from)


ALL_LINEAR = "all-linear"
ATTN = "attention"


def reference_runs() -> list[Run]:
    """Llama-2-7B runs behind the reference figures (and 4-layer twins for per-layer activations)."""
    m = "llama-2-7b"
    runs = [
        make_run(m, "fp32"),
        make_run(m, "bf16"),
        make_run(m, "amp-bf16", optimizer="adamw-fused"),
        make_run(m, "amp-bf16"),
        make_run(m, "amp-bf16", attention="eager"),
        make_run(m, "bf16", checkpointing="full"),
    ]
    for kw in ({"precision": "bf16"}, {"precision": "amp-bf16"},
               {"precision": "amp-bf16", "attention": "eager"},
               {"precision": "bf16", "checkpointing": "full"}):
        runs.append(make_run(m, layers=4, note="reduced depth, for per-layer activations", **kw))
    return runs


def sweep_runs() -> list[Run]:
    """Everything else: precisions, attention, checkpointing, methods, architectures, shapes."""
    m = "llama-2-7b"
    runs = [
        make_run(m, "bf16", attention="eager"),
        make_run(m, "fp32", attention="eager"),
        make_run(m, "fp32", optimizer="adamw-fused"),
        make_run(m, "bf16", optimizer="adamw-fused"),
        make_run(m, "amp-bf16", checkpointing="full"),
        make_run(m, "fp32", checkpointing="full"),
        # freeze bottom half of decoder layers + embeddings
        make_run(m, "bf16", method="freeze"),
        make_run(m, "amp-bf16", method="freeze"),
        # LoRA
        make_run(m, "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj")),
        make_run(m, "bf16", method="lora", lora_rank=16, lora_targets=ATTN),
        make_run(m, "bf16", method="lora", lora_rank=64, lora_targets=ALL_LINEAR),
        make_run(m, "amp-bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
        make_run(m, "fp32", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj")),
        make_run(m, "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj"),
                 checkpointing="full"),
    ]
    # batch x sequence sweep (b=1, s=2048 is a reference run)
    for b, s in ((1, 512), (2, 512), (4, 512), (2, 2048), (4, 2048), (1, 4096)):
        runs.append(make_run(m, "bf16", b=b, s=s))
    for b, s in ((1, 512), (4, 2048)):
        runs.append(make_run(m, "amp-bf16", b=b, s=s))
    runs += [
        # GQA, large vocab
        make_run("llama-3-8b", "bf16"),
        make_run("llama-3-8b", "amp-bf16"),
        make_run("llama-3-8b", "bf16", checkpointing="full"),
        make_run("llama-3-8b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
        # qkv bias
        make_run("qwen2.5-7b", "bf16"),
        make_run("qwen2.5-7b", "amp-bf16", attention="eager"),
        make_run("qwen2.5-7b", "bf16", method="freeze"),
        # qk-norm
        make_run("qwen3-8b", "bf16"),
        make_run("qwen3-8b", "amp-bf16"),
        make_run("qwen3-8b", "fp32"),
        # tied embeddings
        make_run("qwen2.5-0.5b", "bf16"),
        make_run("qwen2.5-0.5b", "fp32"),
        make_run("qwen2.5-0.5b", "amp-bf16", attention="eager"),
        make_run("qwen2.5-0.5b", "bf16", method="freeze"),
        make_run("qwen2.5-0.5b", "bf16", method="lora", lora_rank=16, lora_targets=ATTN),
        make_run("llama-3.2-1b", "bf16"),
        make_run("llama-3.2-1b", "amp-bf16"),
        # Mistral (GQA, sliding window 4096 > s)
        make_run("mistral-7b", "bf16"),
        make_run("mistral-7b", "amp-bf16", checkpointing="full"),
        # MoE (bf16 only: the fake kernel of torch._grouped_mm accepts bf16 only)
        make_run("mixtral-8x7b", "bf16"),
        make_run("mixtral-8x7b", "bf16", checkpointing="full"),
        make_run("mixtral-8x7b", "bf16", method="lora", lora_rank=8, lora_targets=("q_proj", "v_proj")),
        make_run("mixtral-8x7b", "bf16", layers=4, note="reduced depth"),
        make_run("qwen3-30b-a3b", "bf16"),
        make_run("qwen3-30b-a3b", "bf16", checkpointing="full"),
        make_run("qwen3-30b-a3b", "bf16", method="lora", lora_rank=16, lora_targets=ATTN),
        make_run("qwen3-30b-a3b", "bf16", layers=4, note="reduced depth"),
        # Gemma-2 (tied, GeGLU, four norms per layer, head_dim 256, soft-capping), Phi-3 (fused projections),
        # OLMoE (MoE with full-width q/k norms)
        # (transformers runs Gemma-2 only with eager attention: SDPA has no logit soft-capping)
        make_run("gemma-2-2b", "bf16", attention="eager"),
        make_run("gemma-2-2b", "amp-bf16", attention="eager"),
        make_run("gemma-2-9b", "bf16", attention="eager", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
        make_run("phi-3-mini", "bf16"),
        make_run("phi-3-mini", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
        make_run("olmoe-1b-7b", "bf16"),
        make_run("olmoe-1b-7b", "bf16", method="lora", lora_rank=8, lora_targets=ATTN),
        # gradient accumulation: gradients of earlier micro-steps stay alive through later forwards
        make_run(m, "bf16", b=2, grad_accum=2),
        make_run(m, "amp-bf16", optimizer="adamw-fused", grad_accum=4),
        make_run(m, "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR, grad_accum=2),
        make_run("qwen2.5-0.5b", "bf16", grad_accum=3),
        # other optimizers (PyTorch's own, foreach)
        make_run(m, "bf16", optimizer="sgd"),
        make_run(m, "bf16", optimizer="sgd-momentum"),
        # (Adafactor cannot be traced: its step reads tensor values with .item(), which fake tensors do not have)
        # freezing the top half: backward still crosses it, only weight-gradient inputs are dropped
        make_run(m, "bf16", method="freeze", freeze_from="top"),
        make_run(m, "amp-bf16", method="freeze", freeze_from="top"),
        make_run("llama-3-8b", "bf16", method="freeze", freeze_from="top", checkpointing="full"),
        # eager attention under autocast with large score tensors (issue 10's single-GPU miss): the attention
        # backward's fp32 gradients meet the kept fp32 softmax output after the MLP's tensors are freed
        make_run("tinyllama-1.1b", "amp-bf16", attention="eager", checkpointing="full", b=16, s=1024),
        make_run("llama-3.2-1b", "amp-bf16", attention="eager", s=8192),
    ]
    return runs + issue12_runs()


def issue12_runs() -> list[Run]:
    """2025-2026 families (issue 12); reduced depth keeps every per-layer shape and the layer-type pattern."""
    return [
        make_run("gemma-3-1b", "bf16"),  # 5 sliding (512) : 1 full, qk-norm, 262K vocabulary
        make_run("gemma-3-1b", "amp-bf16"),
        make_run("olmo-2-7b", "bf16", layers=4, note="reduced depth"),  # post-norms, full-width q/k norms
        make_run("olmo-2-7b", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                 note="reduced depth"),
        make_run("smollm3-3b", "bf16", layers=8, note="reduced depth"),  # NoPE every 4th layer
        make_run("deepseek-v2-lite", "bf16", layers=4, note="reduced depth"),  # MLA, dense first layer, shared experts
        make_run("deepseek-v2-lite", "bf16", layers=4, checkpointing="full", note="reduced depth"),
        make_run("gpt-oss-20b", "bf16", attention="eager", layers=4, note="reduced depth"),  # sinks, alternating window
        make_run("qwen3-next-80b-a3b", "bf16", layers=4, note="reduced depth"),  # 3 gated DeltaNet : 1 attention
        make_run("llama-4-scout", "bf16", layers=4, note="reduced depth"),  # chunked attention, MoE + shared expert
        make_run("glm-4.5-air", "bf16", layers=4, note="reduced depth"),  # dense first layer, 128 experts + shared
        make_run("phi-4", "bf16", layers=4, note="reduced depth"),
        # adapters on a frozen base: the activations decide the peak
        make_run("gemma-3-1b", "bf16", method="lora", lora_rank=16, lora_targets=ALL_LINEAR),
        make_run("smollm3-3b", "bf16", layers=8, checkpointing="full", note="reduced depth"),
        # (peft's "all-linear" also adapts the fused expert weights of transformers 5 MoE models: not modelled,
        # so the MoE runs name their attention projections)
        make_run("deepseek-v2-lite", "bf16", layers=4, method="lora", lora_rank=16,
                 lora_targets=("q_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"), note="reduced depth"),
        make_run("gpt-oss-20b", "bf16", attention="eager", layers=4, method="lora", lora_rank=16, lora_targets=ATTN,
                 note="reduced depth"),
        make_run("qwen3-next-80b-a3b", "bf16", layers=4, method="lora", lora_rank=16,
                 lora_targets=("q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkvz", "in_proj_ba", "out_proj"),
                 note="reduced depth"),
        make_run("llama-4-scout", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ATTN, note="reduced depth"),
        make_run("glm-4.5-air", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ATTN, note="reduced depth"),
        # a plain GELU MLP, LayerNorms, parallel attention and MLP, partial rotary (GPT-NeoX / Pythia)
        make_run("pythia-160m", "bf16", layers=4, note="reduced depth"),
        make_run("pythia-160m", "amp-bf16", layers=4, note="reduced depth"),
        make_run("pythia-160m", "bf16", layers=4, checkpointing="full", note="reduced depth"),
        make_run("pythia-160m", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                 note="reduced depth"),
        # one LayerNorm for both blocks, NewGELU in Python, residual dropout (PyTorch's CPU dropout keeps its mask in
        # the input's dtype, the CUDA kernel as bool: these CPU traces hold 2 bytes more per token and hidden unit
        # per layer than a GPU run)
        make_run("phi-2", "bf16", layers=4, note="reduced depth; CPU dropout masks in bf16"),
        make_run("phi-2", "amp-bf16", layers=4, note="reduced depth; CPU dropout masks in bf16"),
        make_run("phi-2", "bf16", layers=4, checkpointing="full", note="reduced depth; CPU dropout masks in bf16"),
        make_run("phi-2", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                 note="reduced depth; CPU dropout masks in bf16"),
        # Conv1D layers, learned positions, embedding and block-output dropout (see configs.py for attn_pdrop)
        make_run("gpt2-attn-dropout-off", "bf16", layers=4, s=1024, note="reduced depth; CPU dropout masks in bf16"),
        make_run("gpt2-attn-dropout-off", "amp-bf16", layers=4, s=1024,
                 note="reduced depth; CPU dropout masks in bf16"),
        make_run("gpt2-attn-dropout-off", "bf16", layers=4, s=1024, checkpointing="full",
                 note="reduced depth; CPU dropout masks in bf16"),
        make_run("gpt2-attn-dropout-off", "bf16", layers=4, s=1024, method="lora", lora_rank=16,
                 lora_targets=ALL_LINEAR, note="reduced depth; CPU dropout masks in bf16"),
        make_run("starcoder2-3b-shapes", "bf16", layers=4, note="reduced depth; CPU dropout masks in bf16"),
        make_run("starcoder2-3b-shapes", "amp-bf16", layers=4, note="reduced depth; CPU dropout masks in bf16"),
        make_run("starcoder2-3b-shapes", "bf16", layers=4, method="lora", lora_rank=16, lora_targets=ALL_LINEAR,
                 note="reduced depth; CPU dropout masks in bf16"),
    ]


def vision_run(model_key: str, text_layers: int, vision_layers: int, images: int, resolution: int = 0,
               tower: str = "frozen", method: str = "full", checkpointing: str = "none", s: int = 2048,
               lora_targets: list[str] | str = ATTN, optimizer: str = "adamw") -> Run:
    """A vision-language step: <model>-L<n>-V<m>_bf16_sdpa_<method>[_ckpt]_b1_s<s>_img<k>x<px>-<tower>."""
    name, cfg = vision_model_config(model_key, text_layers, vision_layers)
    base = make_run("llama-2-7b", "bf16", method=method, checkpointing=checkpointing, s=s, lora_rank=16,
                    lora_targets=lora_targets, optimizer=optimizer)
    rid = base.id.replace("llama-2-7b", f"{model_key}-L{text_layers}-V{vision_layers}")
    rid += f"_img{images}x{resolution or 'native'}-{tower}"
    return Run(id=rid, model_key=model_key, model_name=name, hf_config=cfg, precision="bf16", attention="sdpa",
               checkpointing=checkpointing, method=method, optimizer=optimizer, seq_len=s, lora_rank=16,
               lora_targets=base.lora_targets,
               note="reduced depth of the language model and the tower", images_per_sample=images,
               image_resolution=resolution, vision_tower=tower)


def vision_runs() -> list[Run]:
    """Vision towers and image tokens (issue 12): Gemma 3 (SigLIP, pooled to 256 tokens) and Qwen2.5-VL (window
    attention ViT, 2 x 2 patch merger); frozen and trained towers."""
    return [
        vision_run("gemma-3-4b", 6, 3, images=1),
        vision_run("gemma-3-4b", 6, 3, images=1, tower="trained"),
        vision_run("gemma-3-4b", 6, 3, images=2, tower="trained", checkpointing="full"),
        vision_run("qwen2.5-vl-7b", 4, 8, images=1, resolution=448),
        vision_run("qwen2.5-vl-7b", 4, 8, images=1, resolution=896, tower="trained"),
        vision_run("qwen2.5-vl-7b", 4, 8, images=2, resolution=672, tower="trained", checkpointing="full"),
        vision_run("qwen2.5-vl-7b", 4, 8, images=1, resolution=896, method="lora"),
        # SGD keeps no optimizer states: the peak is in the step's activations, where the tower's count
        vision_run("gemma-3-4b", 6, 3, images=4, tower="trained", optimizer="sgd"),
        vision_run("qwen2.5-vl-7b", 4, 8, images=2, resolution=896, tower="trained", s=4096, optimizer="sgd"),
        vision_run("llama-4-scout", 4, 2, images=1),
        vision_run("llama-4-scout", 4, 2, images=4, tower="trained"),
        vision_run("mistral-small-3.1-24b", 4, 4, images=1, resolution=896),
        vision_run("mistral-small-3.1-24b", 4, 4, images=1, resolution=896, tower="trained"),
        # two images: Pixtral attends over every patch of the batch with one block-diagonal mask (patches squared)
        vision_run("mistral-small-3.1-24b", 4, 4, images=2, resolution=672, tower="trained", optimizer="sgd"),
    ]


def mla_runs() -> list[Run]:
    """Issue 24 item 8: MLA without query compression (DeepSeek-V2-Lite: q_lora_rank null, 64 routed experts top-6,
    greedy routing) where the activations, not the weights, decide the peak: fused AdamW (no optimizer temporary),
    longer sequences and a larger micro-batch."""
    dsv2 = "deepseek-v2-lite"
    return [
        make_run(dsv2, "bf16", layers=4, optimizer="adamw-fused", s=8192, note="reduced depth"),
        make_run(dsv2, "bf16", layers=4, optimizer="adamw-fused", b=4, s=4096, note="reduced depth"),
        make_run(dsv2, "bf16", layers=4, optimizer="sgd", b=2, s=4096, note="reduced depth"),
        make_run(dsv2, "bf16", layers=8, optimizer="adamw-fused", b=2, s=4096, note="reduced depth"),
        make_run(dsv2, "bf16", layers=4, optimizer="adamw-fused", checkpointing="full", b=2, s=4096,
                 note="reduced depth"),
        make_run(dsv2, "bf16", layers=4, method="lora", lora_rank=16, b=2, s=4096,
                 lora_targets=("q_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"), note="reduced depth"),
        make_run(dsv2, "bf16", layers=4, method="freeze", b=2, s=4096, note="reduced depth"),
    ]


def all_runs() -> list[Run]:
    """Reference runs first, then the sweep; ids are unique."""
    runs = reference_runs() + sweep_runs() + vision_runs() + mla_runs()
    ids = [r.id for r in runs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate ids: {sorted(dup)}")
    return runs
