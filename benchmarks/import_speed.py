"""Speed of importing adversarial launch scripts and configs (issue 28 item 5). Before the bounds, 18 lines of
doubling variables (0.9 kB) took 13.5 s, 39 never finished, and 120 kB of unclosed "$((" took 66 s. Now the work is
linear in the file (at most 1 MB) plus the expansion budget (1 M characters): the slowest case, a 1 MB heredoc of
65,000 short lines, takes about 2 s on a shared 2-core machine. Prints the wall time and the outcome of each; the
tests assert the bounds themselves (sizes and budgets), never a time.

Run: .venv/bin/python benchmarks/import_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.configs import import_texts  # noqa: E402
from engine.errors import PlannerError  # noqa: E402

HEAD = "#!/bin/bash\ntorchrun pretrain_gpt.py --num-layers 2 \\\n"
CAP = 1024 * 1024 - 200  # inside the 1 MB a config may have


def doubling(lines: int) -> str:
    return "A0=xxxxxxxxxxxxxxxx\n" + "".join(f"A{i}=${{A{i - 1}}}${{A{i - 1}}}\n" for i in range(1, lines)) + HEAD


CASES = {
    "doubling variables, 18 lines": doubling(18),
    "doubling variables, 39 lines": doubling(39),
    "doubling variables, 2,000 lines": doubling(2000),
    "unclosed $(( x 40,000 (120 kB)": HEAD + "  --seq-length " + "$((" * 40_000 + "\n",
    "unclosed $(( to 1 MB": HEAD + "  --seq-length " + "$((" * (CAP // 3) + "\n",
    "unclosed ${A:- to 1 MB": "A=1\n" + HEAD + "  --seq-length " + "${A:-" * (CAP // 5) + "\n",
    "nested $(expr ((( to 1 MB": HEAD + "  --seq-length $(expr " + "(" * (CAP - 100) + "\n",
    "one 3 kB value used 2,000 times": "B=" + "y" * 3000 + "\n" + "".join(f"C{i}=$B\n" for i in range(2000)) + HEAD,
    "1 MB of continuation lines": HEAD + "  --micro-batch-size 1 \\\n" * (CAP // 27) + "\n",
    "1 MB single line of arguments": HEAD + "  " + " --lr 1" * (CAP // 7) + "\n",
    "huge heredoc (1 MB)": HEAD + "cat <<EOF\n" + "$A ${B} $((C)) \n" * (CAP // 16) + "EOF\n",
    "arithmetic overflow": "N=" + "9" * 400 + "\nM=$((N*N*N*N*N*N*N*N))\n" + HEAD + "  --micro-batch-size $M\n",
    "YAML integer of 5,000 digits": "per_device_train_batch_size: " + "9" * 5000 + "\nmodel_name_or_path: x\n",
    "YAML hex of 200,000 digits": "per_device_train_batch_size: 0x" + "f" * 200_000 + "\nmodel_name_or_path: x\n",
}


def main() -> None:
    worst = 0.0
    for label, text in CASES.items():
        name = "train.yaml" if label.startswith("YAML") else "train.sh"
        t0 = time.perf_counter()
        try:
            import_texts([(name, text)])
            outcome = "imported"
        except PlannerError as exc:
            outcome = f"refused: {str(exc)[:70]}"
        seconds = time.perf_counter() - t0
        worst = max(worst, seconds)
        print(f"{label:<38} {len(text) / 1e3:8.1f} kB {seconds * 1e3:9.1f} ms  {outcome}")
    print(f"slowest: {worst * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
