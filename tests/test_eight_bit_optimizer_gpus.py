"""bitsandbytes' 8-bit AdamW is offered only where bitsandbytes runs it. Its accelerator table at release 0.50.1
(bitsandbytes-foundation/bitsandbytes@37d2a938 README.md 'Accelerator support'): 8-bit optimizers on NVIDIA and AMD
GPUs, not on Intel Gaudi (hpu: not supported) nor Apple's Metal (mps: planned); QLoRA 4-bit on all of them (Gaudi
partly, bitsandbytes/backends/mps/ops.py registers quantize_4bit / dequantize_4bit / gemm_4bit for "mps"), so a
Mac is still offered QLoRA (user audit 7 asked whether it should be)."""

from engine.models.presets import get_gpu
from engine.planning.search_candidates import method_variants
from engine.planning.solver import plans
from engine.planning.suggest import suggestions
from engine.scenario import scenario_from_dict

# a 7B full fine-tune that fits neither a 64 GB Mac nor one H100: the optimizer is among what would make it fit
FULL_7B = {"schema_version": 1, "name": "Qwen2.5 7B full fine-tune", "model": "qwen2.5-7b", "method": "full",
           "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 2048, "checkpointing": "full"}


def _changes(items) -> list[dict]:
    return [dict(i.changes) for i in items]


def test_the_gpu_fact_follows_bitsandbytes_table():
    assert get_gpu("h100-sxm-80gb").runs_bnb_8bit_optimizers
    assert get_gpu("mi300x").runs_bnb_8bit_optimizers
    assert not get_gpu("apple-m4-max-64gb").runs_bnb_8bit_optimizers
    assert not get_gpu("gaudi2").runs_bnb_8bit_optimizers


def test_a_mac_is_offered_no_8bit_adamw_but_still_qlora():
    mac = scenario_from_dict({**FULL_7B, "gpu": "apple-m4-max-64gb"})
    assert not any(c.get("optimizer") == "adamw-8bit" for c in _changes(suggestions(mac)))
    assert not any(c.get("optimizer") == "adamw-8bit" for c in _changes(plans(mac)))
    assert not any(v.optimizer == "adamw-8bit" for v in method_variants(mac))
    assert any(v.method == "qlora" for v in method_variants(mac))
    lora = scenario_from_dict({**FULL_7B, "gpu": "apple-m4-max-64gb", "method": "lora", "precision": "bf16",
                               "micro_batch": 2, "checkpointing": "none"})
    assert any(c.get("method") == "qlora" for c in _changes(suggestions(lora)))


def test_an_h100_is_still_offered_the_8bit_adamw():
    h100 = scenario_from_dict({**FULL_7B, "gpu": "h100-sxm-80gb", "micro_batch": 8, "checkpointing": "none"})
    assert any(c.get("optimizer") == "adamw-8bit" for c in _changes(suggestions(h100)))
    assert any(v.optimizer == "adamw-8bit" for v in method_variants(h100))
