"""verl's Megatron actor (actor_rollout_ref.actor.strategy megatron, `--config-name ppo_megatron_trainer`): verl's
post-training loop around Megatron-Core, so its row is the megatron row (Megatron-Core's layers, its DDP with the
fp32 main-gradient buffer, Transformer Engine's or Apex's FusedAdam: engine/frameworks/defaults.py megatron) with
verl's rollout facts and verl's offload between phases. Each fact with where it is written:

- the optimizer: volcengine/verl at b178a3c verl/utils/megatron/optimizer.py lines 24-60 init_megatron_optim_config
  builds Megatron-Core's OptimizerConfig (optimizer "adam", bf16, use_distributed_optimizer from the actor's
  megatron.use_distributed_optimizer, whose default is True: trainer/config/engine/megatron.yaml) and lets
  optim.override_optimizer_config override any of its fields (Megatron's hybrid CPU optimizer among them);
  get_megatron_optimizer hands it to Megatron-Core's own get_megatron_optimizer (at db5f055, verl/utils/
  megatron_utils.py lines 221-232, use_distributed_optimizer=True always);
- the offloads: megatron.yaml lines 4-11 param_offload, grad_offload, optimizer_offload (all False);
  verl/workers/megatron_workers.py at db5f055 lines 510-545 update_actor loads the parameters (with their gradient
  buffers) and the optimizer back before the update and offloads them after it, compute_log_prob (lines 614-633)
  loads the parameters without gradients; verl/utils/megatron_utils.py offload_megatron_model_to_cpu (lines 262-297)
  frees each DDP buffer's param_data and grad_data together. grad_offload is read (megatron_workers.py line 159) and
  not used at db5f055 nor at b178a3c (line 363): the gradients move with the parameters;
- the log-probs: verl/workers/actor/megatron_actor.py (db5f055) scores with verl/utils/megatron/tensor_parallel.py
  vocab_parallel_log_probs_from_logits = -megatron.core.tensor_parallel.vocab_parallel_cross_entropy, Megatron's own
  vocabulary-parallel cross-entropy (the megatron row's loss: logprob_path model-loss);
- not read for the Megatron actor (taken from verl's FSDP actor, engine/frameworks/posttraining.py VERL): the
  entropy of the scoring pass (megatron_workers.py line 625 calls compute_log_prob(calculate_entropy=True), computed
  by vocab_parallel_entropy, megatron_actor.py line 520) and of the update, and the weight sync's bucket.
"""

from __future__ import annotations

from dataclasses import replace

from .parallelism import MEGATRON
from .posttraining import VERL
from .row_type import FrameworkRow

_VERL = "volcengine/verl"
_OFFLOAD = (f"{_VERL} at db5f055 verl/workers/megatron_workers.py lines 510-545 (update_actor): "
            "load_megatron_model_to_gpu / load_megatron_optimizer before the update, offload_megatron_model_to_cpu / "
            "offload_megatron_optimizer after it (actor.megatron.param_offload / optimizer_offload, b178a3c "
            "trainer/config/engine/megatron.yaml lines 4-11); grad_offload is read (line 159) and not used, the "
            "gradient buffers move with the parameters (megatron_utils.py offload_megatron_model_to_cpu)")

VERL_MEGATRON_POSTTRAINING = replace(
    VERL, logprob_path="model-loss", response_logits_copied=False, padding_free_scaled_on_view=False,
    reference_params_offloaded=False, adapters_sharded=False,
    sources=(*VERL.sources,
             ("Megatron actor log-probs", f"{_VERL} at db5f055 verl/workers/actor/megatron_actor.py: "
              "verl/utils/megatron/tensor_parallel.py lines 154-158 vocab_parallel_log_probs_from_logits = "
              "-tensor_parallel.vocab_parallel_cross_entropy(logits, labels), Megatron's own cross-entropy over the "
              "vocabulary-parallel logits"),
             ("Megatron actor logits", f"{_VERL} at db5f055 megatron_actor.py lines 509-526 logits_processor: the "
              "vocabulary-parallel logits go to the cross-entropy whole (a clone only for the entropy), neither "
              "sliced into a copy nor divided by the temperature in place as dp_actor.py does"),
             ("Megatron actor offload", _OFFLOAD),
             ("Megatron actor, not read", f"the scoring and update entropies ({_VERL} at db5f055 "
              "verl/workers/actor/megatron_actor.py line 520 vocab_parallel_entropy; megatron_workers.py line 625 "
              "compute_log_prob(calculate_entropy=True)) and the weight sync are taken from verl's FSDP actor")))

# the optimizer's between-phases offload under Megatron's own sharding (the distributed optimizer), not ZeRO-Offload:
# the scenario's offload key names it (engine/posttraining/settings.py offload_between_phases); the parameters' (the
# scenario's optimizer+params) needs ZeRO-3 or FSDP there, which Megatron-Core's DDP does not shard (not offered)
PARALLELISM = replace(MEGATRON, offloads=("none", "optimizer"), offload_names=(
    ("optimizer", "verl actor.megatron.optimizer_offload (between phases)"),),
    optimizer_offload_stage=0, optimizer_offload_fraction=0.0, sources=(
        *MEGATRON.sources, ("verl offload", _OFFLOAD)))


def verl_megatron_row(megatron: FrameworkRow) -> FrameworkRow:
    """The megatron row as verl's Megatron workers run it: Megatron-Core's memory facts and time profile, verl's
    post-training facts and offloads."""
    return replace(megatron, id="verl-megatron", label="verl (Megatron actor)", profile="megatron",
                   posttraining=VERL_MEGATRON_POSTTRAINING, parallelism=PARALLELISM, checkpoint_save="",
                   sources=(("training", f"{_VERL} at b178a3c verl/workers/megatron_workers.py: the actor, critic and "
                             "reference are Megatron-Core GPTModels (mbridge, megatron.yaml use_mbridge True) "
                             "trained with Megatron-Core's DDP and optimizer (verl/utils/megatron/optimizer.py lines "
                             "24-60: OptimizerConfig, use_distributed_optimizer default True)"),
                            *megatron.sources))
