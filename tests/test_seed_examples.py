"""The spec's 13 worked examples (shared/spec/memory-model.md section 11), reproduced by the seed estimators.

The seeds round "7B" to 7.0e9 parameters; the llama-2-7b preset has 6,738,415,616. Where a seed
figure scales with N, the expected value is the seed's figure x N / 7e9 (stated per test).
"""

import pytest

from engine import estimate, scenario_from_dict
from engine.memory.seeds import seed_alpha

N7 = 6_738_415_616
SCALE = N7 / 7e9
BASE = {"model": "llama-2-7b", "precision": "mixed-bf16", "seq_len": 2048, "micro_batch": 1}
STATES = ("weights", "gradients", "master_weights", "optimizer_states", "frozen_weights", "lora_weights",
          "quantized_weights")


def run(**kw):
    return estimate(scenario_from_dict({**BASE, **kw}))


def part(est, *keys):
    return sum(c.peak_bytes for c in est.components if c.key in keys)


def test_s000_1_sixteen_bytes_per_param():
    # Seed 000: 7B x 16 bytes = 112 GB (14 + 14 + 84).
    est = run(estimator="seed-per-op")
    assert part(est, *STATES) == pytest.approx(112e9 * SCALE, rel=1e-6)
    assert part(est, "weights") == pytest.approx(14e9 * SCALE, rel=1e-6)
    assert part(est, "master_weights", "optimizer_states") == pytest.approx(84e9 * SCALE, rel=1e-6)


def test_s000_2_per_operation_activations():
    # Seed 000: 503 MB linear + 1342 MB score term per layer; "~57 GB" for 32 layers (1.845 GB x 32 = 59 GB).
    est = run(estimator="seed-per-op", attention="eager")
    per_layer = part(est, "activations") / 32
    assert per_layer == pytest.approx(503e6 + 1342e6, rel=0.002)
    assert part(est, "activations") == pytest.approx(57e9, rel=0.04)


def test_s000_3_alpha_method():
    # Seed 000: alpha = (bs/h)(5 + 5as/6h) "~ 9.3", ~65 GB activations, ~177 GB total for 7B.
    # The seed evaluates 5as/6h = 5x32x2048/24576 as 13.65; it is 13.33, so alpha = 9.17 (errata).
    scenario = scenario_from_dict({**BASE, "estimator": "seed-alpha", "attention": "eager"})
    from engine import resolve_model

    alpha = seed_alpha(scenario, resolve_model(scenario))
    assert alpha == pytest.approx(0.5 * (5 + 5 * 32 * 2048 / 24576), rel=1e-9)
    assert alpha == pytest.approx(9.3, abs=0.15)
    est = estimate(scenario)
    assert part(est, "activations") == pytest.approx(65e9 * SCALE * alpha / 9.3, rel=0.01)
    assert part(est, *STATES, "activations") == pytest.approx(177e9 * SCALE, rel=0.015)


def test_s000_4_half_the_layers_frozen():
    # Seed 000: 3.5B frozen x 2 + 3.5B trainable x 16 = 63 GB. Embeddings stay trainable as in the seed's split.
    # 16 of 32 layers are 48% of the parameters (embeddings and lm_head train), so we land 3% above.
    est = run(estimator="seed-per-op", method="freeze", frozen_layers=16, freeze_embeddings=False)
    assert part(est, *STATES) == pytest.approx(63e9 * SCALE, rel=0.04)
    assert part(est, "frozen_weights") == pytest.approx(16 * 202_383_360 * 2, rel=1e-9)


