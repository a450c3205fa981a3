"""Fields of published rows corrected by the audit of the worst rows (issue 23), each held with the source it came from.

Megatron-Bridge's 25.11 table (NVIDIA-NeMo/Megatron-Bridge docs/fern/versions/0.4.2/pages/performance-summary-archive.mdx
at 067f987d) was run with Megatron-Bridge v0.2.0 (docs/releases/software-versions.md at 067f987d), whose performance
presets live in scripts/performance/configs/<model>/workload_base_configs.py at v0.2.0 (7af9601c):

- GPT_OSS_120B_B200_BF16_BASE_CONFIG = replace(BASE_GPT_OSS_120B_CONFIG, expert_model_parallel_size=64,
  micro_batch_size=4, recompute_modules=["layernorm", "moe_act"]), BASE global_batch_size=512: the release's one B200
  preset, whose every other field is the table's row (which prints EP 8);
- QWEN3_30B_A3B_H100_FP8_CS_BASE_CONFIG: pipeline_model_parallel_size=2, virtual_pipeline_model_parallel_size=12,
  moe_a2a_overlap=True, no moe_flex_dispatcher_backend (so the provider's default, qwen_provider.py line 395 at v0.2.0:
  moe_token_dispatcher_type "alltoall") and no cuda_graph_impl.
"""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows


def _row(row_id: str) -> dict:
    [row] = [r for r in load_rows() if r["id"] == row_id]
    return row


def test_gpt_oss_b200_25_11_runs_the_release_preset_expert_parallelism():
    row = _row("megatron-bridge-25.11-gpt_oss_120b-dgx-b200-bf16-64")
    s = row["scenario"]
    assert s["ep"] == 64
    assert (s["micro_batch"], s["grad_accum"], s["nodes"] * s["gpus_per_node"]) == (4, 2, 64)  # GBS 512 = 4 x 2 x 64
    assert s["recompute_modules"] == ["layernorm", "moe_act"]
    assert "expert_model_parallel_size=64" in row["notes"]
    assert "prints EP 8" in row["uncertain"]


def test_qwen3_30b_h100_25_11_runs_the_release_dispatcher_and_overlap():
    row = _row("megatron-bridge-25.11-qwen3_30b_a3b-dgx-h100-fp8-cs-16")
    s = row["scenario"]
    assert s["moe_token_dispatcher_type"] == "alltoall"
    assert s["moe_a2a_overlap"] is True
    assert s["cuda_graphs"] == "none"
    # the layout stays the table's (MBS 2, VP 24, the 25.09 perf matrix's), not the preset's MBS 1, VP 12
    assert (s["micro_batch"], s["vpp"], s["pp"], s["ep"]) == (2, 24, 2, 8)
    assert "moe_token_dispatcher_type: str = \"alltoall\"" in row["notes"]
    assert "moe_a2a_overlap=True" in row["notes"]


def test_release_regressions_are_stated_with_both_figures():
    """Rows whose settings are the table's and the preset's but which measure 1.5-2x below an adjacent release's run
    of the same settings keep both figures in their notes (the tables' own numbers)."""
    pairs = {
        "megatron-bridge-26.02-qwen3_30b_a3b-dgx-h100-fp8-16": ("5,113", "9,058"),
        "megatron-bridge-25.11-qwen3_30b_a3b-dgx-h100-fp8-cs-16": ("5,275", "10,494"),
        "megatron-bridge-25.11-qwen3_30b_a3b-dgx-b200-fp8-mx-8": ("9,299", "18,066"),
        "megatron-bridge-26.02-qwen3_30b_a3b-dgx-b200-mxfp8-8": ("9,691", "18,066"),
        "megatron-bridge-26.06.01-pretraining-gpt_oss_120b-dgx-gb300-mxfp8-64": ("20,288", "33,166"),
        "megatron-bridge-26.06.01-pretraining-gpt_oss_120b-dgx-gb200-mxfp8-64": ("18,304", "28,947"),
    }
    for row_id, (own, other) in pairs.items():
        row = _row(row_id)
        assert f"{row['measured']:,.0f}" == own, row_id
        assert own in row["notes"] and other in row["notes"] and "regression" in row["notes"], row_id


def test_ms_swift_qwen3_30b_row_keeps_the_script_allocator_setting():
    """modelscope/ms-swift docs/source_en/BestPractices/Qwen3-Best-Practice.md at 3602360a, section 'Megatron-SWIFT':
    the launch line sets PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'."""
    row = _row("ms-swift-megatron-qwen3-30b-a3b-16xa800-pp2-ep8")
    assert row["scenario"]["expandable_segments"] is True
    assert "expandable_segments:True" in row["notes"]


def test_gpt_oss_26_06_01_runs_26_06s_scenario_and_names_the_stack_change():
    """NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md at 067f987d prints the same 64 GPUs, MXFP8, GBS
    1280, MBS 4, 4096 tokens, TP/PP/CP 1 and EP 16 (GB300) / 64 (GB200) for 26.06 and 26.06.01, and v0.5.0 -> v0.5.1
    changes no GB200 / GB300 gpt_oss preset; the release's change on this path is ca4d0ffdb's nvidia-cudnn-frontend
    1.23.0 -> 1.24.0 (NVIDIA/cudnn-frontend issue 256, the table's footnote)."""
    for system in ("gb300", "gb200"):
        patch = _row(f"megatron-bridge-26.06.01-pretraining-gpt_oss_120b-dgx-{system}-mxfp8-64")
        base = _row(f"megatron-bridge-26.06-pretraining-gpt_oss_120b-dgx-{system}-mxfp8-64")
        differing = {k for k in patch["scenario"] if patch["scenario"][k] != base["scenario"].get(k)}
        assert differing == {"name"}, system
        assert "1.23.0 -> 1.24.0" in patch["notes"] and "ca4d0ffdb" in patch["notes"], system
        assert "0.5.1 (latest)" in patch["uncertain"], system
