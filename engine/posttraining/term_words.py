"""The post-training step's terms in words (engine/posttraining/timing.py): each term's name, formula and the kind of
figure that decides it, as the time bar, the plan card and the JSON show them."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP
from ..timing.provenance import DERIVED, Provenance

RL_TERM_NAMES = {
    "generation": QT_TRANSLATE_NOOP("engine", "Generation (prefill + decode)"),
    "scoring": QT_TRANSLATE_NOOP("engine", "Scoring forwards (reference, reward, old log-probs)"),
    "critic": QT_TRANSLATE_NOOP("engine", "Critic training step"),
    "weight_sync": QT_TRANSLATE_NOOP("engine", "Weight sync to the engine"),
    "phase_offload": QT_TRANSLATE_NOOP("engine", "Offload between phases (copies to and from CPU memory)"),
    "frozen_streaming": QT_TRANSLATE_NOOP("engine", "Reference and reward weights copied in from CPU memory"),
    "adapter_units": QT_TRANSLATE_NOOP("engine", "LoRA adapters' FSDP units in the update (host work of each "
                                       "adapter's unshard and reshard)"),
    "refit_offload": QT_TRANSLATE_NOOP("engine", "States moved to CPU memory around the weight sync and back, "
                                       "reference swapped in"),
    "packed_padding": QT_TRANSLATE_NOOP("engine", "Packed micro-batches padded to the longest (pipeline parallel)"),
    "vocab_passes": QT_TRANSLATE_NOOP("engine", "verl's passes over the logits in the update (temperature, entropy)"),
    "rank_imbalance": QT_TRANSLATE_NOOP("engine", "Update micro-batches waiting for the rank with the most tokens"),
}
RL_FORMULAS = {
    "generation": QT_TRANSLATE_NOOP("engine", "prefill: (2 x active params + causal attention) x prompt tokens at the "
                                    "matmul rate, plus the engine's tensor-parallel all-reduces of those tokens; decode: "
                                    "per token, max(the longer of the weights read (not an untied embedding table nor a "
                                    "vision tower; of a MoE's experts, those its tokens pick, at the triton fused_moe's "
                                    "tile share of the bandwidth in vLLM and SGLang; a bitsandbytes 4-bit base, with 2 or "
                                    "more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the "
                                    "sequences in flight / memory bandwidth and (2 x active params + attention over the "
                                    "cached tokens) x sequences / matmul rate (an MLA model's attention: its own kernel "
                                    "after them, the longer of its FLOPs and its latent reads), plus vLLM's and SGLang's "
                                    "kernels' fixed time (the served adapters' LoRA kernels and a bitsandbytes base's "
                                    "kernels too) and the engine's tensor-parallel all-reduces (2 a layer of tokens x "
                                    "hidden x 2 bytes, NCCL's beyond a node); the host's launches of every layer without a "
                                    "CUDA graph (eager, or a batch beyond the largest captured), with vLLM's LoRA kernels "
                                    "of each adapted linear when it serves the adapters; without an engine, the trainer's "
                                    "generate(): its loop, transformers' eager layers (Qwen3.5's DeltaNet on their torch "
                                    "fallback: flash-linear-attention assumed absent), PEFT's adapters and bitsandbytes' "
                                    "4-bit linears where it runs them), plus vLLM V0's scheduling, input preparation and "
                                    "sampler (with the sampled log-prob where the framework asks for it) of every running "
                                    "sequence and, without CUDA graphs, its output processing of each, or vLLM V1's "
                                    "scheduling, input preparation, sampling and output update of each step (and, its "
                                    "engine core in the trainer's process, its output processing of each request), at the "
                                    "sequences the engine holds at once, a waiting one taking the place of one that ends "
                                    "(sequences / that many passes of completion_len iterations), per generate() call (one "
                                    "per micro-batch where the framework generates so); then, each call's batch waiting for "
                                    "its longest completion, one sequence decoding alone from completion_len to "
                                    "max_completion_len (a MoE's last pass, and a dense model's decoded from CUDA graphs: "
                                    "its sequences ending along the completions' "
                                    "spread, the maximum-entropy one of that mean and longest, assumed); the slowest "
                                    "of several engines: its extra tokens (its sequences independent draws of that spread); "
                                    "then the generation worker's Python building its batch from the outputs and the "
                                    "driver's decode of every response, per request and generated token (NeMo-RL's "
                                    "synchronous worker)"),
    "scoring": QT_TRANSLATE_NOOP("engine", "policy passes (the old policy's where the framework scores it apart, "
                                 "TRL's GRPO only off policy) x the training forward of the step's micro-batches (an "
                                 "adapter-off reference: the base's forward without the adapters); reward "
                                 "and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters "
                                 "as FSDP units: + the old-policy pass's visit of each unit beyond its linear's GEMM; "
                                 "packed micro-batches padded to the longest under a pipeline: the policy passes x "
                                 "that padding; each policy pass no faster than the host issues its eager layers; "
                                 "verl's passes over the logits (temperature, entropy) beyond the loss path's; "
                                 "FSDP1 over ranks: each policy pass's weight gathers beyond what its forward hides "
                                 "(every layer each micro-batch, the root once); a single controller: the batch "
                                 "sent to the workers and the per-token results back, each scoring call; padding-free "
                                 "micro-batches of a fixed count of sequences under FSDP: at the longest rank's tokens"),
    "critic": QT_TRANSLATE_NOOP("engine", "the critic's training step, from the training time model"),
    "weight_sync": QT_TRANSLATE_NOOP("engine", "policy bytes / GPU-to-GPU bandwidth when gathered or sent, else / "
                                     "memory bandwidth; adapters served by the engine, instead: the policy gathered in "
                                     "full precision over the FSDP link + one host round trip per adapter tensor; "
                                     "vLLM's level-1 sleep: + 2 x the engine's weight bytes / host link bandwidth; a "
                                     "Megatron policy exported whole on every rank: + its stage's bytes from TP/EP "
                                     "peers / node link + the other stages' bytes / the pipeline peers' link; adapters "
                                     "loaded anew at every generate() call: per call one host round trip per adapter "
                                     "tensor + 2 x the adapters' bytes / host link bandwidth"),
    "phase_offload": QT_TRANSLATE_NOOP("engine", "2 x (parameter bytes x their loads per step (update, scoring, "
                                       "weight sync) + optimizer-state bytes) / host link bandwidth"),
    "frozen_streaming": QT_TRANSLATE_NOOP("engine", "forwards x the frozen model's parameter bytes / (tp x FSDP "
                                          "shards) / host link bandwidth"),
    "adapter_units": QT_TRANSLATE_NOOP("engine", "micro-batches x (forward + recompute + backward visits) x layers x "
                                       "adapted linears x max(0, 2 units x (FSDP1's counted calls + its measured "
                                       "Python) per visit at the host's per-call costs - the linear's base GEMM)"),
    "refit_offload": QT_TRANSLATE_NOOP("engine", "2 x optimizer-state bytes / pageable host rate + 2 x parameter "
                                       "bytes / host rate (pinned or pageable) + 3 x parameter bytes / pinned host "
                                       "rate for the reference's swap"),
    "packed_padding": QT_TRANSLATE_NOOP("engine", "(the bin capacity / the tokens of the whole mean-length "
                                        "sequences a bin holds - 1) x the training step; the scoring passes "
                                        "likewise"),
    "vocab_passes": QT_TRANSLATE_NOOP("engine", "tokens x vocabulary x (the bytes per logit of verl's division by "
                                      "the temperature, compiled entropy and out-of-place cross-entropy gradient, "
                                      "forward and backward, less the loss path's) / memory bandwidth; each scoring "
                                      "pass likewise, forward only, in the scoring"),
    "rank_imbalance": QT_TRANSLATE_NOOP("engine", "(e_n x sigma x sqrt(1 - 1/k) / (tokens a sequence x sqrt(m))) x "
                                        "the update's matmuls, memory-bound passes and recompute (n ranks; micro-batches "
                                        "of a fixed count of sequences: m a micro-batch's sequences, k the micro-batches "
                                        "a rank; by token count (max_tokens_per_micro_batch): m a mini-batch's sequences "
                                        "a rank, k the mini-batches; sigma: sequence_len_std where stated, a run's log, "
                                        "else the completions' spread, the maximum-entropy one of the mean and longest, "
                                        "assumed); each scoring pass's forward likewise, in the scoring, where its "
                                        "micro-batches hold a fixed count of sequences"),
}


RL_PROVENANCE = {
    "generation": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Prefill FLOPs at the matmul rate and decode bytes at the memory bandwidth (a roofline), at the "
        "sequences the engine holds, a waiting one admitted as one ends.")),
    "scoring": Provenance(DERIVED, QT_TRANSLATE_NOOP("engine", "The training model's forward of the step's micro-batches "
                                                     "for the policy's passes; forward FLOPs for the other models.")),
    "critic": Provenance(DERIVED, QT_TRANSLATE_NOOP("engine", "The critic's step from the training time model.")),
    "weight_sync": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Policy bytes over the link they cross, or through memory when the engine shares the GPUs.")),
    "phase_offload": Provenance(DERIVED, QT_TRANSLATE_NOOP("engine", "The states the offload takes off the GPU "
                                                           "between phases, copied back and forth over the host link.")),
    "frozen_streaming": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "FSDP's parameter CPU offload copies each unit's shard to the GPU for every forward of the "
        "frozen model.")),
    "adapter_units": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "FSDP1's calls per unshard and reshard, counted from its source, and its own Python per visit, "
        "measured by running the logs' code path on a CPU (benchmarks/verl_lora_host_counts.py), at the measured "
        "per-call host costs.")),
    "refit_offload": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "The copies NeMo-RL's policy worker makes around each weight sync and for the reference, read from "
        "its source, over the host link.")),
    "packed_padding": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "NeMo-RL pads every packed micro-batch to the longest under a pipeline (from its source); the bins' "
        "fill is assumed from the mean length, the longest at the capacity: an upper bound.")),
    "vocab_passes": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "The passes verl's actor runs over the padding-free logits, counted from its source, at the memory "
        "bandwidth.")),
    "rank_imbalance": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "verl's micro-batches (a fixed count of sequences, or a token budget within each mini-batch) and "
        "FSDP's gathers, read from their source; the length spread is the run's log's where the scenario states it "
        "(sequence_len_std), else assumed (the maximum-entropy one of the stated mean and longest).")),
}


__all__ = ["RL_FORMULAS", "RL_PROVENANCE", "RL_TERM_NAMES"]
