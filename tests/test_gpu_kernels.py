"""The kernel micro-benchmark file format, its loader and the device check's outputs (issue 23 item 9).

tests/data/gpu_dry_run/ holds what `OUT=... validation/device_check.sh --dry-run` wrote on a CPU (torch 2.13 CPU
build, tiny shapes, 2026-12-05, one run): kernels.json from validation/gpu_kernels.py and steps.json from
validation/gpu_measure.py --batch device-check. These tests check the CODE PATH only (file format, loaders,
report, shapes): the figures in those files are a CPU's, not a GPU's, and nothing here asserts a GPU's speed.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.gpu_accuracy_report import kernel_section, phase_section
from engine.accuracy.measured_gpu import load_gpu_file
from engine.accuracy.measured_gpu_time import PHASES, gpu_phase_markdown_table, load_gpu_time_file, load_gpu_time_rows
from engine.accuracy.measured_kernels import (
    KernelFileError,
    forward_shape,
    kernel_markdown,
    kernel_summary,
    load_kernel_file,
    load_kernel_files,
    model_rates,
)
from engine.timing.gemm import gemm_alignment, gemm_seconds, grouped_gemm_seconds
from validation.gpu_kernels import GROUPS, TP_DEGREES, gemm_cases, layer_gemms

REPO = Path(__file__).resolve().parent.parent
DRY = REPO / "tests" / "data" / "gpu_dry_run"
KERNELS, STEPS = DRY / "kernels.json", DRY / "steps.json"


def _device_check_ids() -> tuple[str, ...]:
    """validation/gpu_measure.py DEVICE_CHECK_IDS, read without importing the module (it needs torch)."""
    tree = ast.parse((REPO / "validation" / "gpu_measure.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") ==
                "DEVICE_CHECK_IDS")
    return ast.literal_eval(node.value)


def test_dry_run_kernel_file_passes_the_loader():
    kf = load_kernel_file(KERNELS, gpu="h200")
    assert kf.dry_run and kf.groups_not_done == ()
    kinds = {r.kind for r in kf.rows}
    assert kinds == {"gemm", "attention-forward", "attention-backward", "bandwidth", "host"}
    doc = json.loads(KERNELS.read_text(encoding="utf-8"))
    assert [g["name"] for g in doc["groups"]] == list(GROUPS)
    # every row the script measured without an error is in the loader's rows (host repeats merged per figure)
    assert sum(r.kind == "gemm" for r in kf.rows) == sum("error" not in r for r in doc["gemm"])
    assert sum(r.kind == "attention-forward" for r in kf.rows) == sum("error" not in r for r in doc["attention"])
    assert all(r.measured_seconds > 0 for r in kf.rows)
    assert all(r.predicted_seconds is not None and r.predicted_seconds > 0 for r in kf.rows if r.kind != "host")
    assert set(kernel_summary(kf.rows)) == kinds


def test_gemm_prediction_is_the_time_models_own_function():
    """The loader's figure for a GEMM row is engine/timing/gemm.py gemm_seconds at the scenario's linear rate,
    aligned and tiled as costs.layer_cost charges a decoder linear (recomputed here from the same functions)."""
    kf = load_kernel_file(KERNELS, gpu="h100-sxm-80gb")
    doc = json.loads(KERNELS.read_text(encoding="utf-8"))
    raw = next(r for r in doc["gemm"] if r["dtype"] == "bf16" and "error" not in r and r["name"].endswith("wgrad"))
    row = next(r for r in kf.rows if r.name == f"bf16 {raw['name']}")
    rates = model_rates("h100-sxm-80gb")
    m, k, n = forward_shape(raw)
    expected = gemm_seconds(m, k, n, rates.gemm * gemm_alignment(2, k, n), rates.memory, 2, rates.sms,
                            rates.epilogue_k[1])
    assert row.predicted_seconds == pytest.approx(expected, rel=1e-12)
    assert row.note == "charged as its forward shape"
    # a grouped expert GEMM: grouped_gemm_seconds over its groups at the linear rate (expert_costs.py expert_gemm_seconds)
    raw = next(r for r in doc["gemm"] if r.get("groups") and "error" not in r)
    row = next(r for r in kf.rows if r.name == f"bf16 {raw['name']}")
    m, k, n = raw["m"], raw["k"], raw["n"]
    expected = grouped_gemm_seconds(raw["groups"], m, k, n, rates.linear, rates.memory, 2, rates.sms, 0.0,
                                    rates.epilogue_k[1])
    assert row.predicted_seconds == pytest.approx(expected, rel=1e-12)


def test_backward_gemms_map_to_their_forward_shape():
    """dgrad of (m x k) @ (k x n) is (m x n) @ (n x k); wgrad is (k x m) @ (m x n) (gpu_kernels.py gemm_cases)."""
    assert forward_shape({"name": "x fwd", "m": 4096, "k": 2048, "n": 6144}) == (4096, 2048, 6144)
    assert forward_shape({"name": "x dgrad", "m": 4096, "k": 6144, "n": 2048}) == (4096, 2048, 6144)
    assert forward_shape({"name": "x wgrad", "m": 2048, "k": 4096, "n": 6144}) == (4096, 2048, 6144)


def test_gemm_shapes_come_from_the_presets_and_suit_fp8():
    """Layer shapes are the presets' hf_config split over TP ranks (Megatron's column/row split); every dimension is a
    multiple of 16 in the fp8 rows, which torch._scaled_mm requires, at every TP degree."""
    for model in ("llama-3.2-1b", "llama-3.1-8b", "llama-3.1-70b"):
        c = json.loads((REPO / "presets" / "models" / f"{model}.json").read_text(encoding="utf-8"))["hf_config"]
        d = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
        qkv = (c["num_attention_heads"] + 2 * c["num_key_value_heads"]) * d
        for tp in TP_DEGREES:
            shapes = {name: (m, k, n) for name, m, k, n in layer_gemms(model, tp, 1024)}
            assert shapes["qkv"] == (1024, c["hidden_size"], qkv // tp) and qkv % tp == 0
            assert shapes["fc2"] == (1024, c["intermediate_size"] // tp, c["hidden_size"])
    fp8 = [c for g in GROUPS if g.startswith("gemm") for c in gemm_cases(g, False) if c["dtype"] == "fp8"]
    assert fp8 and all(x % 16 == 0 for case in fp8 for x in (case["m"], case["k"], case["n"]))


def test_dry_runs_stay_out_of_the_report(tmp_path):
    shutil.copy(KERNELS, tmp_path / "dry.json")
    assert load_kernel_files(tmp_path) == [] and kernel_section(tmp_path) == ""
    assert kernel_section(tmp_path / "missing") == ""


def test_a_gpu_file_gets_its_report_section(tmp_path):
    """The same rows, as if recorded on an H200: the Kernels section appears with a row per measured figure."""
    doc = json.loads(KERNELS.read_text(encoding="utf-8"))
    doc["dry_run"] = False
    doc["environment"]["gpu"] = "NVIDIA H200"
    (tmp_path / "h200.json").write_text(json.dumps(doc), encoding="utf-8")
    [kf] = load_kernel_files(tmp_path)
    assert kf.gpu_preset == "h200"
    section = kernel_section(tmp_path)
    assert section.startswith("\n\n## Kernels") and kernel_markdown(kf) in section
    assert section.count("\n| gemm |") == 1 + sum(r.kind == "gemm" for r in kf.rows)  # + the summary's line


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "cannot be read as JSON"),
    ('{"format": "other"}', "is not a kernel file"),
    ('{"format": "gpu-kernels/1", "environment": {}, "gemm": []}', "lacks one of the sections"),
])
def test_bad_kernel_files_get_one_sentence(tmp_path, text, says):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KernelFileError, match=says) as err:
        load_kernel_file(path, gpu="h200")
    assert "\n" not in str(err.value) and text not in str(err.value)


def test_unknown_device_names_the_table_to_extend(tmp_path):
    doc = json.loads(KERNELS.read_text(encoding="utf-8"))
    doc["environment"]["gpu"] = "Some Future GPU"
    path = tmp_path / "k.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(KernelFileError, match="PRESET_BY_DEVICE"):
        load_kernel_file(path)


def test_dry_run_steps_have_per_phase_times_and_pass_the_loaders():
    rows = load_gpu_time_file(STEPS, gpu="h200")
    doc = json.loads(STEPS.read_text(encoding="utf-8"))
    # the loaded rows are the cases that ran; a case left by --budget-s is recorded as skipped (an earlier dry run on
    # the shared 2-core CPU skipped the last one; this one ran all 12)
    ran = [c["id"] for c in doc["cases"] if "steps" in c]
    assert [r.id for r in rows] == ran and len(ran) >= 10
    assert all(c.get("skipped") == "time budget" for c in doc["cases"] if "steps" not in c)
    assert all(tuple(p for p, _s in r.measured_phase_seconds) == PHASES for r in rows)
    assert all(r.steps_timed == 4 for r in rows)  # --steps 5, the first a warm-up
    assert len(load_gpu_file(STEPS, gpu="h200")) == len(rows)
    env = doc["environment"]
    assert {"cpu_model", "kernel_release", "sandbox"} <= set(env) and "nvidia_smi_before" in doc
    assert gpu_phase_markdown_table(rows).count("\n") == len(rows) + 1
    assert phase_section(rows).startswith("\n\n### Per phase")


def test_recorded_gpu_files_without_phases_keep_the_report_as_it_was():
    assert phase_section(load_gpu_time_rows()) == ""


def test_device_check_cases_fit_the_lent_kinds():
    """The device-check cases (as the dry run ran them) need no package the lender's image lacks (bitsandbytes,
    liger-kernel: /work/.library/device/KINDS.md's package list), and there are at least ten (issue 23 item 9)."""
    doc = json.loads(STEPS.read_text(encoding="utf-8"))
    assert [c["id"] for c in doc["cases"]] == list(_device_check_ids()) and len(doc["cases"]) >= 10
    assert not any(c.get("qlora") or c.get("loss") == "liger-flce" for c in doc["cases"])
    assert all(c.get("qlora") is False for c in doc["cases"] if "steps" in c)  # the keys are there where a case ran


def test_device_check_script_is_valid_bash():
    script = REPO / "validation" / "device_check.sh"
    assert script.stat().st_mode & 0o111
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0


def test_sandbox_is_read_from_the_kernel_release():
    """Kernel releases the lender's machines reported (/work/.library/device/KINDS.md, 2026-11-04): gVisor 4.4.0,
    Firecracker 6.18.44-fc-v236-gpu."""
    from validation.gpu_env import host_environment, sandbox

    assert sandbox("4.4.0") == "gvisor" and sandbox("6.18.44-fc-v236-gpu") == "firecracker"
    assert sandbox("6.8.0-45-generic") == "unknown"
    env = host_environment()
    assert env["cpu_model"] and env["kernel_release"] and env["sandbox"] == sandbox(env["kernel_release"])
