"""Mechanisms behind the time model's MI300X (CDNA3) rows, each from the source that runs it: FSDP1's collectives
that nothing hides (PyTorch's FullyShardedDataParallel), RCCL's workgroups beside the compute inside one 8 x MI300X
node (ROCm/rccl), and attention at head dim 64 against the head-dim-128 figure CDNA3's rate was measured at."""

from types import SimpleNamespace

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.contention import nccl_sm_share
from engine.timing.hardware import hardware_for

# ROCm/TransformerEngine issue #78's reproduction script train_fsdp_llama_70_reprod.py (tests/data/published/
# throughput/amd-instinct-training.json): Llama 3 70B's shapes with 4 layers, nn.Embedding and an untied
# te.LayerNormLinear head, FSDP1 with transformer_auto_wrap_policy over the blocks, bf16 gathers and reduce-scatters
PROXY = {"name": "Llama 3 70B 4-layer proxy",
         "hf_config": {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 8192,
                       "intermediate_size": 28672, "num_hidden_layers": 4, "num_attention_heads": 64,
                       "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 4096,
                       "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "hidden_act": "silu",
                       "tie_word_embeddings": False}}


def _proxy(**kw):
    base = {"model": PROXY, "gpu": "mi300x", "gpus_per_node": 8, "nodes": 1, "framework": "pytorch",
            "precision": "fp8", "fp8_recipe": "delayed", "optimizer": "adamw-fused", "micro_batch": 2,
            "grad_accum": 8, "seq_len": 4096, "attention": "flash", "checkpointing": "none", "fsdp": True,
            "fsdp_version": 1}
    return scenario_from_dict({**base, **kw})


def test_fsdp1_leaves_the_root_units_collectives_and_the_first_layers_exposed():
    """FSDP1 (torch/distributed/fsdp/_runtime_utils.py): the root unit (embedding and head, one flat parameter)
    gathers before the embedding lookup, the micro-batch's first op, and the first block gathers behind that
    lookup alone; the root is not resharded after forward (_post_forward_reshard), so its one reduce-scatter
    waits for the embedding's gradient, the backward's last, after the first block's, and
    _post_backward_final_callback makes the compute stream wait for both. Per micro-batch on the proxy: the root's
    2 x 128,256 x 8,192 = 2,101,346,304 weights and one block's 855,654,400 (fused QKV 8,192 x 10,240, output
    8,192^2, SwiGLU 3 x 8,192 x 28,672, two RMSNorm weights), gathered and reduce-scattered in bf16 (2 + 2
    bytes), 7/8 of each over the link."""
    from engine.timing.data_parallel import fsdp1_end_seconds

    s = _proxy()
    spec = resolve_model(s)
    root = 2 * 128_256 * 8_192
    block = 8_192 * 10_240 + 8_192**2 + 3 * 8_192 * 28_672 + 2 * 8_192
    assert spec.embedding_params + spec.head_params == root
    params = root + 4 * block + 8_192  # the final norm rides in the root
    stage = SimpleNamespace(trainable=params, params=params, layers=4)
    link_bytes = root * (2 + 2) + (block + 8_192 / 4) * (2 + 2)
    assert fsdp1_end_seconds(s, spec, stage, 2 * params, 2 * params, 2, 1.0, 0.0) == pytest.approx(link_bytes)
    # over the 8 MI300X's measured bus bandwidth (315.8 GB/s, tests/test_cdna3_facts.py): about 33 ms a micro-batch
    # before latencies, against the 0.5 s a batch-2 micro-batch measured (16,458 tokens/s)
    seconds = fsdp1_end_seconds(s, spec, stage, 2 * params, 2 * params, 2,
                                7 / 8 / hardware_for(s).intra_bytes_per_s, 0.0)
    assert seconds == pytest.approx(7 / 8 * link_bytes / 315.8e9, rel=3e-3)
    assert 0.032 < seconds < 0.034


def test_fsdp1_ends_slow_its_step_and_not_fsdp2s():
    """The exposed ends are FSDP1's: the same proxy under FSDP2 with no framework unit order (fsdp2_copies) keeps
    every collective behind the compute as before. Hidden, those 33 ms a micro-batch would still have cost the
    56 of 304 CUs RCCL holds beside the compute (the test below): exposed, they cost the rest, (1 - 56/304) of
    them, for each of the step's 8 micro-batches."""
    from engine.timing.model import step_time

    fsdp1 = step_time(_proxy()).breakdown_seconds["communication_dp"]
    fsdp2 = step_time(_proxy(fsdp_version=2)).breakdown_seconds["communication_dp"]
    assert fsdp1 - fsdp2 == pytest.approx(8 * 0.0331 * (1 - 56 / 304), rel=0.05)


