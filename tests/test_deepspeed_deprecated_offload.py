"""DeepSpeed's deprecated offload spellings (issue 23 leftovers4 item 3), read as deepspeedai/DeepSpeed at edaa72212
reads them: deepspeed/runtime/zero/config.py lines 181-190 (cpu_offload_param, an Optional[bool], becomes offload_param
on the CPU when true) and 202-213 (cpu_offload -> offload_optimizer cpu); deepspeed/runtime/config_utils.py lines
73-91 (_process_deprecated_field: a deprecated field given at all, beside the field that replaces it, is an assertion,
"Cannot provide deprecated parameter ... and replacing parameter ... together", so that run cannot start)."""

from __future__ import annotations

import pytest

from engine.configs.deepspeed import offload_devices
from tests.deepspeed_zero_files import import_zero, not_used


@pytest.mark.parametrize(("zero", "offload"), [
    ({"stage": 3, "cpu_offload": True, "cpu_offload_param": True}, "optimizer+params"),  # ZeRO-3 Offload's old form
    ({"stage": 3, "cpu_offload": True, "cpu_offload_param": "false"}, "optimizer"),  # pydantic: "false" is False
])
def test_cpu_offload_param_is_parameter_offload(tmp_path, zero, offload):
    result = import_zero(tmp_path, zero)
    assert result.scenario["offload"] == offload
    assert "zero_optimization.cpu_offload_param" not in not_used(result)  # read either way


@pytest.mark.parametrize(("old", "section"), [("cpu_offload", "offload_optimizer"),
                                              ("cpu_offload_param", "offload_param")])
def test_a_deprecated_key_beside_its_section_is_refused_in_one_sentence(tmp_path, old, section):
    # at any value of the old key (config_utils.py asserts on the field being given), the section is what is read
    zero = {"stage": 3, old: False, section: {"device": "cpu"}, "offload_optimizer": {"device": "cpu"}}
    assert offload_devices(zero).refused == ((old, section),)
    why = not_used(import_zero(tmp_path, zero))[f"zero_optimization.{old}"]
    assert old in why and section in why and "cannot start" in why
    assert import_zero(tmp_path, zero).scenario["offload"] == ("optimizer+params" if old == "cpu_offload_param"
                                                         else "optimizer")
