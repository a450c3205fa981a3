"""A pre-training run, told apart from a fine-tune by its token budget, keeps its method: Make it fit and the
suggestions offered a 405B pre-training plan LoRA ("assumptions changed: method"; user audit 11), while adapters
fine-tune a model someone already pre-trained (LoRA: Hu et al. 2021, arXiv:2106.09685, section 4: a frozen pre-trained
model's weights plus trainable rank decompositions) and cannot pre-train one.

The scenario has no "pre-training" key: its token budget says it. Pre-training takes at least about 20 tokens per
parameter (the compute-optimal budget: Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
arXiv:2203.15556, Table 3: 1B parameters 20.2B tokens, 10B 205.1B, 67B 1.5T; Llama 3 8B took 15T, Meta's model card),
while a fine-tune's budget is a small fraction of that (Tulu 3's SFT mix ~939K samples). A scenario with tokens_to_train
at or above 20 per parameter is taken as pre-training; without a budget, or below it, it is a fine-tune as before, and
a run that already trains adapters (the user's choice) keeps its adapter options."""

from __future__ import annotations

from ..scenario import Scenario, resolve_model

# Hoffmann et al. 2022 (arXiv:2203.15556) Table 3: ~20 tokens per parameter compute-optimal
PRETRAINING_TOKENS_PER_PARAMETER = 20


def is_pretraining(s: Scenario) -> bool:
    """s trains every weight on a pre-training token budget (>= 20 tokens per parameter): no plan changes its method."""
    if s.method != "full" or s.tokens_to_train is None or s.training_objective != "sft":
        return False
    return s.tokens_to_train >= PRETRAINING_TOKENS_PER_PARAMETER * resolve_model(s).total_params
