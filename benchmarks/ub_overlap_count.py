"""What Transformer Engine's userbuffers overlap leaves of the tensor-parallel collectives, counted per layer and
micro-batch on the published Megatron runs whose TP layouts the GB200 gap follows (dgxc-benchmarking 25.05.05 and
NeMo 25.04 on GB200: Llama 3.1 405B TP 4 x CP 2, Nemotron-4 340B TP 8 over two NVL72 trays; their H100 and B200
twins; Megatron-Bridge's 405B with and without CP), costed with the time model's own machinery (links and
collectives for the transfers, gemm_seconds for each paired GEMM at the run's linear rate), set beside the time the
run misses per micro-batch (measured step - predicted step, no ceilings, over the micro-batches).

The schedule is Transformer Engine bee4649c's (2.2.0.dev0, the NeMo 25.04 container's: NeMo requirements/manifest.json
at 6f2c6fd), transformer_engine/common/comm_gemm_overlap/comm_gemm_overlap.cpp, with NeMo 6f2c6fd's configs
(nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py: userbuffers_{bf16,fp8}_b200_h16384_tp4_cp2_mbs1_
seqlen8192, _b200_h18432_tp8_mbs1_seqlen4096, _h100_h16384_tp8_cp2_mbs1_seqlen8192), ten collectives a layer:
- ring exchange (qkv_fprop, fc1_fprop, proj_dgrad, fc2_dgrad all-gathers; proj_fprop / fc2_fprop reduce-scatters
  where the config says ring_exchange): split_overlap_ag runs the GEMM as tp chunks of tokens / tp rows, chunk i + 1
  waiting for hop i (copy engine, userbuffers_send/recv), the hops one after another: exposed max(0, comm - (tp - 1)
  / tp x GEMM); split_overlap_rs sends each chunk's partial output after its GEMM: the last hop is exposed too.
- pipeline (proj_fprop, fc2_fprop reduce-scatters in the bf16 configs): num_splits 4 GEMM chunks on the SMs less
  num_sm (set_sm_margin: _math_sms = sm_count - num_comm_sm), each chunk's reduce-scatter beside the next chunk:
  exposed the last chunk's reduce-scatter and the GEMM's lost SMs.
- bulk (qkv_dgrad / fc1_dgrad: the all-gather of the saved input for the weight gradient beside the dgrad GEMM;
  qkv_wgrad / fc1_wgrad: the reduce-scatter of the input gradient beside the wgrad GEMM): exposed max(0, comm - GEMM).
Each transfer takes the time model's TP unit bandwidth (tp_unit_seconds: the ring over the link, (tp - 1) / tp of the
activation per all-gather or reduce-scatter), so the count says what the schedule hides at the rates the model uses,
not how fast the copy engines or the comm kernels' few SMs move it (no measurement of either on Blackwell was found).

Run: .venv/bin/python benchmarks/ub_overlap_count.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.collectives import tp_unit_seconds  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.gemm import gemm_seconds  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.links import link, nvlink_domain  # noqa: E402
from engine.timing.model import rates_for  # noqa: E402

ROWS = ("dgxc-25.05.05-llama3-1-405b-bf16-gb200-128-gbs64", "dgxc-25.05.05-llama3-1-405b-fp8-gb200-128-gbs64",
        "dgxc-25.05.05-nemotron-340b-bf16-gb200-strong-scaling-gb200-128-gbs512",
        "dgxc-25.05.05-nemotron-340b-fp8-gb200-strong-scaling-gb200-128-gbs512",
        "nemo-25.04-llama3-405b-dgx-gb200-fp8-128", "nemo-25.04-nemotron-340b-dgx-gb200-fp8-128",
        "megatron-bridge-25.09-llama3.1_405b-dgx-gb200-fp8-mx-128",
        "megatron-bridge-26.04-llama3.1_405b-dgx-gb200-fp8-256",
        "dgxc-25.05.05-llama3-1-405b-bf16-h100-sxm-80gb-512-gbs256",
        "dgxc-25.05.05-llama3-1-405b-fp8-h100-sxm-80gb-512-gbs256",
        "nemo-25.02-llama3-405b-dgx-b200-fp8-128", "megatron-bridge-25.09-llama3.1_405b-dgx-b200-fp8-cs-128",
        "nemo-25.02-nemotron-340b-dgx-b200-fp8-128",
        # Megatron-Bridge's Llama 3.1 405B fp8 on 256 GB300: TP 4 x CP 1 against TP 2 x CP 2 (the same userbuffers
        # config at both TPs: scripts/performance/configs/llama/llama31_llm_pretrain.py at v0.4.0 sets
        # userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192 for every GB300 layout but nvfp4's)
        "megatron-bridge-26.04-llama3.1_405b-dgx-gb300-fp8-256",
        "megatron-bridge-26.06-pretraining-llama3.1_405b-dgx-gb300-fp8-256",
        "megatron-bridge-26.02.01-llama3.1_405b-dgx-gb300-fp8-256",
        "megatron-bridge-25.11-llama3.1_405b-dgx-gb300-fp8-cs-256")

# (method, num_sm) of proj_fprop and fc2_fprop in NeMo 6f2c6fd's configs, by (hidden, tp, fp8); the other eight
# collectives use the same methods in every config (ring exchange for the four all-gathers, bulk for the dgrad /
# wgrad pairs)
FORWARD_RS = {(16384, 4, False): (("pipeline", 32), ("pipeline", 8)), (16384, 4, True): (("ring", 1), ("ring", 1)),
              (18432, 8, False): (("ring", 1), ("pipeline", 24)), (18432, 8, True): (("ring", 1), ("ring", 1)),
              (16384, 8, False): (("pipeline", 24), ("pipeline", 8)), (16384, 8, True): (("ring", 1), ("ring", 1)),
              # Megatron-Bridge v0.4.0 comm_overlap.py userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192 at TP 2
              (16384, 2, True): (("ring", 1), ("ring", 1))}
SPLITS = 4  # PipelineOverlapCfg num_splits in every config


def _ring_ag(comm: float, gemm: float, tp: int) -> float:
    return max(0.0, comm - (tp - 1) / tp * gemm)


def _ring_rs(comm: float, gemm: float, tp: int) -> float:
    return comm / (tp - 1) + max(0.0, comm - (tp - 1) / tp * gemm)


def _pipeline_rs(comm: float, gemm: float, num_sm: int, sms: int) -> float:
    slower = gemm * num_sm / max(sms - num_sm, 1)  # the GEMM runs on the SMs the comm kernels leave
    return comm / SPLITS + max(0.0, (SPLITS - 1) / SPLITS * (comm - gemm)) + slower


def layer_count(row: dict[str, Any]) -> dict[str, float]:
    """Seconds per layer and micro-batch: the ten collectives unhidden, what the schedule leaves (at NeMo's
    configs), the GEMMs."""
    s = scenario_from_dict(row["scenario"])
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    tp, tokens = s.tp, s.micro_batch * s.seq_len / s.cp
    elem = 1 if s.precision == "fp8" else 2

    def g(k: float, n: float) -> float:
        return gemm_seconds(tokens, k, n, rates.linear, rates.memory, elem, rates.sms)

    node = nvlink_domain(s, hw)
    bw, lat = link(hw, tp, node)
    one = tp_unit_seconds(hw, tp, tokens * spec.hidden * 2, bw, lat, False) / 2  # an all-gather or a reduce-scatter
    h = spec.hidden
    lin = {x.name: x.split(tp) for x in spec.layer_linears(False)}  # (d_in, d_out) of the rank's part
    qkv = g(h, sum(lin[n][1] for n in ("q_proj", "k_proj", "v_proj") if n in lin))
    proj = g(lin["o_proj"][0], h)
    fc1 = g(h, sum(lin[n][1] for n in ("gate_proj", "up_proj") if n in lin))
    fc2 = g(lin["down_proj"][0], h)
    (pm, pn), (fm, fn) = FORWARD_RS[(h, tp, s.precision == "fp8")]
    sms = rates.sms or 132
    rs = {"pipeline": lambda c, gm, n: _pipeline_rs(c, gm, n, sms), "ring": lambda c, gm, n: _ring_rs(c, gm, tp)}
    forward = _ring_ag(one, qkv, tp) + rs[pm](one, proj, pn) + _ring_ag(one, fc1, tp) + rs[fm](one, fc2, fn)
    backward = (_ring_ag(one, fc2, tp) + _ring_ag(one, proj, tp)
                + max(0.0, one - fc1) * 2 + max(0.0, one - qkv) * 2)  # dgrad GEMMs ~ the forward's shapes
    return {"unhidden": 10 * one, "schedule": forward + backward, "gemms": 3 * (qkv + proj + fc1 + fc2)}


def main() -> None:
    rows = {r["id"]: r for r in load_rows()}
    print("ms per micro-batch on one rank: miss = measured - predicted step (no ceilings) / micro-batches; TP all =")
    print("the ten collectives a layer with nothing hidden; model = the time model's exposed TP (tp_overlap.py, TE's")
    print("default userbuffers config, with the fp8 amax reductions); sched = what TE's schedule")
    print("leaves at the model's rates; beyond = miss + model - TP all (left if every TP collective were exposed)")
    print(f"{'row':62s} {'layers':>6s} {'miss':>6s} {'TP all':>7s} {'model':>6s} {'sched':>6s} {'beyond':>7s}"
          f" {'GEMMs':>7s}")
    for rid in ROWS:
        row = rows.get(rid)
        if row is None:
            continue
        sc = row["scenario"]
        s = scenario_from_dict(sc)
        with without_ceilings():
            t = step_time(s)
        ga = max(int(sc.get("grad_accum", 1)), 1)
        miss = (t.step_seconds * t.tokens_per_second_per_gpu / float(row["measured"]) - t.step_seconds) / ga * 1e3
        layers = resolve_model(s).layers / s.pp
        c = {k: v * layers * 1e3 for k, v in layer_count(row).items()}
        c["model"] = t.breakdown_seconds["communication_tp"] / ga * 1e3  # what engine/timing/tp_overlap.py leaves
        beyond = miss + c["model"] - c["unhidden"]
        print(f"{rid[:62]:62s} {layers:6.1f} {miss:6.1f} {c['unhidden']:7.1f} {c['model']:6.1f} {c['schedule']:6.1f}"
              f" {beyond:7.1f} {c['gemms']:7.1f}")


if __name__ == "__main__":
    main()
