"""The Zero Bubble Pipeline Parallelism part file (arXiv:2401.10241, tests/data/published/throughput/
zero-bubble-2024.json): each 1F1B / interleaved 1F1B / ZB-1p / ZB-2p row agrees with the figures the paper prints
(samples per GPU per second, Table 3's model and settings), so a transcription slip shows."""

import json
from pathlib import Path

PART = Path(__file__).parent / "data" / "published" / "throughput" / "zero-bubble-2024.json"
SEQ_LEN = 1024  # arXiv:2401.10241 Table 3: sequence length 1024 for every model
# Table 3: layers, attention heads, hidden size, micro-batch size of Table 4 (the main results)
TABLE3 = {"1.5B": (22, 24, 2304, 6), "6.2B": (30, 32, 4096, 3), "14.6B": (46, 40, 5120, 1), "28.3B": (62, 48, 6144, 1)}
# Table 4: the 1F1B and 1F1B-I samples per GPU per second, by model and number of micro-batches
TABLE4 = {
    "1.5B": {24: (11.8, 13.1), 32: (12.5, 13.4), 64: (13.6, 13.9)},
    "6.2B": {24: (3.50, 4.01), 32: (3.70, 4.08), 64: (4.03, 4.19)},
    "14.6B": {48: (1.40, 1.54), 64: (1.49, 1.59), 128: (1.64, 1.66)},
    "28.3B": {96: (0.76, 0.82), 128: (0.80, 0.85), 256: (0.88, 0.90)},
}

# Table 4: the ZB-2p and ZB-1p samples per GPU per second and memory (GB), by model and number of micro-batches
TABLE4_ZB = {
    "1.5B": {24: (14.5, 12.9), 32: (14.8, 13.4), 64: (14.9, 14.2), "GB": (59, 32)},
    "6.2B": {24: (4.32, 3.88), 32: (4.35, 4.00), 64: (4.39, 4.20), "GB": (70, 42)},
    "14.6B": {48: (1.81, 1.61), 64: (1.83, 1.67), 128: (1.85, 1.76), "GB": (51, 33)},
    "28.3B": {96: (0.99, 0.87), 128: (1.00, 0.90), 256: (1.00, 0.96), "GB": (74, 44)},
}


def _rows() -> list[dict]:
    return json.loads(PART.read_text(encoding="utf-8"))["rows"]


def _model_name(row: dict) -> str:
    return row["scenario"]["model"]["name"].removeprefix("GPT-").split()[0]


def test_every_row_is_the_printed_samples_per_gpu_per_second_times_the_sequence():
    for r in _rows():
        assert abs(r["measured"] - r["reported"]["samples_per_gpu_per_second"] * SEQ_LEN) < 0.05, r["id"]
        assert r["source"].startswith("arXiv:2401.10241 ")  # source_of() makes the paper its own source


def test_table4_rows_are_every_1f1b_and_1f1b_i_run_of_the_main_results():
    table4 = [r for r in _rows() if "Table 4 " in r["source"] and not r["scenario"]["pp_schedule"].startswith("zb-")]
    assert len(table4) == 24  # 4 models x 3 micro-batch counts x (1F1B, 1F1B-I)
    for r in table4:
        sc, name = r["scenario"], _model_name(r)
        printed = TABLE4[name][sc["grad_accum"]][1 if sc["pp_schedule"] == "interleaved-1f1b" else 0]
        assert r["reported"]["samples_per_gpu_per_second"] == printed, r["id"]
        assert sc["micro_batch"] == TABLE3[name][3], r["id"]


def test_scenarios_state_table3_shapes_and_pure_pipeline_layouts():
    for r in _rows():
        sc, rep, name = r["scenario"], r["reported"], _model_name(r)
        layers, heads, hidden, _ = TABLE3[name]
        hf = sc["model"]["hf_config"]
        assert (hf["n_layer"], hf["n_head"], hf["n_embd"], hf["n_inner"]) == (layers, heads, hidden, 4 * hidden)
        assert sc["seq_len"] == SEQ_LEN
        # Table 3 'Pipelines (GPUs)': every GPU is a pipeline stage, so TP 1 and DP 1
        assert sc["pp"] == rep["gpus"] == sc["nodes"] * sc["gpus_per_node"] and sc["tp"] == 1, r["id"]
        assert (sc["micro_batch"], sc["grad_accum"]) == (rep["micro_batch"], rep["micro_batches"]), r["id"]
        # section 5.1: the first and last stages hold one layer fewer; the fork pads layers + 2 to a multiple of PP
        assert (layers + 2) % sc["pp"] == 0 and sc["pipeline_split_accounts_for"] == ["embedding", "loss"], r["id"]
        if sc["pp_schedule"] == "interleaved-1f1b":  # 'each transformer layer serves as a chunk'
            assert sc["vpp"] == (layers + 2) // sc["pp"], r["id"]


def test_the_vocabulary_reproduces_the_printed_model_sizes():
    # Table 3 names the models by size; 12 l h^2 (decoder layers) + V h (tied embedding), in billions, rounds to it
    for r in _rows():
        hf = r["scenario"]["model"]["hf_config"]
        size = 12 * hf["n_layer"] * hf["n_embd"] ** 2 + hf["vocab_size"] * hf["n_embd"]
        assert f"{size / 1e9:.1f}B" == _model_name(r), r["id"]


def test_table4_zero_bubble_rows_are_every_zb_1p_and_zb_2p_run_of_the_main_results():
    table4 = [r for r in _rows() if "Table 4 " in r["source"] and r["scenario"]["pp_schedule"].startswith("zb-")]
    assert len(table4) == 24  # 4 models x 3 micro-batch counts x (ZB-2p, ZB-1p)
    for r in table4:
        sc, name, rep = r["scenario"], _model_name(r), r["reported"]
        column = 0 if sc["pp_schedule"] == "zb-2p" else 1
        assert rep["samples_per_gpu_per_second"] == TABLE4_ZB[name][sc["grad_accum"]][column], r["id"]
        assert rep["memory_gb"] == TABLE4_ZB[name]["GB"][column], r["id"]
        assert sc["micro_batch"] == TABLE3[name][3], r["id"]


def test_zero_bubble_rows_are_twins_of_their_1f1b_rows_but_for_the_schedule():
    """A ZB row is its table's 1F1B run with the fork's zero-bubble flags: the same scenario but for the schedule (and
    ZB-2p*'s micro-batch split); --enable-zero-bubble asserts no distributed optimizer (megatron/arguments.py at
    f68d3879), so ZeRO stays 0."""
    rows = _rows()
    plain = {(_model_name(r), r["reported"]["gpus"]): r["scenario"] for r in rows if r["scenario"]["pp_schedule"] == "1f1b"}
    ignored = {"name", "pp_schedule", "micro_batch", "grad_accum"}
    zb = [r for r in rows if r["scenario"]["pp_schedule"].startswith("zb-")]
    assert len(zb) == 63  # Tables 4 (24), 6 (18), 7 (2), 11 (10), 12 (9)
    for r in zb:
        sc = r["scenario"]
        twin = plain[(_model_name(r), r["reported"]["gpus"])]
        assert {k: v for k, v in sc.items() if k not in ignored} == {k: v for k, v in twin.items() if k not in ignored}
        assert sc["zero_stage"] == 0 and ("--enable-zero-bubble" in r["notes"]), r["id"]
