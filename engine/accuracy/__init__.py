"""Accuracy reporting against traces, measured GPUs and published runs: used only by tests,
benchmarks and the README headline."""
