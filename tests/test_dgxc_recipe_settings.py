"""dgxc-benchmarking rows whose settings come from the code their release launches rather than the README's table
(h-dgxc; NVIDIA/dgxc-benchmarking, each commit below):

- release v24.11.1 (35a9aecc8d5b17d99d80f52f38c75ade0dbab7ae): nemo_megatron/launch.sh (GPT-3 175B) and the 340b branch
  of nemotron/configure.sh (Nemotron-4 340B) export NVTE_FUSED_ATTN=0, so Transformer Engine's DotProductAttention runs
  FlashAttention-2 from the container's flash-attn package, not cuDNN's fused attention: attention_kernel flash2;
- release v25.02.02 (5f23b67bd09ab70916a18f30508bda8ae3b98d96): nemo_megatron/gpt3_175b_hydra.yaml sets
  virtual_pipeline_model_parallel_size: 6 (12 in v24.11.1; the README tables' titles still say VP=12) and
  configure.sh does not override it: vpp 6.
"""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows
from engine.scenario import scenario_from_dict
from engine.timing import step_time


def _rows(prefix: str) -> list[dict]:
    return [r for r in load_rows() if r["id"].startswith(prefix)]


def test_24_11_1_gpt3_and_nemotron_340b_run_flashattention_2():
    for prefix in ("dgxc-24.11.1-nemo-megatron-", "dgxc-24.11.1-nemotron4-340b-"):
        rows = _rows(prefix)
        assert len(rows) == 10  # 5 GPU counts x bf16 and fp8, the README tables
        assert all(r["scenario"]["attention_kernel"] == "flash2" for r in rows)
        assert all("NVTE_FUSED_ATTN=0" in r["notes"] for r in rows)
    # the other releases' recipes leave cuDNN on (25.02.02's configure.sh exports NVTE_FUSED_ATTN=1)
    assert all("attention_kernel" not in r["scenario"] for r in _rows("dgxc-25.02.02-nemo-megatron-"))


def test_25_02_02_gpt3_runs_six_virtual_stages():
    rows = _rows("dgxc-25.02.02-nemo-megatron-")
    assert len(rows) == 10
    assert all(r["scenario"]["vpp"] == 6 and r["scenario"]["pp"] == 8 for r in rows)
    assert all(r["scenario"]["vpp"] == 12 for r in _rows("dgxc-24.11.1-nemo-megatron-"))


def test_flashattention_2_costs_the_gpt3_row_time():
    """The same row with Transformer Engine's default (cuDNN) attention is faster: FlashAttention-2 runs Hopper's
    attention at 0.326 of peak against cuDNN's 0.527 (presets/efficiency.json attention_fraction_of_bf16_peak,
    FlashAttention-3 paper figures)."""
    [row] = [r for r in _rows("dgxc-24.11.1-nemo-megatron-24-11-fp8-") if r["id"].endswith("-128-gbs256")]
    flash2 = step_time(scenario_from_dict(row["scenario"])).step_seconds
    cudnn = step_time(scenario_from_dict({**row["scenario"], "attention_kernel": "auto"})).step_seconds
    assert flash2 > cudnn


def test_25_04_02_llama_70b_layouts_are_the_recipes():
    """v25.04.02 (0efdb235) launches NeMo's scripts.performance.llm.pretrain_llama31 with its own llama31_utils.py:
    llama31_auto_configs gives 70b TP 4, PP 4, CP 2, VP 5, MBS 1, GBS = 2 x GPUs, and for fp8 only PP 8 and CP 1 (VP
    stays 5), so GA = GBS / DP = 64 in both; the container is the launch.sh FW_VERSION, nemo:25.02.01."""
    rows = _rows("dgxc-25.04.02-llama-3-1-70b-")
    assert len(rows) == 12  # 6 GPU counts (64 to 2,048) x bf16 and fp8, the README tables
    for r in rows:
        s = r["scenario"]
        fp8 = s["precision"] == "fp8"
        assert (s["tp"], s["pp"], s["cp"], s["vpp"], s["micro_batch"]) == ((4, 8, 1, 5, 1) if fp8 else (4, 4, 2, 5, 1))
        assert s["grad_accum"] == 64  # GBS 2 x GPUs over DP = GPUs / 32, MBS 1
        assert "llama31_auto_configs" in r["notes"] and "FW_VERSION=25.02.01" in r["notes"]


def test_24_11_1_nemotron_rows_state_the_recipes_userbuffers_overlap():
    """v24.11.1's nemotron/configure.sh (35a9aec) line 97 passes model.ub_tp_comm_overlap=True to every run, the 15B's
    and the 340B's (over the 340B YAML's ub_tp_comm_overlap: False), so the rows state tp_comm_overlap true where they
    had said 'Megatron's defaults assumed'; the 340B branch also sets overlap_p2p_comm=True and batch_p2p_comm=False
    (lines 77-78). Megatron's profile already meant userbuffers by "auto" (engine/frameworks/defaults.py), so stating it
    leaves the rows' time as it was."""
    rows = _rows("dgxc-24.11.1-nemotron4-")
    assert len(rows) == 26  # 15B: 8 GPU counts, 340B: 5, each bf16 and fp8 (README_15b.md, README_340b.md)
    for r in rows:
        assert r["scenario"]["tp_comm_overlap"] is True
        assert "model.ub_tp_comm_overlap=True" in r["notes"]
        assert ("overlap_p2p_comm=True" in r["notes"]) == ("-340b-" in r["id"])
    [row] = [r for r in rows if r["id"].endswith("-bf16-tp-8-pp-8-mbs-1-ga-16-vp-12-h100-sxm-80gb-128-gbs32")]
    stated = step_time(scenario_from_dict(row["scenario"])).step_seconds
    auto = step_time(scenario_from_dict({**row["scenario"], "tp_comm_overlap": "auto"})).step_seconds
    assert stated == auto
