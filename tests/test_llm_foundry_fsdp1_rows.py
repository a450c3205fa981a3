"""llm-foundry's published rows state the FSDP its runs ran and the dtype their gradients were reduced in
(tests/data/published/throughput.json).

Every table of mosaicml/llm-foundry scripts/train/benchmarking/README.md (at 8c8dd48f) ran Composer, which wraps the
model with torch's FullyShardedDataParallel (FSDP1), never fully_shard (FSDP2): mosaicml/composer v0.13.4
composer/trainer/dist_strategy.py line 291 (the A100 40GB table: llm-foundry 300cc5c5 pins mosaicml==0.13.4 and
torch==1.13.1), v0.16.4 line 493 (llm-foundry b2a43a14 / v0.3.0: mosaicml>=0.16.4,<0.17) and v0.17.2 line 554
(5e85bd62: mosaicml>=0.17.2,<0.18). The README's 'MP Mode' column is DEFAULT for its 129 amp_bf16 and 7 amp_fp8
rows and PURE for its 80 bf16 rows; Composer's get_mixed_precision gives DEFAULT reduce_dtype = torch.float32 and
PURE the precision's own dtype (composer/trainer/mosaic_fsdp_utils.py v0.16.4 line 89, v0.17.2 line 96).
"""

from engine.accuracy.published_throughput import load_rows
from engine.scenario import scenario_from_dict
from engine.timing import step_time


def _llm_foundry_rows() -> list[dict]:
    return [r for r in load_rows() if r["framework"] == "llm-foundry"]


def _default_mp(row: dict) -> bool:
    """The README's amp_bf16 and amp_fp8 rows (MP Mode DEFAULT); its bf16 rows are PURE."""
    return row["id"].split("-")[3] in ("amp_bf16", "amp_fp8")


def test_full_shard_rows_ran_fsdp1() -> None:
    full_shard = [r for r in _llm_foundry_rows() if r["scenario"].get("fsdp")]
    assert len(full_shard) == 210  # the README's 216 rows less the 6 SHARD_GRAD_OP ones (zero_stage 2)
    assert all(r["scenario"]["fsdp_version"] == 1 for r in full_shard)
    assert all("FullyShardedDataParallel" in r["notes"] for r in full_shard)


def test_default_mixed_precision_rows_reduce_in_fp32() -> None:
    rows = _llm_foundry_rows()
    default = [r for r in rows if _default_mp(r)]
    pure = [r for r in rows if not _default_mp(r)]
    assert (len(default), len(pure)) == (129 + 7, 80)  # the README's MP Mode column
    assert all(r["scenario"]["grad_reduce_fp32"] is True for r in default)
    assert all("grad_reduce_fp32" not in r["scenario"] for r in pure)  # auto: the gradients' own dtype
    assert all("reduce_dtype = torch.float32" in r["notes"] for r in default)


def test_fp32_reduce_and_fsdp1_copies_cost_time() -> None:
    """The keys are read: the 70B row on 512 GPUs runs slower with FSDP1's copies and an fp32 reduce-scatter (twice
    the bytes of a bf16 one) than as FSDP2 reducing bf16 gradients."""
    row = next(r for r in _llm_foundry_rows() if r["id"] == "llm-foundry-h100_80gb-amp_bf16-70b-2048-512-8x1")
    as_ran = step_time(scenario_from_dict(row["scenario"])).step_seconds
    fsdp2_bf16 = {k: v for k, v in row["scenario"].items() if k not in ("fsdp_version", "grad_reduce_fp32")}
    assert as_ran > step_time(scenario_from_dict(fsdp2_bf16)).step_seconds
