"""Within a tie the plainer plan comes first, counting the settings a plan changes as the plan lists name them
(issue 23 item 5, h-searchaudit): sequence parallelism comes with every searched TP layout (speed_search._layouts sets
sequence_parallel = tp > 1) and the lists do not name it, so it must not make a TP plan look one setting less plain."""

from engine import scenario_from_dict
from engine.planning.listing import named_changes
from engine.planning.speed_report import render_speed, speed_report
from engine.planning.speed_search import speed_search

# torchtune Llama 3.1 8B full fine-tune on 8 H100, FSDP, 4K tokens: the everyday job of the audit
TORCHTUNE_8B = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "torchtune",
                "micro_batch": 2, "seq_len": 4096, "attention": "flash", "checkpointing": "full", "zero_stage": 3,
                "fsdp": True}


def test_named_changes_leave_out_what_tp_brings():
    assert named_changes({"tp": 2, "sequence_parallel": True, "grad_accum": 2}) == ["tp", "grad_accum"]
    assert named_changes({"cp": 2, "micro_batch": 4}) == ["cp", "micro_batch"]


def test_context_parallel_at_4k_does_not_win_a_tie_through_sequence_parallel():
    """Before: TP 2 (7.62K tokens/s a GPU, 64 GiB) and CP 2 (7.62K, 78 GiB, micro-batch 4) tied within 1%; TP 2
    counted sequence_parallel as a fourth change, so the CP plan at 4,096 tokens, with 14 GiB more memory, came
    first. Now the TP plan comes first and the CP plan is left out as dominated (no faster, more memory, as many
    kinds of parallelism: speed_ranking._dominated)."""
    s = scenario_from_dict(TORCHTUNE_8B)
    plans = speed_search(s).plans
    tp = [i for i, p in enumerate(plans) if p.scenario.tp == 2 and p.scenario.cp == 1]
    cp = [i for i, p in enumerate(plans) if p.scenario.cp == 2 and p.scenario.tp == 1]
    assert tp
    for i in cp:  # a CP plan may stay only where it is faster or smaller than every TP plan above it
        for j in (j for j in tp if j < i):
            assert (plans[i].time.tokens_per_second > plans[j].time.tokens_per_second * 1.01
                    or plans[i].estimate.total_bytes < plans[j].estimate.total_bytes * 0.99)
    first_tp, first_cp = tp[0], (cp[0] if cp else len(plans))
    assert first_tp < first_cp


def test_the_report_still_hides_sequence_parallel():
    text = render_speed(speed_report(scenario_from_dict(TORCHTUNE_8B), max_plans=4))
    # in the set-up's words (user audit 6), as the window's rows: the tensor-parallel size named, sequence
    # parallelism (which follows it) not
    assert "Tensor parallel (TP): 2" in text and "Sequence parallel" not in text and "sequence_parallel" not in text
