"""An MLA rollout's decode attention is its own kernel after the layer's projections, as the serving step times it
(engine/serving/speed.py _decode_rooflines: FlashMLA's flash_mla_with_kvcache, bound by its FLOPs or its latent
reads, added after the weights' roofline), not hidden inside one max(reads, FLOPs) with the weights (review h-revd:
engine/posttraining/timing.py _generation had the combined roofline for every model)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining import timing
from engine.workloads import step_time


def _deepseek_v3():
    # NeMo-RL's DeepSeek-V3 GRPO row (tests/data/published/posttraining_time.json): vLLM TP 32, absorbed MLA decode
    return scenario_from_dict(next(r for r in ptt.read_rows()
                                   if r["id"] == "nemo-rl-perf-grpo-deepseek-v3-256xh100")["scenario"])


def test_an_mla_decode_adds_its_attention_kernel_after_the_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _deepseek_v3()
    # attention FLOPs made to outlast the latent reads and the weights: the separate kernel then costs the weights'
    # read on top of the attention, where one combined roofline would hide the read under the FLOPs
    monkeypatch.setattr(timing, "decode_attention_flops", lambda *a: 1e13)
    separate = dict(step_time(s).generation)["decode_step_seconds"]
    monkeypatch.setattr(timing, "mla_path", lambda *a: "")  # the combined roofline of a non-MLA model
    combined = dict(step_time(s).generation)["decode_step_seconds"]
    assert separate > combined

