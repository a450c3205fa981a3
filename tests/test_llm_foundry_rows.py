"""llm-foundry's published rows state the attention kernel each README sweep ran (tests/data/published/throughput.json).

mosaicml/llm-foundry history: the H100 large-scale table was added by commit 5e85bd62d4ec9e13353ca95877477602ab538e5b,
whose scripts/train/benchmarking/sweep.py runs MPT-1b, 3b, 7b and 70b with --attn_impl flash (submit_benchmarks.py
installs '.[gpu-flash2]', flash-attn 2.4.2) and MPT-13b and 30b with --attn_impl triton; every other table ran
submit_benchmarks.py's default attn_impl 'triton' (b2a43a1477a45f40f4086a1c72f851b0ab42d0ac for the H100 BF16 / FP8 and
A100 80GB tables, 300cc5c58b7a44ad4fd9556e170c618ae8b09a4c for the A100 40GB one), the Triton FlashAttention kernel,
which the rows state as attention_kernel triton: not FlashAttention-1's CUDA kernel, whose measured A100 rates
(presets/efficiency.json attention_rate_by_work _source_a100) are not this kernel's.
"""

from engine.accuracy.published_throughput import load_rows

LARGE_SCALE = "H100 80GB BF16 (Large Scale, >= 128 GPUs)"
FLASH_MODELS = ("1b", "3b", "7b", "70b")  # sweep.py at 5e85bd62: --attn_impl flash


def _llm_foundry_rows() -> list[dict]:
    return [r for r in load_rows() if r["framework"] == "llm-foundry"]


def test_large_scale_flash_rows_ran_flash_attention_2() -> None:
    flash = [r for r in _llm_foundry_rows() if LARGE_SCALE in r["source"] and r["id"].split("-")[-4] in FLASH_MODELS]
    assert len(flash) == 12  # 4 models x 128, 256 and 512 GPUs in the README table
    assert all(r["scenario"]["attention_kernel"] == "flash2" for r in flash)
    assert all("flash-attn==2.4.2" in r["source"] for r in flash)


def test_other_rows_ran_the_triton_kernel() -> None:
    triton = [r for r in _llm_foundry_rows()
              if not (LARGE_SCALE in r["source"] and r["id"].split("-")[-4] in FLASH_MODELS)]
    assert len(triton) == 216 - 12  # the README's 216 rows at 8c8dd48f less the 12 above
    assert all(r["scenario"]["attention_kernel"] == "triton" for r in triton)
    assert all("attn_impl 'triton'" in r["source"] or "--attn_impl triton" in r["source"] for r in triton)
    assert not any("ran FlashAttention-1" in r["source"] for r in triton)
