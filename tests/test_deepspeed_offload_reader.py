"""One reader of DeepSpeed's optimizer offload (engine/configs/deepspeed.py offload_devices) decides both the offload
the plan counts and the optimizer DeepSpeed builds (FusedAdam on the GPU, DeepSpeedCPUAdam under offload), so they
cannot disagree. deepspeedai/DeepSpeed at edaa72212: deepspeed/runtime/zero/offload_config.py lines 14-18
(OffloadDeviceEnum: none, cpu, nvme; pydantic refuses any other device), deepspeed/runtime/zero/config.py lines
202-213 (the deprecated cpu_offload, an Optional[bool], becomes offload_optimizer cpu when true),
deepspeed/runtime/engine.py lines 1232-1235 (zero_use_cpu_optimizer: offload_optimizer device cpu or nvme)."""

from __future__ import annotations

import pytest

from engine.configs.common import shown_value
from engine.configs.deepspeed import OFFLOAD_DEVICES, offload_devices
from tests.deepspeed_zero_files import import_zero, not_used


@pytest.mark.parametrize(("zero", "offload", "optimizer"), [
    # pydantic reads the string "false" as False: no offload, so DeepSpeed builds FusedAdam
    ({"stage": 2, "cpu_offload": "false"}, "none", "adamw-fused"),
    ({"stage": 2, "cpu_offload": False}, "none", "adamw-fused"),
    ({"stage": 2, "cpu_offload": "true"}, "optimizer", "adamw"),  # DeepSpeedCPUAdam
    ({"stage": 2, "offload_optimizer": {"device": "nvme"}}, "optimizer", "adamw"),  # DeepSpeedCPUAdam too
    ({"stage": 2, "offload_optimizer": {"device": "none"}}, "none", "adamw-fused"),
])
def test_the_offload_and_the_optimizer_read_the_same_device(tmp_path, zero, offload, optimizer):
    result = import_zero(tmp_path, zero)
    assert (result.scenario["offload"], result.scenario["optimizer"]) == (offload, optimizer)
    if "cpu_offload" in zero:  # read either way, not listed as unused
        assert "zero_optimization.cpu_offload" not in not_used(result)


@pytest.mark.parametrize("device", ["gpu", "CPU"])  # the enum is matched exactly: "CPU" is refused as well
def test_an_unknown_offload_device_gets_one_sentence_and_no_offload(tmp_path, device):
    result = import_zero(tmp_path, {"stage": 3, "offload_optimizer": {"device": device}})
    why = not_used(result)["zero_optimization.offload_optimizer.device"]
    assert "none, cpu or nvme" in why and repr(device) in why
    assert (result.scenario["offload"], result.scenario["optimizer"]) == ("none", "adamw-fused")


def test_a_long_unknown_device_is_cut_short_in_its_sentence(tmp_path):
    # shown_value (engine/configs/common.py) keeps 60 characters of the value's repr, the last an ellipsis
    device = "x" * 5000
    why = not_used(import_zero(tmp_path, {"stage": 3, "offload_optimizer": {"device": device}}))[
        "zero_optimization.offload_optimizer.device"]
    assert shown_value(device) in why and len(shown_value(device)) == 60 and device not in why


def test_the_reader_names_deepspeeds_own_devices():
    assert OFFLOAD_DEVICES == ("none", "cpu", "nvme")
    devices = offload_devices({"offload_param": {"device": "cpu"}, "offload_optimizer": {"device": "disk"}})
    assert (devices.optimizer, devices.params, devices.unknown) == (None, "cpu", (("offload_optimizer", "disk"),))
