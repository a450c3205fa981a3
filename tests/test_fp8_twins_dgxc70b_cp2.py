"""dgxc-benchmarking 24.11.1 and 25.02.02 on H100: Llama 3.1 70B at TP 4 x PP 4 x CP 2 x VP 5 in fp8 (delayed
scaling, fp8 parameters) against the bf16 twin of the same release, layout and batch. Cross-validated the fp8 rows read
+8% to +16% fast and the bf16 ones -3% to -5%, which looks like an fp8 cost under context parallelism the model lacks;
without the MFU ceilings both twins miss the same milliseconds per micro-batch (the bf16 rows are held by another
source's H100 bf16 ceiling, the fp8 rows are not), so what the model lacks at this layout is a cost of both formats
(benchmarks/fp8_twins.py; docs/time-model-notes.md, h-fp8cp), not one of the fp8 step.

Measured figures: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md at 35a9aec (release v24.11.1) and 5f23b67 (release
v25.02.02), as tests/data/published/throughput/dgxc-benchmarking.json holds them (step seconds = sequence x GBS /
tokens/s)."""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows, missed_ms_per_micro_batch

RELEASES = ("dgxc-24.11.1-", "dgxc-25.02.02-")


def _pairs() -> list[tuple[dict, dict]]:
    rows = {r["id"]: r for r in load_rows()
            if r["id"].startswith(RELEASES) and "-llama-3-1-70b-" in r["id"] and "-cp-2-" in r["id"]}
    return [(row, rows[rid.replace("-fp8-", "-bf16-")]) for rid, row in rows.items() if "-fp8-" in rid]


def test_every_cp2_fp8_row_of_the_two_releases_has_its_bf16_twin():
    """64 to 2,048 GPUs in each release's table: twelve pairs whose scenarios differ only in precision and the fp8
    recipe (both releases run NeMo 1.0's megatron_gpt_pretraining.py with llama3.1_70b.yaml; configure.sh turns on
    fp8, fp8_hybrid and fp8_params together, nothing else)."""
    pairs = _pairs()
    assert len(pairs) == 12
    for fp8, bf16 in pairs:
        rest = {k: v for k, v in fp8["scenario"].items() if k not in ("name", "precision", "fp8_recipe")}
        assert rest == {k: v for k, v in bf16["scenario"].items() if k not in ("name", "precision")}
        assert (fp8["scenario"]["fp8_recipe"], fp8["scenario"]["cp"], fp8["scenario"]["tp"]) == ("delayed", 2, 4)


def test_both_twins_miss_the_same_time_per_micro_batch():
    """The fp8 twin's missed time beyond its bf16 twin's is within 4% of the measured fp8 micro-batch in every pair:
    -2.4% to +0.3% in 25.02.02 (the fp8 twin misses 12.2-18.4 ms of a 163-172 ms micro-batch, the bf16 twin
    15.5-18.3 ms) and +1.2% to +2.6% in 24.11.1 (19.2-24.7 against 17.1-20.1 ms), at h-fp8cp's base 4156bb3. The
    code these releases ran has no fp8 step that grows with context parallelism: attention stays bf16 under
    fp8_autocast (Transformer Engine v1.10 and v1.13 attention.py pass fp8 = self.fp8 and recipe.fp8_dpa to the CP
    ring; Megatron-Core 0.9 TEDelayedScaling sets fp8_dpa from fp8_dot_product_attention, False, which
    llama3.1_70b.yaml does not set), the amax all-reduce over tp x cp x dp ranks is one per model chunk and pass
    (engine/timing/delayed_amax.py, 0.25-0.75 ms a micro-batch here), and the fp8 weights' transpose is cached at
    each chunk's first micro-batch. Each twin misses 12-25 ms, a cost both formats pay, which weighs more in fp8's
    shorter step (not held here: a mechanism that closes it must leave the difference within 4%)."""
    for fp8, bf16 in _pairs():
        missed_fp8, micro_batch_fp8 = missed_ms_per_micro_batch(fp8)
        missed_bf16, _ = missed_ms_per_micro_batch(bf16)
        assert abs(missed_fp8 - missed_bf16) < 0.04 * micro_batch_fp8, fp8["id"]
