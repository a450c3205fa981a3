"""The model a framework actually builds from a checkpoint, where that differs from the checkpoint's config."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ..models.architecture import ModelSpec
from .defaults import defaults_for


@lru_cache(maxsize=512)  # bounded; specs hash by identity, so one untied copy per spec and framework
def as_built(spec: ModelSpec, framework: str) -> ModelSpec:
    """litgpt's GPT always has its own lm_head weight: a tied checkpoint's embedding is copied into it
    (litgpt scripts/convert_hf_checkpoint.py), so the model holds both."""
    if spec.tied_embeddings and defaults_for(framework).unties_embeddings:
        return dataclasses.replace(spec, tied_embeddings=False)
    return spec
