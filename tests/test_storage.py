"""gui/storage.py and gui/settings_store.py: saved scenarios and settings never lose data (headless, no Qt)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import SCHEMA_VERSION, ScenarioError, estimate, scenario_from_dict
from gui import data_folder
from gui.settings_store import SETTINGS_SCHEMA_VERSION, AppSettings, Settings
from gui.storage import (
    EXAMPLE_PREFIX,
    MAX_ID_BYTES,
    ConflictError,
    ScenarioLibrary,
    StorageError,
    check_id,
    data_dir,
    id_from_name,
    migrate,
    scenario_bytes,
    scenario_version,
)
from tests.scenario_strategies import valid_scenarios

REPO = Path(__file__).resolve().parent.parent
WORKER = REPO / "tests" / "storage_worker.py"
BASE = {"model": "llama-2-7b", "gpu": "a100-80gb"}
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def make(**kw):
    return scenario_from_dict({**BASE, **kw})


def files_in(root: Path) -> set[str]:
    """Every user file the library holds (saved + quarantined + trashed), by name; not the quarantine log."""
    return {p.name for d in ("scenarios", "quarantine", "trash") if (root / d).is_dir()
            for p in (root / d).iterdir() if p.name != "log.txt"}


@pytest.fixture
def lib(planner_home: Path) -> ScenarioLibrary:
    return ScenarioLibrary(examples_dir=None)


def test_data_dir_env_and_platform_default(planner_home, monkeypatch):
    assert data_dir() == planner_home
    assert ScenarioLibrary().root == planner_home
    monkeypatch.delenv("LLM_MEMORY_PLANNER_HOME")
    assert "llm-memory-planner" in str(data_dir())


# ---- examples ---------------------------------------------------------------------------------------------------

def test_examples_are_valid_read_only_and_never_written(planner_home):
    before = {p.name: p.read_bytes() for p in (REPO / "examples").glob("*.json")}
    library = ScenarioLibrary()
    examples = [e for e in library.entries() if e.id.startswith(EXAMPLE_PREFIX)]
    assert len(examples) == len(before) >= 5
    assert all(e.read_only and e.scenario is not None and e.error is None for e in examples)
    copy_id = library.save(examples[0].scenario, examples[0].id)  # saving an example saves a copy
    assert not copy_id.startswith(EXAMPLE_PREFIX) and (planner_home / "scenarios" / f"{copy_id}.json").is_file()
    with pytest.raises(ScenarioError, match="built-in example"):
        library.delete(examples[0].id)
    assert {p.name: p.read_bytes() for p in (REPO / "examples").glob("*.json")} == before


def test_examples_reproduce_the_seed_cases():
    library = ScenarioLibrary()
    by_name = {e.name: e.scenario for e in library.entries()}
    verdicts = {name: estimate(by_name[name]).verdict for name in (
        "7B full fine-tune on one GPU", "7B ZeRO-3 on 8 x A100-40G", "QLoRA on a 12 GB card",
        "Llama-3-8B LoRA on RTX 4090", "Qwen3-30B-A3B on 8 x H100")}
    assert verdicts["7B full fine-tune on one GPU"] == "does not fit"
    assert verdicts["7B ZeRO-3 on 8 x A100-40G"] != "does not fit"
    assert verdicts["QLoRA on a 12 GB card"] != "does not fit"
    assert all("Seed" in by_name[n].notes for n in verdicts if n != "Llama-3-8B LoRA on RTX 4090")


# ---- round trips ------------------------------------------------------------------------------------------------

scenario_dicts = st.fixed_dictionaries({
    "name": st.text(max_size=40),
    "notes": st.text(max_size=80),
    "model": st.sampled_from(["llama-2-7b", "llama-3-8b", "qwen2.5-0.5b", "mistral-7b"]),
    "gpu": st.one_of(st.sampled_from(["rtx-4090", "a100-40gb", "h100-sxm-80gb", "rtx-3060-12gb"]),
                     st.builds(lambda m: {"name": "My card", "memory_bytes": m}, st.integers(1, 2**50))),
    "method": st.sampled_from(["full", "freeze", "lora", "qlora"]),
    "precision": st.sampled_from(["bf16", "mixed-bf16", "amp-fp16", "fp32"]),
    "micro_batch": st.integers(1, 64),
    "seq_len": st.sampled_from([128, 2048, 8192]),
    "gpus_per_node": st.sampled_from([1, 2, 8]),
    "zero_stage": st.integers(0, 3),
    "k_factor": st.floats(0.5, 16, allow_nan=False),
    "checkpointing": st.sampled_from(["none", "full", "selective"]),
})


@FAST
@given(data=scenario_dicts)
def test_save_load_round_trips_any_valid_scenario(data):
    try:
        scenario = scenario_from_dict(data)
    except ScenarioError:
        assume(False)
    with tempfile.TemporaryDirectory() as tmp:
        library = ScenarioLibrary(Path(tmp), examples_dir=None)
        sid = library.save(scenario)
        entry = library.entry(sid)
        assert entry.scenario == scenario and entry.name == scenario.name
        assert entry.version == scenario_version(scenario)
        assert entry.path.parent == Path(tmp) / "scenarios"
        assert json.loads(entry.path.read_bytes())["schema_version"] == SCHEMA_VERSION
        assert library.save(scenario, sid, expected_version=entry.version) == sid  # unchanged: no conflict



@settings(FAST, max_examples=60)
@given(data=valid_scenarios())
def test_save_load_round_trips_every_kind_of_scenario(data):
    """The newer keys too (tests/scenario_strategies.py: every framework row, pipeline schedule, post-training
    objective and serving engine, calibrations and custom objects): saved and loaded back, the same scenario."""
    scenario = scenario_from_dict(data)
    assert scenario_from_dict(scenario.to_dict()) == scenario
    with tempfile.TemporaryDirectory() as tmp:
        library = ScenarioLibrary(Path(tmp), examples_dir=None)
        assert library.entry(library.save(scenario)).scenario == scenario

def test_saved_file_is_readable_and_complete(lib, planner_home):
    sid = lib.save(make(name="Mein Lauf – 中文", micro_batch=3))
    text = (planner_home / "scenarios" / f"{sid}.json").read_text(encoding="utf-8")
    assert "中文" in text and text.count("\n") > 30  # pretty-printed, every key, not \\u-escaped
    assert set(json.loads(text)) == set(make().to_dict())


# ---- corruption -------------------------------------------------------------------------------------------------

def _corrupt(raw: bytes, kind: str, n: int) -> bytes:
    data = json.loads(raw)
    if kind == "truncate":
        return raw[: n % len(raw)]
    if kind == "random":
        return bytes((n * 7919 + i * 31) % 256 for i in range(n % 300))
    if kind == "wrong_type":
        data[["micro_batch", "model", "gpu", "lora_targets", "name"][n % 5]] = [None, "four", {}, 3.5, True][n // 5 % 5]
    elif kind == "future":
        data["schema_version"] = SCHEMA_VERSION + 1 + n % 5
    elif kind == "bad_version":
        data["schema_version"] = ["1", None, -1, 1.5, True][n % 5]
    elif kind == "not_object":
        return json.dumps([data]).encode()
    elif kind == "deep":
        return b"[" * (10_000 + n)
    elif kind == "bom":
        return b"\xef\xbb\xbf" + raw
    return json.dumps(data).encode()


@settings(FAST, max_examples=80)
@given(kind=st.sampled_from(["truncate", "random", "wrong_type", "future", "bad_version", "not_object", "deep",
                             "bom"]), n=st.integers(0, 10_000), victim=st.integers(0, 2))
def test_corrupt_files_never_crash_loading_and_are_never_deleted(kind, n, victim):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        library = ScenarioLibrary(root, examples_dir=None)
        ids = [library.save(make(name=f"run {i}", micro_batch=i + 1)) for i in range(3)]
        path = root / "scenarios" / f"{ids[victim]}.json"
        bad = _corrupt(path.read_bytes(), kind, n)
        path.write_bytes(bad)
        before = files_in(root)
        entries = {e.id: e for e in ScenarioLibrary(root, examples_dir=None).entries()}
        after = files_in(root)
        assert len(after) == len(before)  # moved, never deleted
        for i, sid in enumerate(ids):
            if i != victim:
                assert entries[sid].scenario.micro_batch == i + 1  # every other scenario still loads
        e = entries.get(ids[victim])
        if e is None:  # quarantined, byte for byte, with a sentence naming the file
            [moved] = (root / "quarantine").glob("*.json")
            assert moved.read_bytes() == bad and moved.name.startswith(ids[victim] + ".")
            assert path.name in (root / "quarantine" / "log.txt").read_text(encoding="utf-8")
        elif e.scenario is None:  # a newer app's file: left in place, read-only, untouched
            assert kind == "future" and e.read_only and "newer" in e.error and path.read_bytes() == bad
        else:
            assert kind in ("bom", "truncate", "wrong_type")  # still valid: a BOM, a lost final newline, a float


def test_problems_name_the_file_and_the_reason(lib, planner_home):
    sid = lib.save(make(name="ok"))
    (planner_home / "scenarios" / "broken.json").write_text('{"model": "llama-2-7b", "micro_batch": 0}')
    (planner_home / "scenarios" / "half.json").write_text('{"model": "llama-2-')
    assert [e.id for e in lib.entries()] == [sid]
    text = " ".join(str(p) for p in lib.problems())
    assert "broken.json: micro_batch: must be at least 1" in text and "half.json" in text and "quarantine" in text
    with pytest.raises(ScenarioError, match="quarantine"):
        lib.load("broken")


def test_saving_over_a_corrupt_file_keeps_a_copy(lib, planner_home):
    sid = lib.save(make(name="x"))
    path = planner_home / "scenarios" / f"{sid}.json"
    path.write_bytes(b"\x00garbage")
    lib.save(make(name="x", micro_batch=2), sid)
    assert lib.load(sid).micro_batch == 2
    assert [p.read_bytes() for p in (planner_home / "quarantine").glob("*.json")] == [b"\x00garbage"]


def test_future_version_file_is_never_overwritten(lib, planner_home):
    path = planner_home / "scenarios" / "new.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"schema_version": 99, "model": "llama-2-7b", "fancy": 1}))
    new_id = lib.save(make(name="new"), "new")
    assert new_id != "new" and json.loads(path.read_text())["schema_version"] == 99


# ---- crashes ----------------------------------------------------------------------------------------------------

def test_failure_between_write_and_rename_keeps_the_old_file(lib, planner_home, monkeypatch):
    sid = lib.save(make(name="keep", micro_batch=1))

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    # not monkeypatch.undo(): that drops planner_home too; the OS's reason reaches the user in a sentence
    with monkeypatch.context() as m, pytest.raises(StorageError, match="No space left on device"):
        m.setattr(os, "replace", boom)
        lib.save(make(name="keep", micro_batch=2), sid)
    assert lib.load(sid).micro_batch == 1
    assert sorted(p.name for p in (planner_home / "scenarios").iterdir()) == [f"{sid}.json"]  # no temp file left


def test_killed_writer_leaves_a_complete_file(planner_home):
    for delay in (0.05, 0.3):
        proc = subprocess.Popen([sys.executable, str(WORKER), "hammer", str(planner_home)], stdout=subprocess.PIPE,
                                text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.kill()  # SIGKILL on POSIX: no cleanup code runs
        proc.wait(10)
        proc.stdout.close()
        entry = ScenarioLibrary(planner_home, examples_dir=None).entry("victim")
        assert entry.scenario is not None and entry.scenario.notes in ("a" * 400_000, "b" * 400_000)
        assert not (planner_home / "quarantine").exists()


# ---- two instances ----------------------------------------------------------------------------------------------

def test_stale_save_raises_conflict_or_saves_a_copy(lib):
    sid = lib.save(make(name="shared plan"))
    mine = lib.entry(sid)
    lib.save(make(name="shared plan", micro_batch=7), sid)  # another window saves first
    with pytest.raises(ConflictError, match="another window"):
        lib.save(mine.scenario.replace(micro_batch=2), sid, expected_version=mine.version)
    copy_id = lib.save(mine.scenario.replace(micro_batch=2), sid, expected_version=mine.version, on_conflict="copy")
    assert lib.load(sid).micro_batch == 7
    assert lib.load(copy_id).name == "shared plan (conflict copy)" and lib.load(copy_id).micro_batch == 2


def test_two_processes_saving_at_once_lose_nothing(planner_home):
    count = 50
    library = ScenarioLibrary(planner_home, examples_dir=None)
    assert library.save(make(name="shared")) == "shared"
    procs = [subprocess.Popen([sys.executable, str(WORKER), "saves", str(planner_home), prefix, str(count)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for prefix in ("A", "B")]
    time.sleep(0.3)
    (planner_home / "go").touch()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    entries = library.entries()
    names = {e.name for e in entries}
    assert all(e.scenario is not None for e in entries) and len(entries) == 2 * count + 1
    assert names == {"shared"} | {f"{p} {i}" for p in "AB" for i in range(count)}
    for e in entries:
        if e.name != "shared":
            prefix, i = e.name.split()
            assert e.scenario.notes == f"{prefix}:{i}" and e.scenario.micro_batch == int(i) + 1
    tokens = library.load("shared").notes.split(";")[:-1]
    assert sorted(tokens) == sorted(f"{p}:{i}" for p in "AB" for i in range(count))  # no lost update
    assert not list((planner_home / "scenarios").glob(".*")) and not (planner_home / "quarantine").exists()


# ---- file names -------------------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=300))
def test_ids_from_any_name_stay_inside_the_folder(name):
    sid = id_from_name(name)
    assert check_id(sid) == sid and len(sid.encode("utf-8")) <= MAX_ID_BYTES
    assert not any(c in sid for c in "/\\:*?\"<>|") and sid.isprintable() and sid == sid.strip("-. ")
    assert sid.split(".")[0].lower() not in {"con", "nul", "aux", "prn", "com1", "lpt1"}
    folder = Path("/library/scenarios")
    assert (folder / f"{sid}.json").resolve().parent == folder.resolve()


@pytest.mark.parametrize("name, expected", [
    ("../x", "x"), ("/etc/passwd", "etc-passwd"), ("C:\\Windows\\x", "c-windows-x"), ("CON", "scenario-con"),
    ("nul.txt", "scenario-nul.txt"), ("COM¹", "scenario-com1"), ("", "scenario"), ("...", "scenario"),
    ("a\x00b\nc", "a-b-c"), ("Llama 3.1 8B / LoRA", "llama-3.1-8b-lora"), ("中文 方案", "中文-方案"),
])
def test_id_from_name_examples(name, expected):
    assert id_from_name(name) == expected


@pytest.mark.parametrize("bad", ["", "../x", "a/b", "a\\b", ".hidden", "example:x", "C:x", "a\x00"])
def test_check_id_refuses_paths(lib, bad):
    with pytest.raises(ScenarioError):
        lib.load(bad)


def test_name_collisions_and_long_names(lib):
    assert [lib.save(make(name="Same")) for _ in range(3)] == ["same", "same-2", "same-3"]
    long_id = lib.save(make(name="长" * 200))
    assert len(long_id.encode()) <= MAX_ID_BYTES and lib.load(long_id).name == "长" * 200


# ---- trash, rename, duplicate, import/export ---------------------------------------------------------------------

def test_trash_and_restore(lib):
    sid = lib.save(make(name="Gone soon", micro_batch=5))
    trash_id = lib.delete(sid)
    assert sid not in [e.id for e in lib.entries()]
    [item] = lib.trash_entries()
    assert (item.trash_id, item.id, item.name) == (trash_id, sid, "Gone soon") and item.deleted <= time.time()
    lib.save(make(name="Gone soon"))  # the old id is taken again meanwhile
    restored = lib.restore(trash_id)
    assert restored == f"{sid}-2" and lib.load(restored).micro_batch == 5 and lib.trash_entries() == []
    with pytest.raises(ScenarioError):
        lib.restore(trash_id)


def test_rename_duplicate_import_export(lib, tmp_path):
    sid = lib.save(make(name="First"))
    new_id = lib.rename(sid, "Second name")
    assert new_id == "second-name" and lib.load(new_id).name == "Second name"
    assert [e.id for e in lib.entries()] == [new_id]
    dup = lib.duplicate(new_id)
    assert lib.load(dup).name == "Second name (copy)"
    out = tmp_path / "out.json"
    lib.export_file(new_id, out)
    assert lib.load(lib.import_file(out)) == lib.load(new_id)
    (tmp_path / "bad.json").write_text('{"model": "gpt-9"}')
    with pytest.raises(ScenarioError, match="bad.json: model"):
        lib.import_file(tmp_path / "bad.json")
    (tmp_path / "cut.json").write_text('{"model": ')
    with pytest.raises(ScenarioError, match="cut.json: is not valid JSON"):
        lib.import_file(tmp_path / "cut.json")
    with pytest.raises(ScenarioError, match="missing.json: cannot be read"):
        lib.import_file(tmp_path / "missing.json")


# ---- migrations -------------------------------------------------------------------------------------------------

def test_migration_from_version_0_keeps_a_backup(lib, planner_home):
    legacy = b'{"name": "Old run", "model": "llama-2-7b", "batch_size": 4, "gpus": 8, "zero_stage": 3}'
    path = planner_home / "scenarios" / "old-run.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(legacy)
    [entry] = lib.entries()
    assert entry.migrated_from == 0 and entry.scenario.micro_batch == 4 and entry.scenario.gpus_per_node == 8
    assert path.read_bytes() == legacy  # reading never rewrites
    lib.save(entry.scenario.replace(notes="edited"), entry.id, expected_version=entry.version)
    lib.save(lib.load(entry.id), entry.id)
    [backup] = (planner_home / "backups").glob("*.json")
    assert backup.read_bytes() == legacy and backup.name.startswith("old-run.v0.")
    assert json.loads(path.read_bytes())["schema_version"] == SCHEMA_VERSION and lib.entries()[0].migrated_from is None


def test_migrate_chain():
    assert migrate({"model": "x", "batch_size": 2}) == {"schema_version": 1, "model": "x", "micro_batch": 2}
    assert migrate({"schema_version": 1, "model": "x"}) == {"schema_version": 1, "model": "x"}
    with pytest.raises(ScenarioError, match="batch_size"):
        migrate({"batch_size": 2, "micro_batch": 3})
    with pytest.raises(ScenarioError, match="newer"):
        migrate({"schema_version": 2})


def test_scenario_bytes_survive_lone_surrogates(lib):
    scenario = make(name="bad \ud800 name")
    assert scenario_bytes(scenario).isascii()
    assert lib.load(lib.save(scenario)).name == "bad \ud800 name"


# ---- settings ---------------------------------------------------------------------------------------------------

def test_settings_round_trip_and_defaults(planner_home):
    assert Settings().values == AppSettings() and Settings().values.language is None
    Settings().update(unit="GB", theme="dark", language="zh_CN", window_geometry="AdnQywAD", last_scenario="x")
    values = Settings().values
    assert (values.unit, values.theme, values.language, values.window_geometry) == ("GB", "dark", "zh_CN", "AdnQywAD")
    data = json.loads((planner_home / "settings.json").read_text())
    assert data["schema_version"] == SETTINGS_SCHEMA_VERSION == 2 and data["last_scenario"] == "x"
    with pytest.raises(ValueError, match="unit"):
        Settings().update(unit="MiB")
    with pytest.raises(ValueError, match="colour"):
        Settings().update(colour="red")


def test_two_settings_instances_keep_each_others_changes(planner_home):
    a, b = Settings(), Settings()
    a.update(unit="GB")
    b.update(theme="light")  # b read the file before a's change; it must not undo it
    assert Settings().values.unit == "GB" and Settings().values.theme == "light"


def test_recent_files_and_unknown_keys_kept(planner_home):
    (planner_home).mkdir(parents=True, exist_ok=True)
    (planner_home / "settings.json").write_text(json.dumps({"schema_version": 3, "future_key": [1, 2]}))
    s = Settings()
    for i in range(15):
        s.add_recent_file(f"/tmp/{i % 12}.json")
    assert s.values.recent_files[:2] == ("/tmp/2.json", "/tmp/1.json") and len(s.values.recent_files) == 10
    data = json.loads((planner_home / "settings.json").read_text())
    assert data["future_key"] == [1, 2] and data["schema_version"] == 3
    odd = "/data/caf\udce9.json"  # a Linux file name that is not UTF-8, as os.fsdecode gives it
    assert Settings().add_recent_file(odd).recent_files[0] == odd and Settings().values.recent_files[0] == odd


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b"[1, 2]", b"", b"[" * 50_000])
def test_corrupt_settings_use_defaults_and_are_quarantined(planner_home, content):
    planner_home.mkdir(parents=True, exist_ok=True)
    (planner_home / "settings.json").write_bytes(content)
    s = Settings()
    assert s.values == AppSettings() and "quarantine" in s.problems[0]
    assert [p.read_bytes() for p in (planner_home / "quarantine").iterdir()] == [content]
    s.update(theme="dark")
    assert Settings().values.theme == "dark"


def test_invalid_setting_value_falls_back_to_its_default(planner_home):
    planner_home.mkdir(parents=True, exist_ok=True)
    (planner_home / "settings.json").write_text(json.dumps({"schema_version": 1, "unit": "parsec", "theme": "dark"}))
    s = Settings()
    assert s.values.unit == "GiB" and s.values.theme == "dark" and "unit" in s.problems[0]


def test_settings_write_failure_keeps_the_old_file(planner_home, monkeypatch):
    Settings().update(theme="dark")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(data_folder.os, "replace", boom)  # atomic_write renames there
        failed = Settings()
        assert failed.update(theme="light").theme == "light"  # applies for this session...
        assert "No space left on device" in failed.write_problem  # ...and says why it is not kept
    assert Settings().values.theme == "dark"
