"""The price list of "What should I rent?" lives in the settings file (gui/settings_store.py, schema_version 2)."""

import json

import pytest

from gui.settings_store import SETTINGS_SCHEMA_VERSION, AppSettings, Settings, migrate_settings


def test_a_version_1_file_migrates_with_an_empty_price_list_and_keeps_its_values(planner_home):
    planner_home.mkdir(parents=True)
    (planner_home / "settings.json").write_text(json.dumps({"schema_version": 1, "unit": "GB", "theme": "dark"}))
    values = Settings().values
    assert (values.unit, values.theme, values.gpu_prices, values.price_currency) == ("GB", "dark", (), "")
    Settings().update(gpu_prices={"h100-sxm-80gb": 2.5}, price_currency="EUR")
    data = json.loads((planner_home / "settings.json").read_text())
    assert data["schema_version"] == SETTINGS_SCHEMA_VERSION == 2
    assert data["gpu_prices"] == {"h100-sxm-80gb": 2.5} and data["unit"] == "GB" and data["price_currency"] == "EUR"
    assert Settings().values.gpu_prices == (("h100-sxm-80gb", 2.5),)


def test_migration_steps_and_newer_files():
    assert migrate_settings({"unit": "GB"}) == {"unit": "GB", "gpu_prices": {}, "price_currency": "",
                                                "schema_version": 2}
    newer = {"schema_version": 3, "gpu_prices": {"x": 1}}
    assert migrate_settings(newer) is newer  # a newer app's file is read as it is, never rewritten backwards


def test_bad_prices_are_refused_or_fall_back(planner_home):
    for bad in ({"h100-sxm-80gb": -1}, {"h100-sxm-80gb": True}, {"": 1.0}, "2.5", [["a", 1, 2]]):
        with pytest.raises(ValueError, match="gpu_prices"):
            Settings().update(gpu_prices=bad)
    with pytest.raises(ValueError, match="price_currency"):
        Settings().update(price_currency="XYZ")
    planner_home.mkdir(parents=True, exist_ok=True)
    (planner_home / "settings.json").write_text(json.dumps({"schema_version": 2, "gpu_prices": {"a": "free"}}))
    s = Settings()
    assert s.values.gpu_prices == AppSettings().gpu_prices and any("gpu_prices" in p for p in s.problems)
