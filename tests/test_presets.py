"""Preset catalogues: required ids, sources, and parameter counts against published totals."""

import pytest

from engine import get_gpu, gpu_presets, model_presets
from engine.models.presets import ModelPreset

REQUIRED_MODELS = ["llama-2-7b", "llama-2-13b", "llama-3-8b", "llama-3.1-70b", "mistral-7b", "mixtral-8x7b",
                   "qwen2.5-7b", "qwen3-8b", "qwen3-30b-a3b"]
REQUIRED_GPUS = ["a100-40gb", "a100-80gb", "h100-sxm-80gb", "h200", "rtx-4090", "rtx-3060-12gb"]


def test_required_ids_and_counts():
    models, gpus = model_presets(), gpu_presets()
    assert set(REQUIRED_MODELS) <= set(models)
    assert set(REQUIRED_GPUS) <= set(gpus)
    assert len(models) >= 35
    assert len(gpus) >= 30


def test_every_preset_carries_its_source():
    for preset in model_presets().values():
        assert preset.source, preset.id
        assert preset.published_params_source, preset.id
    for gpu in gpu_presets().values():
        assert gpu.source, gpu.id
        assert gpu.memory_bytes > 1e9 and isinstance(gpu.memory_bytes, int), gpu.id


def _active_on_published_basis(preset: ModelPreset) -> int:
    """The engine's active count, counted the way the publisher counted it (the preset's published_active_basis):
    all of it, without the input embedding (a lookup), or the text model's alone (no vision encoder)."""
    spec = preset.spec
    if preset.published_active_basis == "without-embedding":
        return spec.active_params - spec.embedding_params
    if preset.published_active_basis == "text-model":
        return spec.active_params - spec.vision_params
    return spec.active_params


@pytest.mark.parametrize("model_id", sorted(model_presets()))
def test_parameter_count_matches_published_total(model_id):
    """Published totals come from model cards / safetensors metadata (see each preset's source)."""
    preset = model_presets()[model_id]
    spec = preset.spec
    assert preset.published_params
    assert spec.total_params == pytest.approx(preset.published_params, rel=0.01)
    if preset.published_active_params:
        # Model cards round active counts to two digits (e.g. "3.3B"), so 2% is the honest tolerance.
        # Some publishers leave the embedding (a lookup) or the vision encoder out: the preset says which.
        assert _active_on_published_basis(preset) == pytest.approx(preset.published_active_params, rel=0.02)
    if preset.transformers_params:
        # What transformers 5.24 builds from the same config.json (validation/count_params.py): to the parameter.
        assert spec.total_params == preset.transformers_params


def test_known_exact_counts():
    # Llama-2-7B: 6,738,415,616 parameters (safetensors total of meta-llama/Llama-2-7b-hf).
    assert model_presets()["llama-2-7b"].spec.total_params == 6_738_415_616
    # Qwen3-30B-A3B released config (spec errata): 48 layers, 128 experts, top-8, no shared expert.
    spec = model_presets()["qwen3-30b-a3b"].spec
    assert (spec.layers, spec.n_experts, spec.top_k, spec.shared_ffn, spec.kv_heads) == (48, 128, 8, 0, 4)


ISSUE_12_GPUS = ["b200", "gb200", "b300", "gb300", "rtx-pro-6000-blackwell", "rtx-5080", "rtx-5070-ti", "rtx-5060-ti-16gb",
                  "rtx-4070-ti-super", "rtx-4070", "rtx-4060-8gb", "rtx-3080-10gb", "rtx-3080-12gb", "rtx-3090-ti", "a40",
                  "l40", "h20", "mi355x", "mi300a", "apple-m4-max-128gb", "apple-m3-ultra-512gb"]


def test_issue_12_gpus_are_there_with_sources():
    gpus = gpu_presets()
    assert set(ISSUE_12_GPUS) <= set(gpus)
    # nvidia-smi totals quoted in the sources (aiconfigurator system files, public nvidia-smi logs)
    assert gpus["gb200"].memory_bytes == 189471 * 2**20
    assert gpus["rtx-pro-6000-blackwell"].memory_bytes == 97887 * 2**20
    assert gpus["rtx-5070-ti"].memory_bytes == 16303 * 2**20


