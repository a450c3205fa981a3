"""The offload copies between phases in the phase whose verl timer holds them (engine/accuracy/posttraining_time.py
offload_by_phase), where the parameters and the optimizer's states copy at different rates."""

from engine.accuracy import posttraining_time as ptt


def test_pageable_parameter_loads_take_their_copy_seconds_not_their_byte_share() -> None:
    # FSDP2's model.cpu() copies the parameters to pageable memory, the optimizer's states stay pinned
    # (engine/posttraining/phase_offload.py): a full fine-tune's weight sync load is one parameter copy each way at the
    # pageable rate, phase_offload_seconds of the parameters alone, scaled as the step's phase_offload is
    from engine import scenario_from_dict
    from engine.frameworks.defaults import defaults_for
    from engine.posttraining.estimate import step_parts
    from engine.posttraining.phase_offload import PhaseMoves, phase_offload_seconds
    from engine.posttraining.phases import step_parameter_loads_by_phase
    from engine.timing import hardware_for
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict({**row["scenario"], "fsdp_version": 2, "method": "full", "reference_model": "auto"})
    p, host = step_parts(s), hardware_for(s).host_bytes_per_s
    pageable = defaults_for(s.framework).posttraining.fsdp2_offload_pageable
    loads = step_parameter_loads_by_phase(p)
    total = dict(step_time(s).rl_seconds)["phase_offload"]
    scale = total / phase_offload_seconds(s, p.moves, sum(loads.values()), host, pageable)
    one_load = phase_offload_seconds(s, PhaseMoves(params_bytes=p.moves.params_bytes), 1, host, pageable) * scale
    assert pageable and loads["generation"] == 1 and p.moves.update_bytes > 0
    assert abs(ptt.offload_by_phase(s, total)["generation"] - one_load) < 1e-9 * total
