"""One 22B Megatron layer on an A100 against its measurement (benchmarks/megatron_a100_anchors.py layer_anchor).

Where the expected values come from: arXiv:2205.05198 (Korthikanti et al., 'Reducing Activation Recomputation in
Large Transformer Models', MLSys 2023) Table 4 times one transformer layer of the 22B model of its Table 3 (hidden
6,144, 64 heads, TP 8, micro-batch 4, sequence 2,048, A100 80GB on Selene) forward + backward: no recompute 19.6 ms,
sequence parallelism 19.0, full recompute 27.2, selective recompute 20.9, selective + sequence parallelism 20.3.
The model gives 19.64 / 18.54 / 27.70 / 21.31 / 20.22 ms (-2.4% to +2.0%) with Megatron-LM's softmax counted from its
code (9 / 11 bytes per score element) and the A100's measured eager-attention rate, as the megatron-2022 profile
takes them (presets/efficiency.json eager_attention_softmax _source_megatron-lm). The bound (3%) holds the layer
there: the generic eager bytes without the measured rate gave 20.31 / 19.22 / 28.31 / 21.92 / 20.83 ms (+1.2% to
+4.9%) and the counted bytes without the rate 18.10 / 17.01 / 25.55 / 19.16 / 18.06 ms (-6.1% to -11.0%); both fail
it (docs/time-model-notes.md, h-megaa100's and h-megaset's entries)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from engine.timing.attention import eager_softmax_bytes
from engine.timing.data import framework_profile

ROOT = Path(__file__).resolve().parent.parent
LAYER_BOUND = 0.03  # relative; the measured times are printed to 0.1 ms (0.5% of a 20 ms layer)


def _module():
    spec = importlib.util.spec_from_file_location("megatron_a100_anchors",
                                                  ROOT / "benchmarks" / "megatron_a100_anchors.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_22b_layer_is_within_three_percent_of_table_4_in_every_setting():
    for name, model_ms, measured_ms in _module().layer_anchor():
        assert abs(model_ms / measured_ms - 1) <= LAYER_BOUND, (name, model_ms, measured_ms)


def test_recomputation_costs_what_table_4_measures():
    """Full recomputation adds 7.6 ms to the 19.6 ms layer (Table 4: 39%); the model adds the layer's forward again
    and its two tensor-parallel all-reduces, 8.06 ms (27.70 - 19.64): within 1 ms of the measured overhead."""
    layers = {name: model_ms for name, model_ms, _ in _module().layer_anchor()}
    overhead_ms = layers["full recompute"] - layers["no recompute"]
    assert abs(overhead_ms - (27.2 - 19.6)) <= 1.0, overhead_ms


def test_megatron_lms_softmax_kernel_takes_the_key_lengths_its_release_checks():
    """Megatron-LM's FusedScaleMaskSoftmax runs its fused kernel (9 bytes per score forward, 11 backward with the
    attention dropout: presets/efficiency.json eager_attention_softmax _source_megatron-lm) up to a key length of
    2,048 at de7dc40f88 (fused_softmax.py line 132), 4,096 at bbab79f86907 / 285068c8 (is_kernel_available) and 16,384
    at the Zero Bubble fork's f68d3879 (line 158); beyond it, or where micro-batch x heads per rank is no multiple of 4,
    the fp32 torch path adds 33 / 35 bytes."""
    fused, torch_path = (9.0, 11.0), (42.0, 46.0)
    assert eager_softmax_bytes("megatron-lm-2021", 8, 4, 2048) == fused  # the 22B layer: 64 heads / TP 8, mb 4
    assert eager_softmax_bytes("megatron-lm-2021", 8, 4, 4096) == torch_path
    assert eager_softmax_bytes("megatron-lm-2022", 8, 4, 4096) == fused
    assert eager_softmax_bytes("megatron-lm-2022", 8, 4, 8192) == torch_path
    assert eager_softmax_bytes("megatron-lm-2023", 8, 4, 8192) == fused
    assert eager_softmax_bytes("megatron-lm-2023", 3, 1, 1024) == torch_path  # 3 batches: no multiple of 4


def test_megatrons_2021_to_2023_profiles_name_their_softmax_and_the_measured_rate():
    """The profiles the SC21, arXiv:2205.05198, MegaScale and Zero Bubble rows run take Megatron-LM's own softmax rule
    and the A100's measured eager rate together: the layer above is within 3% only with both."""
    for framework, rule in (("megatron-2021", "megatron-lm-2021"), ("megatron-2022", "megatron-lm-2022"),
                            ("megatron-zb", "megatron-lm-2023")):
        profile = framework_profile(framework)
        assert (profile["eager_softmax"], profile["eager_attention_measured"]) == (rule, True), framework
