"""The MoE Parallel Folding part file (arXiv:2504.14960, tests/data/published/throughput/moe-parallel-folding-2025.json):
each row's tokens/s per GPU gives back the MFU (or model TFLOPS) the paper prints beside it, with Megatron-Core's
FLOPs count, so a transcription slip shows; and every layout adds up to the printed GPU count and global batch."""

import json
from pathlib import Path

PART = Path(__file__).parent / "data" / "published" / "throughput" / "moe-parallel-folding-2025.json"
MODELS = Path(__file__).parent.parent / "presets" / "models"
H100_BF16_PEAK = 989.5e12  # arXiv:2504.14960 section 4.1: 'a peak half-precision throughput of 989.5 TFLOP/s'


def _rows() -> list[dict]:
    return json.loads(PART.read_text(encoding="utf-8"))["rows"]


def _hf(sc: dict) -> dict:
    m = sc["model"]
    return json.loads((MODELS / f"{m}.json").read_text())["hf_config"] if isinstance(m, str) else m["hf_config"]


def _flops_per_token(sc: dict) -> float:
    """Megatron-Core's model FLOPs per token (NVIDIA/Megatron-LM core_v0.10.0 megatron/training/training.py
    num_floating_point_operations, divided by batch x sequence): 12 l h^2 ((1 + g/a + s/h) (a d / h) + f k 3/2 +
    f_shared 3/2 + V / 2lh), V padded to a multiple of 128 x TP (tokenizer.py _vocab_size_with_padding)."""
    hf, seq = _hf(sc), sc["seq_len"]
    layers, h, heads = hf["num_hidden_layers"], hf["hidden_size"], hf["num_attention_heads"]
    groups, d = hf["num_key_value_heads"], h // heads
    ffn = hf.get("moe_intermediate_size", hf["intermediate_size"])
    shared = hf.get("shared_expert_intermediate_size", 0)
    multiple = 128 * sc["tp"]
    vocab = -(-hf["vocab_size"] // multiple) * multiple
    return 12 * layers * h * h * ((1 + groups / heads + seq / h) * (heads * d / h) + ffn / h * hf["num_experts_per_tok"]
                                  * 1.5 + shared / h * 1.5 + vocab / (2 * layers * h))


def test_every_bf16_row_gives_back_the_printed_mfu():
    rows = [r for r in _rows() if "mfu" in r["reported"]]
    assert len(rows) == 59  # Table 3: 11 runs, Table 4: 44, Table 5: 4 (the expressible ones; not_expressible: rest)
    for r in rows:
        printed = float(r["reported"]["mfu"].rstrip("%"))
        mfu = r["measured"] * _flops_per_token(r["scenario"]) / H100_BF16_PEAK * 100
        # the rows keep two decimals of tokens/s: the printed 0.1-point MFU comes back to within 0.01 point
        assert abs(mfu - printed) < 0.01, (r["id"], mfu, printed)


def test_fp8_rows_give_back_table_2s_model_tflops():
    rows = {r["id"]: r for r in _rows()}
    fp8 = [r for r in rows.values() if "model_tflops_per_gpu" in r["reported"]]
    assert len(fp8) == 2  # Table 2: MCore and MCore w/ Folding in FP8 (its BF16 lines are Table 3's runs)
    for r in fp8:
        tflops = r["measured"] * _flops_per_token(r["scenario"]) / 1e12
        assert abs(tflops - r["reported"]["model_tflops_per_gpu"]) < 0.01, r["id"]
    # the unit: Table 2's BF16 TFLOPS (458.3 MCore, 487.7 with folding) are Table 3's Mixtral MFUs x 989.5 TFLOP/s,
    # so the paper's MFU is Megatron's model FLOPs over that peak; to Table 2's 0.1 TFLOPS and Table 3's 0.1 point
    for rid, table2 in (("moefold-mixtral-mcore-128gpus-gbs256", 458.3), ("moefold-mixtral-fold-128gpus-gbs256", 487.7)):
        tflops = rows[rid]["measured"] * _flops_per_token(rows[rid]["scenario"]) / 1e12
        assert abs(tflops - table2) < 0.6, (rid, tflops)
    # Table 2's printed speedups (FP8 over BF16 1.26x without and 1.30x with folding, folding 1.10x in FP8) follow
    # from its TFLOPS column to within its rounding (575.1 / 458.3 = 1.255)
    for faster, slower, printed in ((575.1, 458.3, 1.26), (631.7, 487.7, 1.30), (631.7, 575.1, 1.10)):
        assert abs(faster / slower - printed) < 0.006


def test_layouts_add_up_to_the_printed_gpus_and_global_batch():
    for r in _rows():
        sc, rep = r["scenario"], r["reported"]
        assert sc["nodes"] * sc["gpus_per_node"] == rep["gpus"], r["id"]
        dp = rep["gpus"] // (sc["tp"] * sc["cp"] * sc["pp"])
        # Table 3 and Table 2: global batch 256 (appendix 6.4), Table 4: 1024 (section 4.3), Table 5: its GBS column
        gbs = rep.get("global_batch", 256)
        assert sc["micro_batch"] * sc["grad_accum"] * dp == gbs, r["id"]
        # Megatron's folded expert grid: ep x etp divides the tp x cp x dp ranks of a stage (etp 0: tp)
        assert (sc["tp"] * sc["cp"] * dp) % (sc["ep"] * (sc.get("etp") or sc["tp"])) == 0, r["id"]
