"""Packaging details pyproject.toml cannot say: the data files travel inside the wheel (see engine/paths.py).

Everything else (name, version, dependencies, entry points) is in pyproject.toml.
"""

from setuptools import find_packages, setup

DATA = {"engine._data.presets": "presets", "engine._data.presets.models": "presets/models",
        "engine._data.examples": "examples"}

setup(
    packages=find_packages(include=["engine", "engine.*", "gui", "gui.*"]) + list(DATA),
    package_dir=DATA,
    package_data={**{name: ["*.json"] for name in DATA}, "gui": ["i18n/*.ts", "i18n/*.qm", "assets/*"]},
    include_package_data=False,
)