def test_the_measured_serving_rows_gpus_are_there_with_sources():
    """h-presets20: the GPUs of measured serving rows that had no preset (tests/data/published/serving_speed.json)."""
    gpus = gpu_presets()
    # nvidia-smi '11264MiB' on an RTX 2080 Ti (code-search index file id 1368580624); Turing whitepaper: 616 GB/s,
    # FP16 tensor with FP32 accumulate 53.8 TFLOPS (reference clock), no BF16
    rtx_2080_ti = gpus["rtx-2080-ti"]
    assert rtx_2080_ti.memory_bytes == 11264 * 2**20 and rtx_2080_ti.memory_bandwidth_bytes_per_s == 616e9
    assert dict(rtx_2080_ti.dense_peak_tflops)["fp16"] == 53.8 and not rtx_2080_ti.bf16
    assert rtx_2080_ti.cuda_capability == "7.5"  # Turing: int8 MMA, so today's llama.cpp keeps MMQ at every batch
    # NVIDIA's RTX 4080 SUPER specifications: 23 Gbps x 256 bit = 736 GB/s; AI TOPS 836 / 8 = 104.5 dense BF16
    rtx_4080_super = gpus["rtx-4080-super"]
    assert rtx_4080_super.memory_bandwidth_bytes_per_s == 23e9 * 256 / 8
    assert dict(rtx_4080_super.dense_peak_tflops)["bf16"] == pytest.approx(836 / 8, abs=0.05)
    for gpu_id in ("rtx-2080-ti", "rtx-4080-super", "apple-m1-ultra-64gb", "apple-m1-ultra-128gb", "apple-m1-max-64gb",
                   "apple-m2-max-30core-32gb", "apple-m4-16gb", "apple-m4-32gb"):
        assert gpus[gpu_id].source and gpus[gpu_id].speed_source, gpu_id


def test_h100_capacity_is_bytes_not_marketing_gb():
    # nvidia-smi reports 81559 MiB for H100 SXM 80GB.
    assert get_gpu("h100-sxm-80gb").memory_bytes == 81559 * 2**20


def test_apple_unified_memory_uses_the_gpu_share():
    gpu = get_gpu("apple-m3-max-128gb")
    assert 0.5 < gpu.usable_fraction < 1
    assert gpu.usable_bytes < gpu.memory_bytes


# Active counts published to one or two significant digits with no basis stated (issue 12). Sources, quoted in each
# preset's published_params_source: Qwen3-Next: Qwen/Qwen3-Next-80B-A3B-Instruct model card, "80B in total and 3B
# activated"; GLM-4.5-Air: zai-org/GLM-4.5-Air model card, "106 billion total parameters and 12 billion active
# parameters"; DeepSeek-V2-Lite: DeepSeek-V2 paper (arXiv:2405.04434) appendix B, "15.7B total parameters, of which
# 2.4B are activated for each token"; Qwen3.5-397B-A17B: SGLang's Qwen3.5 cookbook, "397B total / 17B active".
@pytest.mark.parametrize("model_id, published, digits", [
    ("qwen3-next-80b-a3b", 3_000_000_000, 1),
    ("qwen3.5-397b-a17b", 17_000_000_000, 2),
    ("glm-4.5-air", 12_000_000_000, 2),
    ("deepseek-v2-lite", 2_400_000_000, 2),
])
def test_active_counts_agree_with_figures_published_to_few_digits(model_id, published, digits):
    """A figure given to `digits` significant digits confirms a count only to one unit of its last digit (whether the
    publisher rounded or truncated is unstated); the basis (which embedding matrices the publisher left out) is the
    one the preset names, with its reason in published_active_note."""
    import json
    import math

    from engine.models.presets import PRESETS_DIR

    raw = json.loads((PRESETS_DIR / "models" / f"{model_id}.json").read_text())
    assert raw["published_active_rounded"] == published and raw["published_active_rounded_digits"] == digits
    spec = model_presets()[model_id].spec
    left_out = {"all": 0, "without-embedding": spec.embedding_params,
                "without-embedding-and-head": spec.embedding_params + spec.head_params}
    count = spec.active_params - left_out[raw["published_active_rounded_basis"]]
    unit = 10 ** (math.floor(math.log10(published)) - digits + 1)
    assert abs(count - published) <= unit
    assert count < spec.total_params / 4  # a mixture of experts: most weights idle for each token


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    keys = [key for key, _ in pairs]
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicated, f"keys given twice: {duplicated}"
    return dict(pairs)


def test_no_data_file_states_a_key_twice():
    """json.load keeps the last of two equal keys without a word, so a fact stated twice can silently differ from
    what its first statement says (the deepspeed profile in presets/efficiency.json listed its pipeline keys twice)."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    files = sorted([*root.glob("presets/**/*.json"), *root.glob("tests/data/**/*.json")])
    assert len(files) > 20
    for path in files:
        json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_refuse_duplicate_keys)
