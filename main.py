"""LLM Memory Planner: `python main.py` opens the window; subcommands run the engine from a shell.

    python main.py                          the window
    python main.py SCENARIO.json            the window, with a scenario open
    python main.py --screenshot OUT.png [SCENARIO.json]   render the window to a PNG and exit
    python main.py --screenshot OUT.png [SCENARIO.json] [--size WxH] [--lang en|zh_CN] [--theme light|dark]
                   [--tab breakdown|time|suggestions|fit|speed|library|compare|diagnose|users|rent]
    python main.py --lang zh_CN [--screenshot ...]         choose the language (en, zh_CN)
    python main.py --version                               the version
    python main.py estimate SCENARIO.json [--json]         per-GPU breakdown
    python main.py fit SCENARIO.json [--json]              limits and plans that make it fit
    python main.py presets models|gpus                     preset ids
    python main.py import FILE [FILE...] [--json]          a scenario from training config files of one job
    python main.py export-config SCENARIO.json --to FMT    launch settings for deepspeed, accelerate, torchtune, ...
    python main.py diagnose FILE [SCENARIO.json] [--json]  an out-of-memory message, snapshot or GPU log beside the plan
    python main.py serve-fit|kv-cache|calibrate|schema ...  the others (python main.py --help lists them all)
    python main.py --lang zh_CN estimate SCENARIO.json     the table in Chinese
"""

from __future__ import annotations

import sys

from gui.launch import CLI_COMMANDS, NO_DISPLAY, cli_translators, main  # noqa: F401 - the app's command line lives there

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
