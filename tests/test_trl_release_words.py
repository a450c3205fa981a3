"""The window's words for frameworks trl and trl-2025 (and the lora_adapter_dtype help) name the TRL release from which
each trainer casts a quantised model's LoRA adapters to bf16, as the trl row's own source dates it
(engine/frameworks/defaults.py _TRL_QLORA_BF16: huggingface/trl 2af35fb0d #4577 v0.26.0 SFT / GRPO / reward, 00da0462b
#4685 v0.27.0 RLOO, e3b7897c8 #3906 v0.29.0 DPO, 9516563e3 #5661 v1.4.0 KTO): not 0.26 for every trainer."""

from __future__ import annotations

import re

from engine.frameworks import TABLE
from engine.scenario import KEY_SPECS
from tests.test_gui_new_keys import MOE
from tests.window_helpers import window_from


def _casting_releases() -> dict[str, tuple[int, int]]:
    """First casting release (major, minor) by trainer, read from the trl row's 'QLoRA adapters in bf16' source."""
    text = dict(TABLE["trl"].sources)["QLoRA adapters in bf16"]
    releases = {}
    for major, minor, trainers in re.findall(r"v(\d+)\.(\d+)\.0: ([A-Za-z, ]+)\)", text):
        for trainer in trainers.split(", "):
            releases[trainer] = (int(major), int(minor))
    return releases


def _last_fp32_release(major: int, minor: int) -> str:
    """The minor release before a casting one (none of the four is an x.0)."""
    return f"{major}.{minor - 1}"


def test_source_dates_four_releases():
    assert _casting_releases() == {"SFT": (0, 26), "GRPO": (0, 26), "reward": (0, 26), "RLOO": (0, 27), "DPO": (0, 29),
                                   "KTO": (1, 4)}


def test_window_and_key_help_name_each_trainers_release(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MOE)
    combo = win.setup_panel.framework_options.framework
    trl, trl_2025 = (combo.itemText(combo.findData(f)) for f in ("trl", "trl-2025"))
    help_text = KEY_SPECS["lora_adapter_dtype"].meaning
    for trainer, (major, minor) in _casting_releases().items():
        cast = rf"{trainer}\b[^0-9]*{major}\.{minor}\b"  # the trainer, then its release before any other number
        assert re.search(cast, trl), (trainer, trl)
        assert re.search(cast, help_text), (trainer, help_text)
        if (major, minor) != (0, 26):  # 'every trainer up to 0.25' says it for the first casting release's trainers
            assert re.search(rf"{trainer}\b[^0-9]*{_last_fp32_release(major, minor)}\b", trl_2025), (trainer, trl_2025)
    assert "every trainer up to 0.25" in trl_2025