def test_rccl_holds_56_of_the_mi300xs_304_cus_inside_one_node():
    """ROCm/rccl at 0cbce2a7 (2024-10-24): an 8 x MI300X node with a full xGMI mesh matches rome_model_79
    (src/graph/rome_models.cc: nGpus 8, nLinks 7, 28 rings in ringBase) and ncclTopoPostset (src/graph/connect.cc)
    doubles them while nChannels <= maxChannels / 2 (gfx94x: MAXCHANNELS 128, at most 64 with rings inside the
    node): 56 channels, one workgroup each. Across nodes nothing is sourced (not counted)."""
    hw = hardware_for(_proxy())
    assert nccl_sm_share(hw, one_node=True) == pytest.approx(56 / 304)
    assert nccl_sm_share(hw, one_node=False) == 0.0


def test_cdna3_attention_at_head_dim_64_runs_at_the_head_dim_rate_of_its_tiles():
    """CDNA3's attention figure (presets/efficiency.json attention_fraction_of_bf16_peak cdna3 0.177) is Composable
    Kernel's head-dim-128 run (ROCm/flash-attention issue #142 prints only headdim=128 rows), so it is scaled by
    attention_tiles.head_dim_rate as Hopper's and Blackwell's are: GPT-2 XL's head dim 64 (ROCm/TransformerEngine
    issue #76's DDP rows) at 0.707 of it (FlashAttention-4's head dim 64 / 128 on B200, pull request #2605)."""
    from engine.timing.attention import head_dim_rate
    from engine.timing.data import efficiency

    assert "cdna3" in efficiency()["attention_tiles"]["head_dim_archs"]
    assert head_dim_rate(64) == pytest.approx(0.707)
    assert head_dim_rate(128) == 1.0


def test_the_scripts_timed_iteration_carries_the_optimizer_step():
    """SemiAnalysis's reproduction scripts (ROCm/TransformerEngine issues #76 and #78; the rows' notes) print the rate
    of their last loader iteration: DummyDataset holds bsz x n_steps = bsz x 1,024 samples, DistributedSampler gives
    each of world_size = 8 ranks 128 batches, and the last, step_idx 127, meets (step_idx + 1) % grad_acc_steps == 0
    (grad_acc_steps 8), so clip_grad_norm_ and optimizer.step() run inside its CUDA-event window. The row's
    prediction is then one micro-batch's tokens over the step's other work averaged over its 8 micro-batches plus the
    whole optimizer term (engine/accuracy/published_throughput.py timed_window_rate)."""
    from engine.accuracy.published_throughput import MICRO_BATCH_WITH_STEP, compare, load_rows, timed_window_rate
    from engine.timing.model import step_time

    samples_per_rank = 28 * 128 * 8 // 8  # bsz x n_steps over 8 ranks, n_steps = 128 * 8 (the DDP script's default)
    last = samples_per_rank // 28 - 1
    assert last == 127 and (last + 1) % 8 == 0
    row = next(r for r in load_rows() if r["id"] == "rocm-te-issue76-gpt2-1.5b-ddp-te-fp8-8xmi300x-bs28")
    assert row["measured_window"] == MICRO_BATCH_WITH_STEP
    s = scenario_from_dict(row["scenario"])
    t = step_time(s)
    optimizer = t.breakdown_seconds["optimizer"]
    window = (t.step_seconds - optimizer) / 8 + optimizer
    assert timed_window_rate(row, t, 8) == pytest.approx(28 * 1024 / window)
    # the window holds 7/8 of the optimizer term more than the step's average micro-batch
    assert 28 * 1024 / timed_window_rate(row, t, 8) - t.step_seconds / 8 == pytest.approx(7 / 8 * optimizer)
    assert optimizer > 0.005  # fused AdamW and the clip over 1.56e9 fp32 weights: about 13 ms on an MI300X
    assert compare([row], cross_validated=False)[0].predicted == pytest.approx(timed_window_rate(row, t, 8))
    # a row without the field keeps the step's rate
    plain = {k: v for k, v in row.items() if k != "measured_window"}
    assert timed_window_rate(plain, t, 8) == t.tokens_per_second_per_gpu
