"""A share of the fuzzing suite in every test run (tests/fuzz_hostile.py; `make fuzz` runs all of it):
hostile command lines in-process and as real processes, poisoned data folders, kill -9 during saves, two processes.
Each must end with zero tracebacks, hangs, absurd verdicts, failed start-ups, writes outside or lost files."""

from __future__ import annotations

import sys

import fuzz_hostile as fuzz
import pytest

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="signals, FIFOs and kill -9 as on POSIX")


@posix_only
def test_hostile_command_lines_in_process():
    results = fuzz.run(cases=400, in_subprocess=0, folders=0, kills=0, seed=1501)
    counts = results["command line, in-process"]
    assert counts["ok"] + counts["refused"] == 400, dict(counts)
    assert counts["ok"] > 20 and counts["refused"] > 100  # both kinds are generated, so neither check is vacuous


@posix_only
def test_hostile_command_lines_as_processes():
    results = fuzz.run(cases=0, in_subprocess=6, folders=0, kills=0, seed=1502)
    counts = results["command line, subprocess"]
    assert counts["ok"] + counts["refused"] == 6, dict(counts)


@posix_only
def test_poisoned_data_folders_start_and_keep_everything(qtbot):
    counts = fuzz.fuzz_folders(4, seed=1503)
    assert counts["started"] == 4 and fuzz.failures({"folders": counts}) == 0, dict(counts)


@posix_only
def test_kill_minus_9_during_saves_never_tears_a_file():
    counts = fuzz.fuzz_kills(6, seed=1504)
    assert counts["whole"] == 6 and counts["torn"] == 0 and counts["temp files after start-up"] == 0, dict(counts)


@posix_only
def test_two_processes_adding_recent_files_lose_none():
    counts = fuzz.two_processes_recent_files(60)
    assert counts["lost updates"] == 0 and counts["recent files kept"] == 120, dict(counts)


@posix_only
def test_hostile_config_imports_never_hang_trace_or_echo_raw():
    """FIFOs and devices, adversarial launch scripts, huge integers, escapes and paths outside the job (issue 28)."""
    from fuzz_imports import fuzz_imports

    counts = fuzz_imports(40, seed=1528)
    assert counts["imported"] + counts["refused"] == 40 and fuzz.failures({"imports": counts}) == 0, dict(counts)
    assert counts["imported"] > 5 and counts["refused"] > 5  # both kinds are generated, so neither check is vacuous


@posix_only
def test_time_keys_at_and_past_their_bounds():
    """Issue 28: hostile time keys (tests/fuzz_time.py) through estimate and fit --objective throughput."""
    import fuzz_time

    counts = fuzz_time.fuzz_time(60, seed=2801)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 10 and counts["refused"] > 10, dict(counts)  # both kinds are generated


@posix_only
def test_post_training_serving_and_rent_inputs_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz6: the post-training and serving keys at and past their declared bounds, the rent search's prices,
    deadline and budget, serve-fit (tests/fuzz_newest.py)."""
    import fuzz_newest

    counts = fuzz_newest.fuzz_newest(40, seed=1701)
    assert counts["ok"] + counts["refused"] == 40, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_diagnose_inputs_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz7: OOM messages, GPU logs, memory timelines and snapshots made hostile (tests/fuzz_diagnose.py)."""
    import fuzz_diagnose

    counts = fuzz_diagnose.fuzz_diagnose(40, seed=2701)
    assert counts["ok"] + counts["refused"] == 40, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_session_19_surfaces_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz8 (tests/fuzz_surfaces8.py): gguf_batch_matmul, triton, lora_layers, the Qwen3.5 presets and hostile
    config.json, kv-cache flags, imports naming Qwen3.5, damaged efficiency.json / host_overhead.json fields."""
    import fuzz_surfaces8

    counts = fuzz_surfaces8.fuzz_surfaces8(60, seed=1901)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_the_lora_line_and_the_window_on_damaged_presets(qtbot):
    """h-fuzz8 (tests/fuzz_window8.py): absurd values through the rank and layers boxes, edits, undo; the window
    started on damaged presets files says one line naming the file."""
    import fuzz_window8

    counts = fuzz_window8.fuzz_window8(30, seed=1902)
    assert fuzz.failures({"window": counts}) == 0, dict(counts)
    assert counts["ok"] > 10 and counts["cases: damaged presets"] == 3, dict(counts)


@posix_only
def test_session_19_vision_and_serving_surfaces_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz9 (tests/fuzz_surfaces9.py): hostile vision_config values, images and vLLM's image keys, the trl-2025 /
    unsloth-2024 / axolotl rows, gguf_batch_matmul, imports naming Qwen3-VL, a damaged model preset file."""
    import fuzz_surfaces9

    counts = fuzz_surfaces9.fuzz_surfaces9(60, seed=1911)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_the_vision_framework_and_build_date_rows_and_a_damaged_model_preset(qtbot):
    """h-fuzz9 (tests/fuzz_window9.py): absurd values through the vision rows, the framework and build-date combos and
    vLLM's image keys; the window started on a damaged model preset says one line naming the file."""
    import fuzz_window9

    counts = fuzz_window9.fuzz_window9(30, seed=1912)
    assert fuzz.failures({"window": counts}) == 0, dict(counts)
    assert counts["ok"] > 10 and counts["cases: damaged model preset"] == 3, dict(counts)


