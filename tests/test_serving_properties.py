"""Drawn inference scenarios (every engine, weight format and GPU preset, settings at their extremes): each either
is refused with one sentence when read, or gives a verdict, a reason, finite JSON and a speed; serve-fit answers."""

from __future__ import annotations

import json
import random

from engine.errors import PlannerError
from engine.models.presets import gpu_presets, model_presets
from engine.planning.serve_fit import serve_fit
from engine.scenario import scenario_from_dict
from engine.scenario.serving_keys import SERVING_ENGINES, WEIGHT_FORMATS
from engine.serving.report import serving_to_json
from engine.serving.speed import serving_speed
from engine.workloads import estimate

SETTINGS = {"max_model_len": [None, 1, 4096, 131072, 10**7], "max_num_seqs": [None, 1, 256, 4096],
            "max_num_batched_tokens": [None, 1, 512, 16384], "gpu_memory_utilization": [None, 0.01, 0.5, 0.95, 1.0],
            "block_size": [None, 1, 16, 128], "enforce_eager": [True, False],
            "kv_cache_dtype": ["auto", "fp8", "q8_0", "q4_0"], "n_gpu_layers": [-1, 0, 5, 1000],
            "n_ctx": [0, 1, 4096, 10**6], "n_ubatch": [1, 512], "n_parallel": [1, 4, 64],
            "flash_attn": ["auto", "on", "off"]}


def _drawn(rng: random.Random) -> dict:
    gpus = rng.choice([1, 2, 4, 8])
    data = {"model": rng.choice(list(model_presets())), "gpu": rng.choice(list(gpu_presets())),
            "workload": "inference", "serving_engine": rng.choice(SERVING_ENGINES),
            "weight_format": rng.choice(WEIGHT_FORMATS), "gpus_per_node": gpus, "tp": rng.choice([1, gpus])}
    data.update({k: rng.choice(v) for k, v in SETTINGS.items() if rng.random() < 0.4})
    return data


def test_drawn_inference_scenarios_give_an_answer_or_one_sentence():
    rng = random.Random(26)
    answered = 0
    for _ in range(400):
        try:
            s = scenario_from_dict(_drawn(rng))
        except PlannerError as exc:
            assert "\n" not in str(exc) and str(exc)
            continue
        est = estimate(s)
        speed = serving_speed(s, est.serving)
        json.dumps(serving_to_json(est.serving, speed), allow_nan=False)
        assert est.verdict in ("fits", "tight", "does not fit") and str(est.room())
        # the engine's start-up verdict, or "tight" where it starts but holds fewer users at once than asked
        assert est.verdict == ("tight" if est.serving.users_wait else est.serving.verdict)
        assert speed.tpot_seconds > 0
        answered += 1
    assert answered > 100  # the draw is not all refusals


def test_serve_fit_answers_drawn_scenarios():
    rng = random.Random(27)
    asked = 0
    while asked < 15:
        try:
            s = scenario_from_dict(_drawn(rng))
        except PlannerError:
            continue
        report = serve_fit(s)
        assert report["context"] >= 0 and report["users"] >= 0 and report["gpus"] in (0, 1, 2, 4, 8, 16, 32, 64)
        asked += 1
