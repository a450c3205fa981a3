"""Time, on the CPU, verl's DataProto round trip through ray for one scoring call (issue 23: verl's scoring phases).

verl's driver calls compute_log_prob / compute_ref_log_prob on the worker group with the step's whole batch
(volcengine/verl 9466d371e verl/trainer/ppo/ray_trainer.py lines 1013-1054, inside the old_log_prob and ref timers);
Dispatch.DP_COMPUTE_PROTO chunks it over the ranks (verl/single_controller/base/decorator.py) and ray pickles each
chunk as a task argument in the driver, one after the other; DataProto.__getstate__ (verl/protocol.py lines 261-270)
consolidates the TensorDict (tensordict >= 0.5: one copy of every tensor into one storage), torch.save's it into a
BytesIO and takes getvalue(); each worker's __setstate__ torch.load's its chunk (lines 272-280), all ranks at once;
each returns a DataProto of per-token fp32 log-probs (and the entropies, compute_log_prob(calculate_entropy=True)),
which the driver loads and concatenates (collect_dp_compute_data_proto, DataProto.concat).

The batch at that point holds, per sequence, int64 tensors (ray_trainer.py: the rollout's prompts (padded to
data.max_prompt_length), responses (padded to rollout.response_length), input_ids, attention_mask and position_ids
(prompt + response), and response_mask (compute_response_mask). The consolidate is emulated by one torch.cat (no
tensordict in this environment); ray's own copy into its object store is not timed.

Timed: thread CPU seconds (time.thread_time, one thread) of the driver's serialisation of every chunk, one worker's
load of its chunk, the driver's load and concatenation of the returned log-probs; and, in the same run, the price of
a view call from Python (torch.narrow, less an empty call: verl_lora_host_counts.local_prices' view), to express the
times in view calls, the project's currency for build-host timings (engine/posttraining/engine_sampler.py
run_host_per_build_host_second). Run in h-rlops' environment (torch 2.13.0 CPU):
    /tmp/venv-rlops/bin/python benchmarks/verl_dataproto_dispatch.py [sequences ranks prompt response]
"""

from __future__ import annotations

import io
import pickle
import statistics
import sys
import time
from typing import Any


def _batch(torch: Any, n: int, prompt: int, response: int) -> dict[str, Any]:
    seq = prompt + response
    return {"prompts": torch.randint(0, 150000, (n, prompt)), "responses": torch.randint(0, 150000, (n, response)),
            "response_mask": torch.ones(n, response, dtype=torch.int64),
            "input_ids": torch.randint(0, 150000, (n, seq)), "attention_mask": torch.ones(n, seq, dtype=torch.int64),
            "position_ids": torch.arange(seq).repeat(n, 1)}


def _send(torch: Any, tensors: dict[str, Any]) -> bytes:
    flat = torch.cat([t.reshape(-1) for t in tensors.values()])  # tensordict's consolidate: one storage
    out, at = {}, 0
    for k, t in tensors.items():
        out[k] = flat[at:at + t.numel()].view(t.shape)
        at += t.numel()
    buffer = io.BytesIO()
    torch.save(out, buffer)
    return pickle.dumps((buffer.getvalue(), {}, {}), protocol=5)  # ray's pickling of the task argument


def _receive(torch: Any, blob: bytes) -> dict[str, Any]:
    data, _, _ = pickle.loads(blob)
    return torch.load(io.BytesIO(data), weights_only=False)


def _seconds(fn: Any, repeats: int = 5) -> float:
    runs = []
    for _ in range(repeats):
        t = time.thread_time()
        fn()
        runs.append(time.thread_time() - t)
    return statistics.median(runs)


def _view_seconds(torch: Any, repeats: int = 100000) -> float:
    a = torch.ones(8, 16, dtype=torch.bfloat16)

    def loop(fn: Any) -> float:
        return _seconds(lambda: [fn() for _ in range(repeats)]) / repeats
    return loop(lambda: torch.narrow(a, 0, 0, 4)) - loop(lambda: a)


def main() -> int:
    import torch

    torch.set_num_threads(1)
    n, ranks, prompt, response = (int(a) for a in (sys.argv[1:5] if len(sys.argv) > 4 else (5120, 8, 512, 1024)))
    whole = _batch(torch, n, prompt, response)
    sent = sum(t.numel() * t.element_size() for t in whole.values())
    chunks = [{k: v[i::ranks].contiguous() for k, v in whole.items()} for i in range(ranks)]
    driver_send = _seconds(lambda: [_send(torch, c) for c in chunks])
    blob = _send(torch, chunks[0])
    worker_receive = _seconds(lambda: _receive(torch, blob))
    rows = n // ranks
    outs = [_send(torch, {"old_log_probs": torch.randn(rows, response), "entropys": torch.randn(rows, response)})
            for _ in range(ranks)]
    returned = 2 * n * response * 4
    driver_receive = _seconds(lambda: torch.cat([_receive(torch, o)["old_log_probs"] for o in outs]))
    view = _view_seconds(torch)
    mb = 1e6
    print(f"sequences {n} ranks {ranks} prompt {prompt} response {response}: sent {sent / mb:.1f} MB, "
          f"returned {returned / mb:.1f} MB; view call {view * 1e6:.2f} us")
    print(f"driver send {driver_send * 1e3:.1f} ms = {driver_send / view / (sent / mb):.0f} view calls per MB; "
          f"worker receive {worker_receive * 1e3:.1f} ms = {worker_receive / view / (sent / ranks / mb):.0f} per MB; "
          f"driver receive {driver_receive * 1e3:.1f} ms = {driver_receive / view / (returned / mb):.0f} per MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
