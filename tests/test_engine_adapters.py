"""The punica kernels a vLLM engine serving a LoRA policy's adapters runs in each decode iteration
(engine/posttraining/engine_adapters.py): counts read in the vLLM 0.7.3 wheel (vllm/lora/punica_wrapper/punica_gpu.py
add_lora_linear / add_shrink / add_expand, vllm/lora/models.py _create_lora_modules, qwen2.py supported_lora_modules),
the Triton launch's host cost from triton-lang/triton pull request #3649 (15 us), the fill and views at
presets/host_overhead.json's figures. Expected values are recomputed from those counts, not typed in."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining import engine_adapters as ea
from engine.scenario import resolve_model
from engine.serving.kernel_fixed_time import SMALL_KERNEL_FIXED_SECONDS
from engine.timing.host import host_figures
from engine.workloads import step_time


def _row(suffix: str):
    row = next(r for r in ptt.read_rows() if r["id"].endswith(suffix))
    return scenario_from_dict(row["scenario"])


def test_the_counts_and_prices_are_the_sources() -> None:
    # Triton "Even faster jit" (#3649): 18 -> 15 us a launch; punica_gpu.py at 0.7.3: one torch.zeros buffer and three
    # views a linear (x.view, y.view, y.view_as), per slice bgmv_shrink + bgmv_expand_slice and four views (y[i], x[i]
    # and each kernel's squeeze of the 4-dimensional stack)
    assert ea.TRITON_LAUNCH_SECONDS == pytest.approx(15e-6)
    assert (ea.FILLS_PER_LINEAR, ea.VIEWS_PER_LINEAR) == (1, 3)
    assert (ea.TRITON_LAUNCHES_PER_SLICE, ea.VIEWS_PER_SLICE) == (2, 4)
    # qkv_proj (q, k, v slices) and o_proj; gate_up_proj (gate, up) and down_proj
    assert (ea.ATTENTION_LINEARS, ea.ATTENTION_SLICES, ea.MLP_LINEARS) == (2, 3 + 1, 2)


def test_the_7b_rows_eager_engine_launches_every_wrapped_linears_kernels() -> None:
    s = _row("qwen2.5-7b-8gpu")
    spec = resolve_model(s)  # Qwen2.5-7B: 28 dense gated layers; every supported module wrapped, whatever the targets
    assert spec.layers == 28 and not spec.is_moe and spec.mlp_gated
    assert ea.lora_linears_and_slices(spec) == (28 * 4, 28 * 7)
    fig = host_figures()
    launch, view = fig["launch_seconds"]["value"], fig["view_seconds"]["value"]
    # per wrapped linear a fill, 3 views and the LoRA layers' measured Python (166.1 view calls a Qwen2 layer of 4
    # linears, benchmarks/vllm_v0_eager_decode_host.py on vllm 0.7.3); per slice 2 Triton launches and 4 views
    per_layer = 4 * (launch + (3 + 166.1 / 4) * view) + 7 * (2 * 15e-6 + 4 * view)  # H100's host: factor 1
    assert ea.adapter_decode_host_seconds(s, spec, "vllm") == pytest.approx(28 * per_layer)
    assert ea.adapter_decode_fixed_seconds(s, spec, "vllm") == pytest.approx(28 * (4 + 14) * SMALL_KERNEL_FIXED_SECONDS)
    detail = dict(step_time(s).generation)
    assert detail["adapter_host_seconds_per_step"] == pytest.approx(28 * per_layer)
    # the layer launches' floor holds them (eager_decode.py + these), and the GPU's fixed time holds the LoRA kernels'
    from engine.posttraining.eager_decode import eager_decode_host_seconds
    assert detail["eager_host_seconds_per_step"] == pytest.approx(eager_decode_host_seconds(s, spec, 2, "vllm")
                                                                  + 28 * per_layer)
    # with CUDA graphs V0 replays the captured punica kernels (model_runner.py capture): no host term, the GPU's stays
    graphs = dict(step_time(s.with_unchecked(rollout_enforce_eager=False)).generation)
    assert graphs["adapter_host_seconds_per_step"] == 0.0
    assert graphs["kernel_fixed_seconds_per_step"] == pytest.approx(detail["kernel_fixed_seconds_per_step"])


def test_only_an_engine_serving_the_adapters_through_vllms_punica_pays_them() -> None:
    s = _row("qwen2.5-7b-8gpu")
    spec = resolve_model(s)
    assert ea.adapter_decode_host_seconds(s, spec, "sglang") == 0.0 == ea.adapter_decode_fixed_seconds(s, spec, "sglang")
    full = s.with_unchecked(method="full")  # merged weights: no LoRA in the engine
    assert ea.adapter_decode_host_seconds(full, spec, "vllm") == 0.0
    mi300x = _row("grpo-deepseek-llm-7b-chat-8gpu")  # verl full fine-tune
    assert dict(step_time(mi300x).generation)["adapter_host_seconds_per_step"] == 0.0


def test_a_moe_layer_wraps_its_attention_alone() -> None:
    s = _row("qwen2.5-7b-8gpu").with_unchecked(model="qwen3-30b-a3b")
    spec = resolve_model(s)
    assert spec.is_moe and spec.moe_layers == spec.layers
    assert ea.lora_linears_and_slices(spec) == (2 * spec.layers, 4 * spec.layers)
    # a hybrid stack (Nemotron-3 Nano: Mamba, MoE and attention blocks): the attention blocks' linears alone
    hybrid = resolve_model(s.with_unchecked(model="nemotron-3-nano-30b-a3b"))
    attention = hybrid.block_kinds.count("attention")
    assert "mlp" not in hybrid.block_kinds and 0 < attention < hybrid.layers
    assert ea.lora_linears_and_slices(hybrid) == (2 * attention, 4 * attention)


def test_the_count_stays_under_a_measured_eager_lora_slowdown() -> None:
    # vllm-project/vllm issue #13204 (vLLM 0.7.0 V0, Qwen2.5-72B-Instruct-AWQ, TP 1, enforce_eager): 6.5 tokens/s with
    # the adapter, 17.6 without, over 80 layers; a lower bound must stay under that per-layer difference
    s = _row("qwen2.5-72b-8gpu")
    spec = resolve_model(s)
    assert spec.layers == 80
    measured_per_layer = (1 / 6.5 - 1 / 17.6) / 80
    counted_per_layer = ea.adapter_decode_host_seconds(s, spec, "vllm") / 80
    assert 0 < counted_per_layer < measured_per_layer
