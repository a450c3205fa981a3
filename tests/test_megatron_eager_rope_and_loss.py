"""Megatron-Core's rotary embedding without its fused kernel (scenario key apply_rope_fusion false,
engine/timing/rope_fusion.py) and Megatron's unfused vocab-parallel loss named on a scenario (cross_entropy
megatron-unfused), as FlagPerf's Qwen1.5-MoE case ran both (FlagOpen/FlagPerf 1b5a0303
training/benchmarks/qwen1.5_MoE/megatron/megatron_pai_main.sh: --no-rope-fusion, no --cross-entropy-loss-fusion,
on Pai-Megatron-Patch's Megatron-LM-240405 submodule, NVIDIA/Megatron-LM ba773259)."""

import json
from dataclasses import replace
from pathlib import Path

from engine.configs import import_files
from engine.configs.export_native import megatron_args
from engine.memory.estimate import estimate
from engine.scenario import KEY_SPECS, resolve_model, scenario_from_dict
from engine.timing.costs import loss_path
from engine.timing.data import efficiency, framework_profile
from engine.timing.model import step_time
from engine.timing.rope_fusion import rope_fusion_applies, unfused_rope_bytes

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "flagperf-qwen1.5-moe.json"


def _flagperf(**changes):
    row = json.loads(ROWS.read_text(encoding="utf-8"))["rows"][0]
    return scenario_from_dict({**row["scenario"], **changes})


def test_eager_rope_count_is_the_ops_of_apply_rotary_pos_emb_bshd():
    # ba773259 rotary_pos_embedding.py apply_rotary_pos_emb_bshd, elements read + written per q or k element:
    # t * cos_ (1 + 1), -x2 (0.5 + 0.5), cat((-x2, x1)) (1 + 1), * sin_ (1 + 1), the sum (2 + 1),
    # cat((t, t_pass)) (1 + 1), against the fused kernel's one read and one write
    forward = 2 + 1 + 2 + 2 + 3 + 2 - 2
    # backward: grad * cos (2), grad * sin (2), the negation (1), the chunk's gradients concatenated (2), the two
    # paths summed (3), the slice t[..., :rot_dim] scattered back (3), against the fused kernel's 2
    backward = 2 + 2 + 1 + 2 + 3 + 3 - 2
    assert efficiency()["gpt_oss_megatron_unfused"]["rope_per_qk_unit"] == {"forward": forward, "backward": backward}


def test_the_flagperf_rows_state_both_and_the_defaults_keep_every_other_row():
    rows = json.loads(ROWS.read_text(encoding="utf-8"))["rows"]
    assert [(r["scenario"]["apply_rope_fusion"], r["scenario"]["cross_entropy"]) for r in rows] == [
        (False, "megatron-unfused")] * 2
    assert KEY_SPECS["apply_rope_fusion"].default is True and KEY_SPECS["cross_entropy"].default == "auto"


def test_eager_rope_bytes_per_token_follow_the_query_and_key_widths():
    s = _flagperf()
    spec = resolve_model(s)
    # 16 query and 16 key/value heads of 128: 4,096 rotated units per token at TP 1, bf16
    assert unfused_rope_bytes(s, spec, 2) == (10 * 4096 * 2, 11 * 4096 * 2)
    assert unfused_rope_bytes(replace(s, tp=2), spec, 2) == (10 * 2048 * 2, 11 * 2048 * 2)
    assert unfused_rope_bytes(replace(s, apply_rope_fusion=True), spec, 2) == (0.0, 0.0)
    # a framework that does not run Megatron-Core's model code has no such path, and the window hides the setting
    torchtitan = replace(s, framework="torchtitan")
    assert unfused_rope_bytes(torchtitan, spec, 2) == (0.0, 0.0)
    assert rope_fusion_applies(s) and not rope_fusion_applies(torchtitan)
    # GPT-OSS's Megatron path counts the same eager RoPE whatever the key says (YaRN's mscale: costs.py)
    assert not rope_fusion_applies(_flagperf(model="gpt-oss-20b"))
    # nor multi-latent attention: Megatron-Core's MLA rotates only the 64-wide rope parts, then concatenates
    # (multi_latent_attention.py at d98e8a64 lines 944-975), other ops than apply_rotary_pos_emb_bshd's whole heads
    mla = _flagperf(model="deepseek-v2-lite")
    assert resolve_model(mla).attention == "mla" and not rope_fusion_applies(mla)
    assert unfused_rope_bytes(mla, resolve_model(mla), 2) == (0.0, 0.0)


