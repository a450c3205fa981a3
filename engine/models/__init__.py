"""Model descriptions and where they come from: architectures, config.json readers, presets, the local model cache."""
