"""A pre-training run, told apart from a fine-tune by its token budget, keeps its method: Make it fit and the
suggestions offered a 405B pre-training plan LoRA ("assumptions changed: method"; user audit 11), while adapters
fine-tune a model someone already pre-trained (LoRA: Hu et al. 2021, arXiv:2106.09685, section 4: a frozen pre-trained
model's weights plus trainable rank decompositions) and cannot pre-train one.

The scenario has no "pre-training" key: its token budget says it. Pre-training takes at least about 20 tokens per
parameter (the compute-optimal budget: Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
arXiv:2203.15556, Table 3: 1B parameters 20.2B tokens, 10B 205.1B, 67B 1.5T; Llama 3 8B took 15T, Meta's model card),
while a fine-tune's budget is a small fraction of that (Tulu 3's SFT mix ~939K samples). A scenario with tokens_to_train
at or above 20 per parameter is taken as pre-training; without a budget, or below it, it is a fine-tune as before, and
a run that already trains adapters (the user's choice) keeps its adapter options.

The largest models were pre-trained on far less than 20 tokens per parameter before Chinchilla, so a budget of at least
100B tokens is pre-training too, whatever the model's size: GPT-3 175B took 300B tokens (Brown et al. 2020,
arXiv:2005.14165 Table 2.2), OPT-175B 180B (Zhang et al. 2022, arXiv:2205.01068 section 2.3), MT-NLG 530B 270B
(Smith et al. 2022, arXiv:2201.11990 section 3.2), BLOOM 176B 366B (BigScience 2022, arXiv:2211.05100 section 3.5),
while a fine-tune's data is one to two orders of magnitude smaller (Tulu 3's SFT mix ~939K samples, arXiv:2411.15124;
a continued pre-training at that scale, Code Llama's 500B tokens, arXiv:2308.12950, trains every weight too)."""

from __future__ import annotations

from ..scenario import Scenario, resolve_model

# Hoffmann et al. 2022 (arXiv:2203.15556) Table 3: ~20 tokens per parameter compute-optimal
PRETRAINING_TOKENS_PER_PARAMETER = 20
# the smallest pre-training budget of the pre-Chinchilla giants (OPT-175B, 180B tokens) with margin; see the docstring
PRETRAINING_TOKENS_ANY_SIZE = 100e9


def is_pretraining(s: Scenario) -> bool:
    """s trains every weight on a pre-training token budget (>= 20 tokens per parameter, or >= 100B tokens): no plan
    changes its method."""
    if s.method != "full" or s.tokens_to_train is None or s.training_objective != "sft":
        return False
    if s.tokens_to_train >= PRETRAINING_TOKENS_ANY_SIZE:
        return True
    return s.tokens_to_train >= PRETRAINING_TOKENS_PER_PARAMETER * resolve_model(s).total_params
