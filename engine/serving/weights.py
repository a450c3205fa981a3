"""Weights in the deployed format, tensor by tensor, and the share one GPU holds.

Every decoder layer's weight matrices (engine/models ModelSpec.layer_linears, the experts) take the format's bits;
the router, norms and biases stay at higher precision (the model's 16-bit dtype in vLLM/SGLang, F32 in GGUF: only 2-D
tensors ending in "weight" are quantized, and never norms or ffn_gate_inp, src/llama-quant.cpp). Embeddings and
lm_head stay 16-bit in the dense quantized formats (vLLM's UnquantizedEmbeddingMethod); GGUF quantizes token_embd to
the ftype's default type and output.weight to Q6_K (Q8_0 for Q8_0 and MXFP4_MOE), and a tied model's token_embd
takes the output's type.

Sharding (vLLM/SGLang): tensor parallelism splits every matrix and the vocabulary (padded to a multiple of 64 per
VocabParallelEmbedding, vllm/model_executor/layers/vocab_parallel_embedding.py), replicates norms, the router and an
MLA layer's down-projections to the latents, q_a_proj and kv_a_proj_with_mqa (SGLang 0.5.7 python/sglang/srt/models/
deepseek_v2.py 1328-1360: ReplicatedLinear fused_qkv_a_proj_with_mqa, kv_a_proj_with_mqa without q_lora_rank; vLLM
vllm/model_executor/models/deepseek_v2.py DeepseekV2MLAAttention: MergedColumnParallelLinear fused_qkv_a_proj with
disable_tp=True, ReplicatedLinear kv_a_proj_with_mqa): every rank holds and reads them whole;
experts are split over max(tp, ep) GPUs; pipeline stages take cdiv(layers, pp) layers, the first the embeddings and
the last the lm_head.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.layer_shapes import MLA_DOWN_PROJECTIONS, Linear
from ..models.weight_formats import (
    CHECKPOINT,
    WeightFormat,
    attn_v_type_70b,
    ggml_bits,
    rule_applies,
    weight_format,
)

GGUF_NAMES = {"q_proj": "attn_q", "k_proj": "attn_k", "v_proj": "attn_v", "o_proj": "attn_output",
              "qkv_proj": "attn_qkv", "gate_proj": "ffn_gate", "up_proj": "ffn_up", "down_proj": "ffn_down",
              "gate_up_proj": "ffn_up", "gate": "ffn_gate_inp", "q_a_proj": "attn_q_a", "q_b_proj": "attn_q_b",
              "kv_a_proj_with_mqa": "attn_kv_a_mqa", "kv_b_proj": "attn_kv_b", "in_proj_qkvz": "ssm_in",
              "in_proj_ba": "ssm_ba", "out_proj": "ssm_out",
              # Qwen3.5's split projections: llama.cpp src/models/qwen35.cpp build_layer_attn_linear (attn_qkv,
              # attn_gate, ssm_beta, ssm_alpha, ssm_out), as docs.rs frink-models 0.49.0 src/gdn.rs quotes it
              "in_proj_qkv": "attn_qkv", "in_proj_z": "attn_gate", "in_proj_b": "ssm_beta", "in_proj_a": "ssm_alpha"}
VOCAB_PADDING = 64


def checkpoint_format(spec: ModelSpec) -> str:
    """The checkpoint's own format: its quantization_config's method where we model it, else bf16."""
    quant = spec.released_quant
    if quant.startswith("mxfp4"):
        return "mxfp4"
    if quant in ("fp8", "awq", "gptq"):
        return {"awq": "awq-int4", "gptq": "gptq-int4"}.get(quant, quant)
    return "bf16"


def resolve_format(spec: ModelSpec, name: str) -> WeightFormat:
    return weight_format(checkpoint_format(spec) if name == CHECKPOINT else name)


def _dense_bits(f: WeightFormat, lin: Linear, expert: bool) -> float:
    if lin.group == "router" or (f.only == "experts" and not expert):
        return 16.0
    bits = f.bits + (f.group_bits / f.group if f.group else 0.0)
    return bits + f.column_bits / max(1, lin.d_in) + f.row_bits / max(1, lin.d_out)


def _gguf_type(f: WeightFormat, name: str, i_layer: int, n_layers: int, gqa: int, expert: bool) -> str:
    if name == "ffn_gate_inp":
        return "F32"
    if f.non_expert:
        return f.gguf if expert else f.non_expert
    chosen = f.gguf
    for rule in f.rules:
        if rule.tensor in name and rule_applies(rule.layers, i_layer, n_layers, gqa):
            chosen = rule.ggml_type
            break
    return chosen


def _linear_bits(f: WeightFormat, spec: ModelSpec, lin: Linear, i_layer: int, expert: bool) -> float:
    if not f.is_gguf:
        return _dense_bits(f, lin, expert)
    name = GGUF_NAMES.get(lin.name, lin.name) + ("_shexp" if lin.group == "shared" else "")
    gqa = spec.heads // max(1, spec.kv_heads)
    chosen = _gguf_type(f, name, i_layer, spec.layers, gqa, expert)
    if name in ("attn_v", "attn_qkv") and not f.non_expert:  # llama.cpp's attn_v branch (MXFP4_MOE has its own)
        chosen = attn_v_type_70b(chosen, spec.model_type, spec.layers, spec.heads, spec.kv_heads)
    return ggml_bits(chosen)


@dataclass(frozen=True, slots=True)
class LayerWeights:
    """Bytes of one decoder layer (the whole layer, before any sharding)."""

    matrices: float  # attention and dense MLP / shared-expert matrices (split by tp)
    experts: float  # routed experts (split by max(tp, ep))
    replicated: float  # router, norms, biases, convolutions, MLA q_a / kv_a (on every rank)


# an MLA layer's projections to the shared latents, whole on every tensor-parallel rank (module docstring): the list
# declared once in engine/models/layer_shapes.py, which training reads too
MLA_REPLICATED_LINEARS = MLA_DOWN_PROJECTIONS


def _layer(spec: ModelSpec, f: WeightFormat, i: int, moe: bool, linear_attn: bool, block: str) -> LayerWeights:
    matrices = replicated = 0.0
    small_bits = 32.0 if f.is_gguf else 16.0
    for lin in spec.layer_linears(moe, linear_attn, block):
        weight = lin.d_in * lin.d_out * _linear_bits(f, spec, lin, i, False) / 8
        bias = (lin.d_out if lin.bias else 0) * small_bits / 8
        if lin.group == "router" or lin.name in MLA_REPLICATED_LINEARS:
            replicated += weight + bias
        else:
            matrices += weight + bias
    experts = 0.0
    if moe:
        h, e = spec.hidden, spec.expert_ffn
        up = Linear("up_proj", h, e, "mlp")
        down = Linear("down_proj", e, h, "mlp")
        fc1 = spec.fc1_factor  # gate and up; a plain expert (Nemotron-H): up only
        one = fc1 * h * e * _linear_bits(f, spec, up, i, True) / 8 + h * e * _linear_bits(f, spec, down, i, True) / 8
        experts = spec.n_experts * (one + ((2 * e + h) * small_bits / 8 if spec.expert_bias else 0.0))
    replicated += spec.small_params(moe, linear_attn, block) * small_bits / 8
    return LayerWeights(matrices, experts, replicated)


@lru_cache(maxsize=256)
def layer_weights(spec: ModelSpec, format_name: str) -> tuple[LayerWeights, ...]:
    """Every decoder layer's bytes in `format_name` (cached per model and format: the estimate is hot)."""
    f = resolve_format(spec, format_name)
    return tuple(_layer(spec, f, i, moe, linear_attn, block)
                 for i, (moe, linear_attn, block) in enumerate(spec.layer_keys))


