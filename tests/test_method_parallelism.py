"""What a framework runs depends on the training method too (engine/frameworks/parallelism.py Parallelism.methods, each
fact with its source): the issue's case is a Hugging Face QLoRA job on two RTX 4090s whose first plan was "use tensor
parallelism tp=2 with sequence parallelism", which the Hugging Face stack cannot run over a 4-bit bitsandbytes base.

The sources the expected values come from (the row's own source strings, read by the tests below):
- bitsandbytes 95f9af309d4d _ops.py line 235: quantize_4bit packs a weight into one column with one quant_state;
  transformers v4.57.1 quantizer_bnb_4bit.py create_quantized_param ignores the sharding arguments
  modeling_utils.py lines 718-746 hand it; transformers v5.25.0 has a quantized tensor-parallel path only for
  torchao and fine-grained FP8: Hugging Face and Unsloth QLoRA run no tp.
- peft 5d602fdbff04 docs/source/accelerate/fsdp.md and deepspeed.md: FSDP-QLoRA and ZeRO-3 QLoRA run (the published
  peft-docs-fsdp-qlora-* and peft-docs-deepspeed-z3-qlora-* rows); docs/source/package_reference/lora.md: LoRA runs
  over a tp_plan base.
- torchtune bd2a0fc7c314 recipes/lora_finetune_distributed.py lines 157-160: no tensor parallelism for LoRA or QLoRA.
- Megatron-Bridge 067f987df03b peft/lora.py: LoRA over Megatron-Core's tensor-parallel linears, with a pipeline.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import TABLE, defaults_for
from engine.frameworks.parallelism import ALL_SCHEDULES, FSDP
from engine.planning.solver import plan_search
from engine.planning.speed_search import speed_search
from engine.scenario.framework_support import cannot_run, framework_runs, unsupported_settings
from engine.scenario.runnable import runnable_layouts

PUBLISHED_MEMORY = Path(__file__).parent / "data" / "published" / "published.json"
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b|\bv\d+\.\d+\.\d+\b")
# the issue's scenario (the brief's /tmp/u2.json)
U2 = {"schema_version": 1, "model": "llama-3-70b", "gpu": "rtx-4090", "gpus_per_node": 2, "nodes": 1,
      "framework": "huggingface", "method": "qlora", "precision": "bf16", "micro_batch": 1, "grad_accum": 16,
      "seq_len": 2048, "checkpointing": "full"}
QLORA_TP = ("Hugging Face (Trainer / TRL / accelerate) cannot shard a 4-bit QLoRA base by tensor parallelism: tp 2 "
            "cannot run in it.")
H100X8 = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1,
          "precision": "bf16", "micro_batch": 1, "grad_accum": 4, "seq_len": 4096, "lora_rank": 16,
          "lora_targets": "all-linear"}


def _plans(result) -> list:
    return [*result.plans, *result.changes_what_you_train]


def test_every_restricted_method_fact_names_its_source_at_a_commit():
    for fid, row in TABLE.items():
        for method, limits in row.parallelism.methods:
            restricted = {"pipeline schedules": limits.pp_schedules != ALL_SCHEDULES, "ZeRO": limits.max_zero < FSDP,
                          "ZeRO with PP": limits.max_zero_with_pp < FSDP, "tensor": not limits.tensor,
                          "context": not limits.context, "expert": not limits.expert}
            for fact in (f for f, on in restricted.items() if on):
                found = [where for what, where in limits.sources if fact in what.split(", ")]
                assert found and COMMIT.search(found[0]), (fid, method, fact)


def test_hugging_face_qlora_runs_no_tensor_parallelism_but_lora_does():
    hf = defaults_for("huggingface").parallelism
    assert hf.cannot_run(2, 1, "1f1b", 1, 1, 0, "qlora") == ("tp",)  # the 4-bit base (bitsandbytes _ops.py 235)
    assert hf.cannot_run(2, 1, "1f1b", 1, 1, 0, "lora") == ()  # peft lora.md "Tensor Parallelism"
    assert hf.cannot_run(1, 1, "1f1b", 1, 1, FSDP, "qlora") == ()  # peft fsdp.md: FSDP-QLoRA
    tensor = [where for what, where in hf.method_limits("qlora").sources if what == "tensor"][0]
    assert "quantize_4bit" in tensor and "95f9af309d4d" in tensor and "create_quantized_param" in tensor


def test_the_issues_qlora_case_gets_no_tensor_parallel_plan():
    s = scenario_from_dict(U2)
    plans = plan_search(s).plans
    assert plans, "a runnable plan exists: FSDP-QLoRA / ZeRO-3 (peft fsdp.md, deepspeed.md)"
    assert all(p.scenario.tp == 1 and framework_runs(p.scenario) for p in plans)
    # ZeRO-3 / FSDP is what the Hugging Face stack shards a 4-bit base with, and peft's 70B on 2 x 24 GB offloads the
    # weights too (peft 5d602fdbff04 docs/source/accelerate/fsdp.md lines 169-181 fsdp_offload_params, line 275)
    assert any(p.scenario.effective_zero == 3 for p in plans)
    assert any(p.scenario.offload == "optimizer+params" and p.scenario.effective_zero == 3
               and p.scenario.world_size == 2 for p in plans)
    # QLoRA now shards with ZeRO-3 on more GPUs too (limits.with_gpus), which the solver ranks before offloading the
    # weights (more GPUs cost 9.0, weight offload 14.0, as for every method): 4 x 24 GB without offload at micro-batch
    # 1 and 2,048 tokens is a layout Answer.AI ran for Llama 2 70B (AnswerDotAI/fsdp_qlora 23fafdfb4af4
    # benchmarks_03_2024.md, 'A5000 24GB | 4 | False | 1')
    assert plans[0].scenario.world_size == 4 and plans[0].scenario.effective_zero == 3
    assert plans[0].scenario.offload == "none"
    fast = _plans(speed_search(s))
    assert fast and all(p.scenario.tp == 1 and framework_runs(p.scenario) for p in fast)


def test_a_typed_hugging_face_qlora_tp_layout_warns_and_folds_into_data_parallelism():
    s = scenario_from_dict({**U2, "tp": 2, "sequence_parallel": True})
    assert cannot_run(s) == ("tp",)
    assert [str(m) for m in unsupported_settings(s)] == [QLORA_TP]
    assert QLORA_TP in [str(w) for w in estimate(s).warnings]  # a warning, the estimate still made
    (lay,) = runnable_layouts(s)
    # tp 2 folded into dp 2: the global batch kept (micro 1 x grad_accum 16 x dp 1 = 1 x 8 x dp 2)
    assert lay.changes == {"tp": 1, "sequence_parallel": False, "grad_accum": 8}
    assert [str(m) for m in lay.reasons] == [QLORA_TP] and framework_runs(lay.scenario)
    # the same layout under LoRA runs (peft lora.md): no warning
    assert cannot_run(scenario_from_dict({**U2, "method": "lora", "tp": 2, "sequence_parallel": True})) == ()


def test_torchtune_lora_and_qlora_name_the_method():
    # torchtune bd2a0fc7c314 lora_finetune_distributed.py lines 157-160; its full fine-tune recipe has tensor_parallel_dim
    label = defaults_for("torchtune").label
    for method, name in (("lora", "LoRA"), ("qlora", "QLoRA")):
        s = scenario_from_dict({**H100X8, "framework": "torchtune", "method": method, "tp": 2, "fsdp": True})
        assert cannot_run(s) == ("tp",)
        assert [str(m) for m in unsupported_settings(s)] == [
            f"{label} runs no tensor parallelism with {name}: tp 2 cannot run in it."]
    assert cannot_run(scenario_from_dict({**H100X8, "framework": "torchtune", "method": "full", "tp": 2})) == ()


def test_megatron_lora_keeps_its_tensor_and_pipeline_plans():
    """Megatron-Bridge runs LoRA with TP and PP (peft/lora.py; the published megatron-bridge-*-lora-* runs)."""
    s = scenario_from_dict({**H100X8, "model": "llama-3-70b", "framework": "megatron", "method": "lora",
                            "grad_accum": 32})
    result = speed_search(s)
    assert result.plans and any(lay["tp"] > 1 for lay in result.ranked) and any(lay["pp"] > 1 for lay in result.ranked)
    assert any(p.scenario.tp > 1 or p.scenario.pp > 1 for p in result.plans)


def test_the_searchs_qlora_variant_runs_under_hugging_face():
    """The throughput search tries QLoRA on the full fine-tune's best layouts: only those Hugging Face runs with it."""
    # Llama 3.1 8B on 8 A100-40GB: the full fine-tune's best layouts were tp 2, and before the method's facts the
    # QLoRA variant came out as tp 2 too. On 8 GPUs QLoRA is no longer listed since a full fine-tune layout is as
    # fast with no more memory (speed_search._worth_changing); on 4 the full fine-tune's best layouts include tp 4
    # and tp 2 and QLoRA is listed, at tp 1
    s = scenario_from_dict({**H100X8, "gpu": "a100-40gb", "gpus_per_node": 4, "framework": "huggingface",
                            "method": "full", "grad_accum": 8})
    result = speed_search(s)
    assert all(framework_runs(p.scenario) for p in _plans(result))
    qlora = [p.scenario for p in result.changes_what_you_train if p.scenario.method == "qlora"]
    assert qlora and all(q.tp == 1 for q in qlora)