def test_s000_5_lora_parameter_count_and_fit():
    # Seed 000: r=8 on q,k,v,o of a 7B: 4 x (4096x8 + 8x4096) x 32 = 8.4M; LoRA + ckpt ~17-18 GB fits an A100-80G.
    est = run(estimator="seed-per-op", method="lora", lora_rank=8, checkpointing="full", gpu="a100-80gb",
              lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"])
    assert est.trainable_params == 8_388_608
    # The seed assumes 25M adapter params and 3 GB of activations; with exact counts we land below its range.
    assert 13e9 < est.peak_allocated_bytes < 18e9
    assert est.fits


def test_s000_6_llama3_logits_spike():
    # Seed 000: 4 x 4096 x 128,256 x 4 bytes = 8.4 GB.
    est = estimate(scenario_from_dict({"model": "llama-3-8b", "estimator": "seed-per-op", "micro_batch": 4,
                                       "seq_len": 4096}))
    assert part(est, "logits") == pytest.approx(8.4e9, rel=0.002)


def test_s000_7_template_with_margin():
    # Seed 000 template: (16 N + 4.2 GB logits) x 1.1; the seed uses N = 7e9 (112 GB) and gets ~127 GB.
    # With Llama-3-8B's real N the same arithmetic gives (16 N + 4.2e9) x 1.1.
    est = estimate(scenario_from_dict({"model": "llama-3-8b", "estimator": "seed-per-op", "precision": "mixed-bf16",
                                       "micro_batch": 2, "seq_len": 4096, "attention": "flash",
                                       "checkpointing": "full"}))
    n = est.total_params
    assert part(est, "logits") == pytest.approx(4.2e9, rel=0.01)
    # The template sets activations to 0 under flash + checkpointing; the seed's prose keeps 2bsh per layer
    # (2.1 GB here) and section 10 adds 1 GB of context, which is what this estimator follows: within 3%.
    assert est.total_bytes == pytest.approx((16 * n + 4.2e9) * 1.1, rel=0.03)
    assert (16 * 7e9 + 4.2e9) * 1.1 == pytest.approx(127e9, rel=0.01)


def test_s000_8_qwen3_30b_full_single_view():
    # Seed 000: 480 GB of states (30B x 16), ~550 GB with margin. Real config: 30.5B -> 488 GB.
    est = estimate(scenario_from_dict({"model": "qwen3-30b-a3b", "estimator": "seed-per-op",
                                       "precision": "mixed-bf16", "attention": "flash"}))
    assert part(est, *STATES) == pytest.approx(480e9, rel=0.02)
    assert est.total_bytes == pytest.approx(550e9, rel=0.02)


def test_s000_9_qwen3_30b_zero3_ep8_fits_h100():
    # Seed 000: 8 x H100, ZeRO-3 + EP=8 + flash + ckpt: ~62 GB per GPU, fits.
    est = estimate(scenario_from_dict({"model": "qwen3-30b-a3b", "estimator": "seed-per-op",
                                       "precision": "mixed-bf16", "attention": "flash", "checkpointing": "full",
                                       "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "zero_stage": 3, "ep": 8}))
    assert est.peak_allocated_bytes == pytest.approx(62e9, rel=0.04)
    assert est.fits


def test_s004_a_full_single_gpu():
    # Seed 004 case A: 112 GB + 6.4 GB (K=3) = 118.4 GB, does not fit one GPU.
    est = run(estimator="seed-k-factor", micro_batch=4, k_factor=3, gpu="h100-sxm-80gb")
    assert part(est, "activations") == pytest.approx(6.4e9, rel=0.01)
    assert est.peak_allocated_bytes == pytest.approx(112e9 * SCALE + 6.44e9, rel=0.005)
    assert est.verdict == "does not fit"


def test_s004_b_zero3_on_8_a100_40g():
    # Seed 004 case B: 112/8 + 6.4 = 20.4 GB per GPU, fits an A100-40G.
    est = run(estimator="seed-k-factor", micro_batch=4, gpus_per_node=8, zero_stage=3, gpu="a100-40gb")
    assert est.peak_allocated_bytes == pytest.approx(14e9 * SCALE + 6.44e9, rel=0.005)
    assert est.fits


def test_s004_c_lora_8bit_on_4090():
    # Seed 004 case C: N_lora = 32 x 18 x 16 x 4096 = 38M; 14 + 0.38 + 6.4 = 20.8 GB: fits a 24 GB card, tightly.
    est = run(estimator="seed-k-factor", micro_batch=4, method="lora", lora_rank=16, optimizer="adamw-8bit",
              gpu="rtx-4090")
    lora = [c for c in est.components if c.key == "lora_weights"][0]
    assert dict(lora.inputs)["lora_params"] == 32 * 18 * 16 * 4096
    assert est.peak_allocated_bytes == pytest.approx(14e9 * SCALE + 0.377e9 + 6.44e9, rel=0.005)
    assert est.fits and est.headroom_bytes < 0.15 * est.capacity_bytes


def test_s004_d_qlora_on_12gb_card():
    # Seed 004 case D: 0.6 x 7B + 0.4 GB + 6.4 GB = 11.0 GB: fits 16 GB and 12 GB cards.
    est = run(estimator="seed-k-factor", micro_batch=4, method="qlora", lora_rank=16, optimizer="adamw-8bit",
              gpu="rtx-3060-12gb")
    assert est.peak_allocated_bytes == pytest.approx(0.6 * N7 + 0.377e9 + 6.44e9, rel=0.005)
    assert est.fits
