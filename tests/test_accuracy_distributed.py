"""Hold the detailed estimator to traced distributed steps (tests/data/ground_truth/distributed).

Each file is one rank per pipeline stage of an N-GPU step traced with PyTorch's fake process group
(validation/distributed.py); validation/crosscheck_distributed.json compares such traces with real
multi-process gloo runs. Targets (issue 10): median |error| <= 2% and none worse than 8% on the busiest
rank's peak, every rank within 8%, every phase of every rank within 10%.
"""

import json
from pathlib import Path

import pytest

from engine.accuracy.traced import distributed_summary, distributed_table, load_distributed_rows

ROWS = load_distributed_rows()
# Configurations whose mechanism is not modelled yet (traced, reported in docs/accuracy.md, still held to 15%).
# None: the LoRA + checkpointing optimizer-phase gap was the tracker's, not the engine's; the harness now removes
# MemTracker's gradient hooks after each backward (validation/distributed.py, validation/tracker_artefact.py).
KNOWN_MISSES: dict[str, str] = {}


def test_enough_distributed_configurations_recorded():
    assert len(ROWS) >= 40
    kinds = {r.kind for r in ROWS}
    assert {"FSDP2", "DDP", "TP", "TP + SP", "2-D FSDP x TP", "PP", "CP", "2-D FSDP x CP",
            "FSDP2 x EP"} <= kinds
    assert max(r.world_size for r in ROWS) >= 64 and min(r.world_size for r in ROWS) == 2


def test_distributed_error_targets():
    print("\n" + distributed_table(ROWS))
    stats = distributed_summary(ROWS)
    for kind, s in stats.items():
        print(f"{kind}: {s['configurations']} configurations, median |error| {s['median_abs_error']:.2%}, "
              f"worst {s['worst_abs_error']:.2%}")
    assert stats["all"]["median_abs_error"] <= 0.02
    held = distributed_summary([r for r in ROWS if r.id not in KNOWN_MISSES])
    assert held["all"]["worst_abs_error"] <= 0.08


