"""User audit 16 (finding h): the Megatron export of a FlashAttention plan listed the attention kernel as a setting
"not in this file", though Megatron-LM takes it: TransformerConfig.attention_backend is an AttnBackend (flash, fused,
unfused, local, auto; NVIDIA/Megatron-LM at d98e8a64 megatron/core/transformer/enums.py lines 51-58) turned into
--attention-backend by ArgumentGroupFactory (megatron/training/argument_utils.py lines 106, 109-118). flash writes
flash, eager writes unfused (Transformer Engine's UnfusedDotProductAttention, the whole softmax), sdpa leaves
Megatron's auto; each reads back as written (engine/configs/megatron.py) with the same bytes per GPU."""

import pytest

from engine import estimate, scenario_from_dict
from engine.configs.export_left_out import left_out_settings
from engine.configs.exporting import export_config
from engine.configs.importing import import_texts

PLAN = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "framework": "megatron",
        "precision": "mixed-bf16", "tp": 2, "pp": 2, "micro_batch": 1, "seq_len": 4096, "grad_accum": 128,
        "checkpointing": "none"}


@pytest.mark.parametrize(("attention", "written"), [("flash", "flash"), ("eager", "unfused"), ("sdpa", None)])
def test_the_attention_kernel_is_written_and_read_back(attention, written):
    s = scenario_from_dict({**PLAN, "attention": attention})
    words = export_config(s, "megatron").split()
    if written is None:
        assert "--attention-backend" not in words  # Megatron's auto: Transformer Engine picks its own kernel
    else:
        assert words[words.index("--attention-backend") + 1] == written
    assert "attention" not in left_out_settings(s, "megatron")
    back = scenario_from_dict({**PLAN, **import_texts([("train.sh", export_config(s, "megatron"))]).scenario})
    assert back.attention == attention
    assert estimate(back).total_bytes == estimate(s).total_bytes
