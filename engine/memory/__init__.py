"""The memory model: per-tensor components of a training step, per stage and per rank."""
