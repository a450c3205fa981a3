"""The plain KV-cache size of a hybrid Mamba-2 stack (engine/memory/estimate.py kv_cache_per_layer, what `main.py
kv-cache`, the model's summary tooltip and TRL's generate() cache read): keys and values in the attention blocks only,
a fixed Mamba-2 state in each Mamba block, nothing in the MLP / MoE blocks, as the serving model counts them
(engine/models/cache_kinds.py). Expected bytes by hand from the preset's own config
(presets/models/nemotron-3-nano-30b-a3b.json: 6 '*' and 23 'M' of 52 blocks, 2 KV heads x 128, Mamba 64 heads x 64,
state 128, 8 groups, conv kernel 4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import kv_cache_bytes, resolve_model, scenario_from_dict
from engine.memory.estimate import kv_cache_per_layer

REPO = Path(__file__).resolve().parent.parent
BATCH, TOKENS = 4, 32768


def test_nano_caches_keys_and_values_in_its_attention_blocks_only():
    spec = resolve_model(scenario_from_dict({"model": "nemotron-3-nano-30b-a3b"}))
    attention = 6 * BATCH * TOKENS * 2 * 2 * 128 * 2  # blocks x sequences x tokens x (K, V) x heads x dim x bf16
    conv = (4 - 1) * (64 * 64 + 2 * 8 * 128)  # the conv tail: (kernel - 1) x (d_inner + 2 x groups x state)
    ssm = 64 * 64 * 128  # heads x head_dim x state
    mamba = 23 * BATCH * (conv + ssm) * 2
    assert kv_cache_bytes(spec, BATCH, TOKENS) == attention + mamba == 905_166_848
    # the MLP / MoE blocks hold nothing: 52 blocks, 29 with a cache

    per_block = kv_cache_per_layer(spec, BATCH, TOKENS)
    assert len(per_block) == 52 and sum(1 for b in per_block if b) == 29


def test_the_kv_cache_command_prints_the_same_figure():
    out = subprocess.run([sys.executable, "main.py", "kv-cache", "nemotron-3-nano-30b-a3b", "--batch", str(BATCH),
                          "--seq-len", str(TOKENS), "--json"], cwd=REPO, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"kv_cache_bytes": 905_166_848}