def test_no_published_run_is_flagged_with_its_method():
    """Every published row ran (or ran out of memory) in its framework, with its method: the throughput rows and the
    memory rows (LoRA and QLoRA with FSDP and ZeRO-3 among them)."""
    memory = json.loads(PUBLISHED_MEMORY.read_text())
    assert any(r["scenario"].get("method") == "qlora" and r["scenario"].get("fsdp") for r in memory)
    rows = [*load_rows(), *memory]
    flagged = [r["id"] for r in rows if cannot_run(scenario_from_dict(r["scenario"]))]
    assert flagged == []


def test_limits_count_what_the_method_runs() -> None:
    """The limits read the method's row (framework_support.capabilities, Parallelism.for_method): Hugging Face QLoRA
    runs neither tensor parallelism (bitsandbytes 95f9af309d4d _ops.py line 235: a 4-bit weight is one packed
    column) nor a pipeline (accelerate 16cb6eb80 ParallelismConfig has no pipeline dimension), so its TP/PP limit does
    not exist."""
    from engine.planning.limits import counted

    qlora = scenario_from_dict({"schema_version": 1, "model": "llama-3-70b", "gpu": "rtx-4090", "gpus_per_node": 2,
                                "framework": "huggingface", "method": "qlora", "precision": "bf16"})
    assert counted(qlora, "tp_pp") is None
    assert counted(qlora.replace(method="lora"), "tp_pp") == "tp"  # LoRA keeps accelerate's tp_size


def test_a_word_inside_a_warning_is_translated_with_it() -> None:
    """The method's name in a warning is a message of its own (framework_support._METHOD_NAMES "frozen layers"):
    the window translates it with the sentence, and JSON gives its English text."""
    from engine.messages import message, message_json

    inner = message("frozen layers")
    outer = message("{framework} runs no tensor parallelism with {method}: tp {tp} cannot run in it.",
                    framework="F", method=inner, tp=2)
    catalogue = {"frozen layers": "冻结层", outer.template: "{framework} 在 {method} 下不支持张量并行：tp {tp}"}
    assert outer.format_with(lambda text: catalogue.get(text, text)) == "F 在 冻结层 下不支持张量并行：tp 2"
    assert message_json(outer)["params"]["method"] == "frozen layers"