@posix_only
def test_session_20_serve_rent_rotary_and_presets_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz10 (tests/fuzz_surfaces10.py): `fit --objective cost` of a served model with absurd flags and hostile
    price lists, partial rotary factors transformers cannot apply, the new keys, a rollout's longest completion far
    above its mean, a pre-training budget of 10^30, damaged gpus.json / host_overhead.json / weight_formats.json."""
    import fuzz_surfaces10

    counts = fuzz_surfaces10.fuzz_surfaces10(60, seed=2001)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_the_serve_rent_tab_and_the_window_on_damaged_session_20_presets(qtbot):
    """h-fuzz10 (tests/fuzz_window10.py): absurd values through the serve rent tab's boxes and price list, searches
    and applies; the window started on a damaged gpus.json / host_overhead.json / weight_formats.json entry starts."""
    import fuzz_window10

    counts = fuzz_window10.fuzz_window10(30, seed=2002)
    assert fuzz.failures({"window": counts}) == 0, dict(counts)
    assert counts["ok"] > 10 and counts["cases: damaged presets"] == 3, dict(counts)


@posix_only
def test_every_command_presets_files_scenarios_imports_and_readers_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz11 (tests/fuzz_surfaces11.py): every command and flag at absurd values and paths, a presets file damaged
    whole, schema_version and the version-0 migration, importers' configs made hostile, diagnose's inputs cut."""
    import fuzz_surfaces11

    counts = fuzz_surfaces11.fuzz_surfaces11(60, seed=2101)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_the_window_starts_on_a_damaged_storage_or_presets_file_and_says_one_line(qtbot):
    """h-fuzz11 (tests/fuzz_window11.py): settings.json, catalog.json, a library scenario or a presets file damaged."""
    import fuzz_window11

    counts = fuzz_window11.fuzz_window11(6, seed=2102)
    assert fuzz.failures({"window": counts}) == 0, dict(counts)
    assert counts["cases: storage"] == 3 and counts["cases: presets"] == 3, dict(counts)


@posix_only
def test_session_21_and_22_surfaces_end_in_a_sane_answer_or_one_short_sentence():
    """h-fuzz12 (tests/fuzz_surfaces12.py): Megatron-LM logs and launch scripts, ms-swift's switches of wrong types,
    TRL's server command and verl's token budget exported with hostile names and read back, the new scenario keys,
    served users and context, the cost search's flags and price lists."""
    import fuzz_surfaces12

    counts = fuzz_surfaces12.fuzz_surfaces12(60, seed=2201)
    assert counts["ok"] + counts["refused"] == 60, dict(counts)
    assert counts["ok"] > 5 and counts["refused"] > 5, dict(counts)  # both kinds are generated


@posix_only
def test_the_window_on_the_new_keys_diagnose_and_rent_tabs_and_each_damaged_file(qtbot):
    """h-fuzz12 (tests/fuzz_window12.py): editor steps, then every storage and presets file damaged in turn."""
    import fuzz_window12

    counts = fuzz_window12.fuzz_window12(12, seed=2202)
    assert fuzz.failures({"window": counts}) == 0, dict(counts)
    assert counts["cases: storage"] == 3 and counts["cases: presets"] == len(fuzz_window12.PRESETS), dict(counts)


def test_plan_cards_read_back_identical_or_are_refused_in_one_line():
    """Issue 25 item 4: intact plan cards open as their scenario; damaged or hostile ones are refused."""
    import fuzz_card

    counts = fuzz_card.fuzz_card(300, seed=2501)
    assert counts["ok"] + counts["refused"] + counts["refused-long"] == 300, dict(counts)
    assert counts["ok"] > 50 and counts["refused"] > 50, dict(counts)  # both kinds are generated


def test_exports_parse_back_clean_and_outputs_never_lose_a_file():
    counts = fuzz.fuzz_exports(80, seed=2801)
    assert fuzz.failures({"exports": counts}) == 0, dict(counts)
    assert counts["clean"] + counts["refused model name"] + counts["refused"] + counts["written"] == 80, dict(counts)
    # both halves really ran: every parsed-back case clean or a documented refusal, and -o cases of both kinds
    assert counts["clean"] + counts["refused model name"] == 40 and counts["written"] > 0 and counts["refused"] > 10


def test_poisoned_local_model_caches_folders_and_catalogs_start(qtbot):
    from fuzz_local import fuzz_local

    counts = fuzz_local(5, seed=2801)
    assert counts["started"] + counts["skipped with notice"] == 5, dict(counts)
    assert fuzz.failures({"local": counts}) == 0


def test_verdict_text_json_and_gpu_counts_agree():
    """Issue 25 items 1 and 7 (tests/fuzz_verdict.py): CPU memory in the verdict, text and JSON, one GPU count."""
    import fuzz_verdict

    counts = fuzz_verdict.fuzz_verdict(60, seed=2501)
    assert counts["traceback"] == 0 and counts["absurd"] == 0, dict(counts)
    assert counts["ok"] > 20, dict(counts)


@posix_only  # SIGALRM bounds each case
def test_files_opened_in_the_window_open_offer_an_import_or_say_why(qtbot):
    """Issue 25 item 6: scenarios open, training configs are offered for import, anything else gets one short
    escaped sentence and changes nothing (tests/fuzz_open.py)."""
    from fuzz_open import fuzz_open

    counts = fuzz_open(60, seed=2506)
    assert counts["opened"] + counts["refused"] + counts["import offered"] == 60, dict(counts)
    assert counts["opened"] and counts["refused"] and counts["import offered"]  # every kind is reached
    assert fuzz.failures({"open": counts}) == 0


@posix_only
def test_app_state_and_views_agree_with_the_engine_through_hostile_edits(qtbot):
    """Issue 21 item 4 (tests/fuzz_appstate.py): every step computes a scenario once, and every view shows it."""
    from fuzz_appstate import fuzz_appstate

    counts = fuzz_appstate(150, seed=2104)
    assert fuzz.failures({"app state": counts}) == 0, dict(counts)
    assert sum(counts.values()) == 150 and counts["applied"] > 10 and counts["refused"] > 10, dict(counts)