def test_each_makes_the_step_slower_and_leaves_memory_alone():
    eager = step_time(_flagperf())
    fused_rope = step_time(_flagperf(apply_rope_fusion=True))
    standard_loss = step_time(_flagperf(cross_entropy="auto"))
    assert eager.step_seconds > fused_rope.step_seconds and eager.step_seconds > standard_loss.step_seconds
    # the unfused loss holds the tensors of Megatron's own fp32 loss, which 'auto' resolves to for framework megatron
    assert estimate(_flagperf()).peak_reserved_bytes == estimate(_flagperf(cross_entropy="auto")).peak_reserved_bytes


def test_the_named_loss_is_timed_as_the_unfused_vocab_parallel_loss():
    prof = framework_profile("megatron")
    assert loss_path(_flagperf(), prof) == "megatron-vocab-parallel"
    assert loss_path(_flagperf(cross_entropy="auto"), prof) == "standard"  # the profile's own default stays


def test_a_megatron_script_with_no_rope_fusion_imports_the_eager_rope_and_exports_it_back(tmp_path):
    # --no-rope-fusion is store_false into apply_rope_fusion (megatron/training/arguments.py at ba773259); the
    # script is Megatron-LM's Mixtral example (tests/data/configs), with the flag added as FlagPerf's MODEL_ARGS pass it
    data = Path(__file__).parent / "data" / "configs" / "megatron" / "train_mixtral_8x7b_distributed.sh"
    text = data.read_text(encoding="utf-8").replace("--use-mcore-models", "--use-mcore-models \\\n    --no-rope-fusion")
    script = tmp_path / "mixtral_no_rope_fusion.sh"
    script.write_text(text, encoding="utf-8")
    assert import_files([script]).scenario["apply_rope_fusion"] is False
    assert "apply_rope_fusion" not in import_files([data]).scenario  # the default (fused) is not written
    assert "--no-rope-fusion" in megatron_args(_flagperf())
    assert "--no-rope-fusion" not in megatron_args(_flagperf(apply_rope_fusion=True))


def test_the_unfused_loss_holds_megatrons_in_place_tensors_under_any_framework():
    # review 20: BigScience's 110 rows name megatron-unfused under deepspeed-2022, whose Megatron-DeepSpeed loss
    # (bigscience-workshop/Megatron-DeepSpeed 1cb76a64 megatron/mpu/cross_entropy.py lines 36-81: sub_, exp(out=),
    # div_ on the fp32 copy gpt_model.py makes, saved as the softmax) is Megatron's in-place loss; the memory took
    # transformers' out-of-place fp32 loss (logits + upcast + log-softmax, 12 bytes per logit in backward) there.
    from engine.memory.loss import loss_memory
    from engine.scenario.behaviour import behaviour

    tokens, vocab, compute = 2048.0, 250_880, 2
    tv = tokens * vocab
    for framework in ("deepspeed-2022", "megatron"):
        b = behaviour(replace(_flagperf(), framework=framework))
        m = loss_memory(b, tokens, vocab, 14_336, compute, 1, True, 2, False)
        # the logits in fp16 and one fp32 copy worked in place; backward: the fp32 gradient over it + its cast
        assert (m.forward, m.backward) == ((compute + 4) * tv, (4 + compute) * tv)
