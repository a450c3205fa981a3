"""Megatron-Core's rotary-embedding switch where its code runs (h-megakeys): the eager RoPE's saved cos and sin in the
memory estimate, the key gated to the frameworks whose code reads it, partial rotary counted at rot_dim, Megatron-LM
scripts without --cross-entropy-loss-fusion imported as the unfused loss, and that loss's log-probs in post-training.
Sources: NVIDIA/Megatron-LM ba773259 megatron/core/models/common/embeddings/rotary_pos_embedding.py (RotaryEmbedding
lines 68-70 and 110-114, apply_rotary_pos_emb_bshd lines 173-196) and the commit history (1e0e555c43 2023-03-31 RoPE,
a01b42ccac 2023-11-19 apply_rope_fusion, 7b4a6d76c9 2024-06-14 --cross-entropy-loss-fusion, default False still at
d98e8a64 megatron/core/model_parallel_config.py line 320)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.configs import import_texts
from engine.models.presets import model_spec_for
from engine.posttraining.settings import rl_settings
from engine.scenario import KEY_SPECS, KEYS_WITHOUT_MEMORY_EFFECT, resolve_model
from engine.scenario.megatron_rope import eager_rope_dim
from engine.timing.rope_fusion import rope_fusion_applies, unfused_rope_bytes

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "flagperf-qwen1.5-moe.json"


def _flagperf(**changes):
    row = json.loads(ROWS.read_text(encoding="utf-8"))["rows"][0]
    return scenario_from_dict({**row["scenario"], **changes})


def _per_layer_bytes(s) -> float:
    stage = estimate(s).stages[0]
    component = next(c for c in stage.components if c.key == "activations")
    return dict(component.inputs)["per_layer_bytes"]


def test_eager_rope_keeps_cos_and_sin_of_each_q_and_k_call_per_layer():
    # cos_ and sin_ = torch.cos/sin(freqs).to(t.dtype), [s, 1, 1, rot_dim], built in each of the two calls and kept
    # by t * cos_ and rotate_half(t) * sin_: 4 x 8,192 positions x 128 x 2 bytes = 8 MiB a layer on FlagPerf's rows
    # (Qwen1.5-MoE-A2.7B, head dim 128, bf16), whatever the micro-batch (freqs has no batch dimension)
    eager, fused = _flagperf(), _flagperf(apply_rope_fusion=True)
    assert resolve_model(eager).head_dim == 128 and eager.seq_len == 8192
    assert _per_layer_bytes(eager) - _per_layer_bytes(fused) == 4 * 8192 * 128 * 2
    # context parallelism hands each rank its s / cp positions (get_pos_emb_on_this_cp_rank, lines 110-114)
    assert _per_layer_bytes(replace(eager, cp=2)) - _per_layer_bytes(replace(fused, cp=2)) == 4 * 4096 * 128 * 2
    assert estimate(eager).peak_reserved_bytes > estimate(fused).peak_reserved_bytes
    # the key now moves memory, so the memory caches read it
    assert "apply_rope_fusion" not in KEYS_WITHOUT_MEMORY_EFFECT


def test_only_megatron_cores_rotary_code_reads_the_switch():
    s = _flagperf()
    assert rope_fusion_applies(s)
    # verl's and NeMo-RL's Megatron workers run Megatron-Core's model code
    assert rope_fusion_applies(replace(s, framework="verl-megatron"))
    # Megatron-LM had no RoPE before 1e0e555c43 (2023-03-31): not at de7dc40f88 (SC21), bbab79f86907 (2022) or
    # 285068c8 (2023-01); the Zero Bubble fork builds the legacy GPTModel, which never reads apply_rope_fusion
    for framework in ("megatron-2021", "megatron-2022", "megatron-zb"):
        t = replace(s, framework=framework)
        assert not rope_fusion_applies(t) and eager_rope_dim(t, resolve_model(t)) == 0
        assert unfused_rope_bytes(t, resolve_model(t), 2) == (0.0, 0.0)
    # Meta's Llama 3 stack borrows Megatron's facts as a stand-in, not its model code
    assert not rope_fusion_applies(replace(s, framework="meta-llama3"))
    assert KEY_SPECS["apply_rope_fusion"].applies_to == "framework megatron, verl-megatron, nemo-rl-megatron"


def test_partial_rotary_counts_the_rotated_width():
    # RotaryEmbedding dim = int(kv_channels x rotary_percent); the products, negation and rotated-half concatenation
    # run over t[..., :rot_dim]. Nemotron-4 340B: rotary_percentage 0.5 (NeMo-Framework-Launcher 24.07
    # nemotron_340b.yaml), Pythia: rotary_pct 0.25 (its config.json)
    assert model_spec_for("nemotron-4-340b").rotary_fraction == 0.5
    assert model_spec_for("pythia-6.9b").rotary_fraction == 0.25
    assert model_spec_for("llama-3.1-8b").rotary_fraction == 1.0
    s = scenario_from_dict({"gpu": "h100-sxm-80gb", "framework": "megatron", "model": "nemotron-3-8b", "tp": 2,
                            "gpus_per_node": 2, "precision": "mixed-bf16", "seq_len": 4096, "micro_batch": 1,
                            "apply_rope_fusion": False})
    spec = resolve_model(s)
    assert spec.rotary_fraction == 0.5 and eager_rope_dim(s, spec) == spec.head_dim // 2
    units = (spec.q_dim + spec.kv_dim) / 2 * 2 * 0.5  # per token at TP 2, bf16, half of each head rotated
    assert unfused_rope_bytes(s, spec, 2) == (10 * units, 11 * units)
    assert (_per_layer_bytes(s) - _per_layer_bytes(replace(s, apply_rope_fusion=True))
            == 4 * 4096 * (spec.head_dim // 2) * 2)


def _imported_loss(script: str) -> str:
    return import_texts([("train.sh", script)]).scenario.get("cross_entropy", "auto")


def test_a_megatron_lm_script_without_the_loss_flag_runs_the_unfused_loss():
    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 30 "
              "--hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --micro-batch-size 1 --bf16 {}\n")
    # store_true from 7b4a6d76c9 to d98e8a64 (model_parallel_config.py line 320: False); before it, no fusion at all
    assert _imported_loss(script.format("")) == "megatron-unfused"
    assert _imported_loss(script.format("--cross-entropy-loss-fusion")) == "megatron-fused"


def test_megatrons_own_loss_gives_the_log_probs_fused_or_not():
    # ms-swift's Megatron DPO takes the per-token losses of the model's own loss (settings.py), the same
    # vocab_parallel_cross_entropy call whether --cross-entropy-loss-fusion fuses it or not
    dpo = {"gpu": "a100-80gb", "framework": "megatron", "precision": "mixed-bf16", "method": "full",
           "model": "qwen3-4b", "gpus_per_node": 4, "tp": 4, "training_objective": "dpo",
           "reference_model": "separate", "prompt_len": 2048, "completion_len": 2048}
    paths = {ce: rl_settings(scenario_from_dict(dict(dpo, cross_entropy=ce)), 2).logprob_path
             for ce in ("megatron-fused", "megatron-unfused")}
    assert paths == {"megatron-fused": "model-loss", "megatron-unfused": "model-loss"}


def test_a_megatron_lm_scripts_rotary_percent_reaches_the_model():
    # --rotary-percent is a fraction despite its name (Megatron-LM arguments.py: type=float, default 1.0) and
    # RotaryEmbedding's dim = int(kv_channels x rotary_percent) (ba773259 lines 68-70): a Llama-style script with 0.5
    # rotates half of each head; before this it was imported as a full rotation (rot_dim 128 instead of 64)
    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
              "--seq-length 4096 --micro-batch-size 1 --bf16 --swiglu --normalization RMSNorm "
              "--position-embedding-type rope --vocab-size 32000 {}\n")
    half = import_texts([("train.sh", script.format("--rotary-percent 0.5"))])
    s = scenario_from_dict({"gpu": "h100-sxm-80gb", **half.scenario, "apply_rope_fusion": False})
    assert resolve_model(s).rotary_fraction == 0.5 and eager_rope_dim(s, resolve_model(s)) == 64
    assert not any(u.key.endswith("--rotary-percent") for u in half.unmapped)  # read, not listed as left out
    whole = import_texts([("train.sh", script.format(""))])
    assert "partial_rotary_factor" not in whole.scenario["model"]["hf_config"]
    # 50 (a percentage) cannot be a share of the head: left out with the reason, the model stays whole
    fifty = import_texts([("train.sh", script.format("--rotary-percent 50"))])
    assert "partial_rotary_factor" not in fifty.scenario["model"]["hf_config"]
    assert any(u.key.endswith(": --rotary-percent") for u in fifty.unmapped)