def replicated_layer_bytes(spec: ModelSpec, format_name: str) -> float:
    """Bytes of the decoder layers' tensors that every tensor-parallel rank holds whole (LayerWeights.replicated:
    routers, norms, biases, an MLA layer's q_a_proj and kv_a_proj_with_mqa), summed over the layers. A rollout
    engine's copy (engine/posttraining/models.py engine_weight_bytes) holds them whole too, as serving's shard does."""
    return sum(w.replicated for w in layer_weights(spec, format_name))


def embedding_bits(spec: ModelSpec, format_name: str) -> tuple[float, float]:
    """(token embedding, lm_head) bits per value: 16-bit in dense formats, unless the format quantizes them too
    (MLX's affine formats: mlx-lm quantizes every nn.Embedding and nn.Linear, presets/weight_formats.json
    mlx_affine); GGUF as llama_tensor_get_type says."""
    f = resolve_format(spec, format_name)
    if f.embeddings == "quantized":  # MLX's nn.quantize takes Embedding layers too (presets/weight_formats.json)
        bits = f.bits + f.group_bits / f.group
        return bits, bits
    if not f.is_gguf:
        quantized = f.bits + (f.group_bits / f.group if f.group else 0.0)
        return (quantized, quantized) if f.embeddings == "quantized" else (16.0, 16.0)
    output = ggml_bits(f.output)
    embed = output if spec.tied_embeddings else ggml_bits(f.non_expert or f.gguf)
    return embed, output


