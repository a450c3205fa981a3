"""How each parallelism keeps tensors on one GPU (PyTorch-style; Megatron-style kept apart where it differs)."""