def test_known_misses_are_still_recorded():
    assert set(KNOWN_MISSES) <= {r.id for r in ROWS}
    # the configuration that was a known miss until its trace lost the tracker's leftovers stays recorded (and
    # held to the full targets by test_each_rank)
    assert "llama-3-8b-L4_bf16_sdpa_lora-r8-qv_ckpt_b1_s2048__fsdp8" in {r.id for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_each_rank(row):
    limit, phase_limit = (0.15, 0.15) if row.id in KNOWN_MISSES else (0.08, 0.10)
    for rank in row.ranks:
        assert abs(rank.error) <= limit, rank.rank
        for phase in ("forward", "backward", "optimizer"):
            assert abs(rank.phase_error(phase)) <= phase_limit, (rank.rank, phase)


CROSSCHECK = Path(__file__).resolve().parent.parent / "validation" / "crosscheck_distributed.json"
GLOO_SCALARS = 1024  # two 512-byte blocks some gloo reductions allocate and the fake group does not
# validation/crosscheck_distributed.py cases: tiny Llama (h=256, 64 tokens, micro-batch 1), fp32 activations
PIPELINE_MESSAGE = 1 * 64 * 256 * 4  # gloo's send/recv copies one micro-batch's b·s·h activation per message
# Not explained yet: FSDP2 with a bf16 MixedPrecisionPolicy, fp32 reduce and no reshard after forward allocates
# 1.7 MB more in the gloo run's backward (about 8% of this toy model's peak).
# Not explained yet either: expert parallelism under FSDP2 allocates more in the gloo run's backward, 224 KiB with
# the experts also FSDP-sharded (dp > ep, two FSDP meshes in one unit: 2.2% of this toy peak) and 0 or 32 KiB from
# one gloo run to the next with dp == ep (timing of gloo's asynchronous collectives); forward and baseline are exact.
UNEXPLAINED = {"fsdp2-mp-noreshard": 0.10, "fsdp4-ep2": 0.03, "fsdp2-ep2": 0.03}


def test_fake_group_traces_match_real_multi_process_runs():
    """One rank on the fake group vs 2 and 4 gloo processes with real CPU tensors (every rank compared)."""
    data = json.loads(CROSSCHECK.read_text())
    assert {2, 4} <= {case["world"] for case in data["cases"]} and len(data["cases"]) >= 10
    exact = 0
    for case in data["cases"]:
        case_exact = True
        for rank in case["ranks"]:
            fake, real = rank["fake_group"], rank["real_gloo"]
            # everything alive at the start of the step and at the end of its forward agrees to the byte
            assert fake["baseline_bytes"] == real["baseline_bytes"], (case["id"], rank["rank"])
            assert fake["forward_end_bytes"] == real["forward_end_bytes"], (case["id"], rank["rank"])
            for phase, value in real["phases"].items():
                extra = value - fake["phases"][phase]
                case_exact &= extra == 0
                assert extra >= 0, (case["id"], rank["rank"], phase)  # gloo only ever adds its own buffers
                if case["id"] in UNEXPLAINED:
                    assert extra <= UNEXPLAINED[case["id"]] * value
                elif case["id"].startswith("pp"):
                    assert extra % PIPELINE_MESSAGE == 0 and extra <= 5 * PIPELINE_MESSAGE, (case["id"], phase)
                else:
                    assert extra <= GLOO_SCALARS, (case["id"], rank["rank"], phase)
        exact += case_exact
    assert exact >= 5  # FSDP2 bf16 (with checkpointing, tied), DDP, TP and PP 1F1B agree to the byte on every rank


def test_the_last_context_parallel_rank_is_reported_as_traced():
    """Issue 10: every rank that differs is reported. The traces record the first and the last cp rank
    (tests/data/ground_truth/distributed/*cp*); the last one is lighter where the ring copies its output."""
    from engine import estimate, scenario_from_dict

    checked = differing = 0
    folder = Path(__file__).resolve().parent / "data" / "ground_truth" / "distributed"
    for path in sorted(folder.glob("*cp*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        ranks = data["measured"]["ranks"]
        last = max(ranks, key=lambda r: r["rank"])
        est = estimate(scenario_from_dict(data["scenario"]))
        others = {o.ranks: o.estimate for o in est.other_ranks}
        assert list(others) == ["the last context-parallel rank of each group"], path
        shown = others["the last context-parallel rank of each group"].peak_allocated_bytes
        assert abs(shown / last["peak_allocated_bytes"] - 1) < 0.005, (path, shown, last)
        differing += last["peak_allocated_bytes"] != ranks[0]["peak_allocated_bytes"]
        checked += 1
    assert checked >= 10 and differing >= 4


def test_torchtitan_sequence_parallel_plan_is_traced():
    """Issue 24 item 7: torchtitan's TP + SP plan (PrepareModuleInput gathers each block's input once for q/k/v and
    once for w1/w3; torchtitan/models/llama3/infra/parallelize.py apply_tp) in pure bf16 with the logits gathered to
    every rank, traced at tp 2, 4 and 8, with FSDP and at 16 layers (validation/scenarios_distributed.py
    titan_sp_runs). Counting one gathered copy per linear, as a plain per-linear plan keeps, put these 4-7% high
    phase by phase; every phase is now within 1%."""
    titan = [r for r in ROWS if r.id.endswith("-titan")]
    assert len(titan) >= 10 and {"TP + SP", "2-D FSDP x TP"} <= {r.kind for r in titan}
    assert any(r.id.endswith("tp2-sp-titan") for r in titan) and any(r.id.endswith("tp4-sp-titan") for r in titan)
    for row in titan:
        for rank in row.ranks:
            for phase in ("forward", "backward", "optimizer"):
                assert abs(rank.phase_error(phase)) <= 0.01, (row.id, phase)
