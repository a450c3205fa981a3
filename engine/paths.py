"""Where the data files the program reads at run time live (model and GPU presets, the example scenarios).

In a source checkout and in the desktop bundle they sit beside the packages (presets/, examples/); an installed wheel
carries them inside the package (engine/_data/), so `pip install .` and `pipx install .` work without the checkout.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    installed = _HERE / "_data" / name
    return installed if installed.is_dir() else _HERE.parent / name
