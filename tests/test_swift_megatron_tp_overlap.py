"""ms-swift's Megatron path leaves --tp_comm_overlap off (modelscope/ms-swift swift/megatron/argument/megatron_args.py
`tp_comm_overlap: bool = False`, line 174 at 3bbc7fe43, line 184 at a161d54d4; swift/megatron/arguments/
megatron_args.py line 607 at 3602360a), where the megatron row's "auto" is on (NVIDIA's recipes run userbuffers):
an imported `megatron rlhf|sft` script states it false unless it sets it, and the ms-swift example rows say so."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.configs import import_texts
from engine.workloads import step_time

SCRIPT = ("NPROC_PER_NODE=4 megatron rlhf --rlhf_type dpo --model Qwen/Qwen3-4B-Instruct-2507 "
          "--tensor_model_parallel_size 4 --sequence_parallel true --micro_batch_size 1 --global_batch_size 4 {flag}\n")


def test_a_megatron_swift_script_states_ms_swifts_tp_comm_overlap_default() -> None:
    unset = import_texts([("dpo.sh", SCRIPT.format(flag=""))])
    assert unset.scenario["tp_comm_overlap"] is False
    assert any(a.key == "tp_comm_overlap" for a in unset.assumed)  # assumed from the default, said so
    assert import_texts([("dpo.sh", SCRIPT.format(flag="--tp_comm_overlap true"))]).scenario["tp_comm_overlap"] is True
    stated_off = import_texts([("dpo.sh", SCRIPT.format(flag="--tp_comm_overlap false"))])
    assert stated_off.scenario["tp_comm_overlap"] is False and not any(
        a.key == "tp_comm_overlap" for a in stated_off.assumed)


def test_the_ms_swift_example_rows_run_without_userbuffers_and_expose_more_tp_collectives() -> None:
    rows = [r for r in ptt.read_rows() if r["id"].startswith("ms-swift-example-time-megatron")]
    assert len(rows) == 3 and all(r["scenario"]["tp_comm_overlap"] is False for r in rows)
    packing = next(r for r in rows if "qwen3-4b" in r["id"])["scenario"]
    off = step_time(scenario_from_dict(packing))
    on = step_time(scenario_from_dict({**packing, "tp_comm_overlap": "auto"}))
    # TP 4 with sequence parallelism: without userbuffers more of the all-gathers / reduce-scatters are exposed
    assert sum(off.phase_seconds.values()) > sum(on.phase_seconds.values())