@dataclass(frozen=True, slots=True)
class WeightShard:
    """The weights one GPU of the busiest pipeline stage holds, by tensor family (bytes)."""

    embeddings: float
    layers: float
    experts: float
    replicated: float
    lm_head: float
    vision: float

    @property
    def total(self) -> float:
        return self.embeddings + self.layers + self.experts + self.replicated + self.lm_head + self.vision


def round_up(n: float, multiple: int) -> float:
    return -(-n // multiple) * multiple


def mxfp4_expert_bytes(spec: ModelSpec, tp: int, ep: int, padding: tuple[int, int]) -> float:
    """One MoE layer's routed experts on one GPU as vLLM's Mxfp4MoEMethod.create_weights allocates them: w13
    (2 x I, H / 2 bytes + H / 32 scales) and w2 (H, I / 2 + I / 32), bf16 biases of 2 x I and H, with the
    intermediate size per partition I rounded up to padding[1] and the hidden size H to padding[0]."""
    hidden_multiple, inter_multiple = padding
    per_rank = spec.n_experts / ep if ep > 1 else spec.n_experts
    part = spec.expert_ffn / (tp if ep <= 1 else 1)
    h, i = round_up(spec.hidden, hidden_multiple), round_up(part, inter_multiple)
    bias = (2 * i + h) * 2 if spec.expert_bias else 0.0
    return per_rank * (3 * i * h * 17 / 32 + bias)


def stage_shards(spec: ModelSpec, format_name: str, tp: int = 1, pp: int = 1, ep: int = 1,
                 mxfp4_padding: tuple[int, int] | None = None) -> tuple[WeightShard, ...]:
    """Weights on one GPU of each pipeline stage under tensor, pipeline and expert parallelism (vLLM/SGLang), first
    stage first. `mxfp4_padding` (hidden, intermediate multiples): the MXFP4 expert layout of vLLM's kernel backend."""
    layers = layer_weights(spec, format_name)
    per_stage = -(-len(layers) // max(1, pp))
    stages = [layers[s * per_stage:(s + 1) * per_stage] for s in range(max(1, pp))]
    embed_bits, head_bits = embedding_bits(spec, format_name)
    norm_bytes = 4 if resolve_format(spec, format_name).is_gguf else 2
    vocab = -(-spec.vocab // VOCAB_PADDING) * VOCAB_PADDING
    embed = vocab * spec.hidden * embed_bits / 8 / tp + spec.position_embedding_params * 2
    head = 0.0 if spec.tied_embeddings and pp == 1 else vocab * spec.hidden * head_bits / 8 / tp
    padded = mxfp4_padding is not None and resolve_format(spec, format_name).name == "mxfp4"
    moe_layer = mxfp4_expert_bytes(spec, tp, ep, mxfp4_padding) if padded and mxfp4_padding else 0.0
    out: list[WeightShard] = []
    for index, stage in enumerate(stages):
        experts = (sum(moe_layer for w in stage if w.experts) if padded
                   else sum(w.experts for w in stage) / max(tp, ep))
        out.append(WeightShard(
            embeddings=embed if index == 0 else 0.0,
            layers=sum(w.matrices for w in stage) / tp,
            experts=experts,
            replicated=sum(w.replicated for w in stage) + (spec.norm_params * norm_bytes if index == len(stages) - 1 else 0),
            lm_head=head if index == len(stages) - 1 else 0.0,
            vision=spec.vision_params * 2 / tp if index == 0 else 0.0))
    return tuple(out)


def shard(spec: ModelSpec, format_name: str, tp: int = 1, pp: int = 1, ep: int = 1,
          mxfp4_padding: tuple[int, int] | None = None) -> WeightShard:
    """Weights on one GPU of the busiest stage (stage_shards' largest, the first of equals)."""
    return max(stage_shards(spec, format_name, tp, pp, ep, mxfp4_padding), key=lambda w: w.total)


def touched_expert_read_fraction(spec: ModelSpec, tokens: int, expert_share: float | None = None,
                                 expert_read_share: float = 1.0) -> float:
    """The share of the weights one GPU holds that a forward over `tokens` tokens reads: a dense model's all; a MoE's
    all but the routed experts no token picks (each token picks top_k of n_experts, so n x (1 - (1 - k/n)^tokens) are
    touched, routing taken as independent). `expert_share`: the experts' share of the held bytes (expert_byte_share,
    where the experts are stored in another format than the rest: gpt-oss' MXFP4 experts beside 16-bit attention);
    by parameters without it (one format throughout). Apply it to the bytes held, before taking off the unread ones
    (decode_unread_bytes). The one rule for the serving step (speed.py), the rollout's decode
    (engine/posttraining/timing.py) and the GGUF decode diagnostic. `expert_read_share`: the share of the achieved
    bandwidth the engine's expert kernel reads them at (fused_moe_rate.expert_read_share): their bytes count
    1 / share times, so the step's one memory roofline carries their slower read."""
    if not spec.is_moe:
        return 1.0
    touched = 1.0 - (1.0 - spec.top_k / spec.n_experts) ** max(1, tokens)
    if expert_share is None:
        expert_share = spec.moe_layers * spec.expert_params_per_layer() / max(1, spec.total_params)
    return 1 - expert_share * (1 - touched / expert_read_share)


@lru_cache(maxsize=512)
def expert_byte_share(spec: ModelSpec, format_name: str, tp: int = 1, pp: int = 1, ep: int = 1,
                      embeddings_held: bool = True) -> float:
    """The routed experts' share of the bytes on one GPU of the busiest stage (`shard`), in `format_name`'s bits for
    each tensor: gpt-oss-120b in MXFP4 holds 93.5% of its bytes in experts against 98.2% of its parameters.
    `embeddings_held` False: the token-embedding table is not among the GPU's bytes (llama.cpp keeps token_embd in
    CPU memory, engine/serving/llama_cpp.py), so the share is of the rest."""
    busiest = shard(spec, format_name, tp, pp, ep)
    held = busiest.total - (0.0 if embeddings_held else busiest.embeddings)
    return busiest.experts / held if held > 0 else 0.0


def _unread_bytes(spec: ModelSpec, w: WeightShard, pp: int) -> float:
    return (0.0 if spec.tied_embeddings and pp == 1 else w.embeddings) + w.vision


@lru_cache(maxsize=512)
def decode_unread_bytes(spec: ModelSpec, format_name: str, tp: int = 1, pp: int = 1, ep: int = 1) -> float:
    """Bytes of one GPU's weights (the busiest stage's, as `shard` gives them) less what a forward over a few tokens
    reads on the stage that reads the most. Unread: the token-embedding table, of which it looks up one row per
    token (vLLM's VocabParallelEmbedding indexes its shard: tokens x hidden bytes, negligible), unless the table is
    also the LM head that projects every token onto the vocabulary (tied embeddings on one stage; under a pipeline
    the last stage holds the head as a copy of its own); and a vision encoder, which runs on images only. Under a
    pipeline the first stage holds the most but reads the least of them, so the stage whose reads bound the step
    can be another one (the last, with the LM head)."""
    stages = stage_shards(spec, format_name, tp, pp, ep)
    busiest = max(stages, key=lambda w: w.total)
    if len(stages) == 1:
        return _unread_bytes(spec, busiest, pp)
    return busiest.total - max(w.total - _unread_bytes(spec, w, pp) for w in stages)
