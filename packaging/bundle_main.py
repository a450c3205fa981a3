"""The bundle's entry script: the same command line as `python main.py` and the installed scripts."""

import sys

from gui.launch import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
