"""The optimizer an OpenRLHF trainer builds, read from its flags (the script is never run).

OpenRLHF/OpenRLHF at 3c3be6234e0c: --optim adam (the default; cli/train_sft.py line 223, train_dpo.py line 255,
train_ppo_ray.py line 448 --actor.optim / --critic.optim) makes openrlhf/utils/deepspeed/deepspeed.py lines 358-366
hand DeepSpeed a config optimizer {"type": "AdamW", params lr, betas, eps, weight_decay}, and deepspeed_utils.py
get_train_ds_config (lines 25-26, 71-73: "DS auto-selects FusedAdam / DeepSpeedCPUAdam based on offload setting")
puts its states on the CPU only under --ds.adam_offload. DeepSpeed builds FusedAdam for such a config on the GPU and
DeepSpeedCPUAdam under the offload (the deepspeed row's optimizer fact, engine/frameworks/runs.py). Before the config
optimizer (76351db, the flat flags) deepspeed.py line 142 chose the same two itself: `DeepSpeedCPUAdam if
self.adam_offload else FusedAdam`. --optim muon (DeepSpeed's Muon with an auxiliary Adam) is not an optimizer the
planner models. The Adam hyper-parameters (--adam.betas, --adam.eps, --adam.weight_decay, --adam.lr; --adam_betas,
--l2, --learning_rate before) change neither memory nor time.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario.optimizer_used import framework_optimizer
from .result import Collector

# the flags naming the optimizer: the SFT/DPO/RM trainers' --optim, the PPO trainer's per-model ones
_OPTIM_FLAGS = ("optim", "actor.optim")
# hyper-parameters of the Adam it builds: read, no memory or time of their own
_ADAM_HYPER = ("adam.betas", "adam.eps", "adam.weight_decay", "adam.lr", "actor.adam.betas", "actor.adam.eps",
               "actor.adam.weight_decay", "actor.adam.lr", "critic.adam.betas", "critic.adam.eps",
               "critic.adam.weight_decay", "critic.adam.lr", "adam_betas", "l2")
# the PPO critic's --critic.optim: the critic's states are counted as the actor's optimizer's (the critic is trained
# by the policy's estimator, engine/posttraining/models.py), so Adam is read and any other is listed as not modelled
_CRITIC_OPTIM_FLAG = "critic.optim"
_CRITIC_NOT_MODELLED = QT_TRANSLATE_NOOP("engine", "the critic's optimizer '{name}' is not one the planner models: its "
                                                   "states are counted as the actor's optimizer's (AdamW)")
_FUSED_WHY = QT_TRANSLATE_NOOP("engine", "OpenRLHF hands DeepSpeed a config AdamW (--optim adam, its default), which "
                                         "DeepSpeed builds as FusedAdam on the GPU (openrlhf/utils/deepspeed/deepspeed.py)")


def read_optimizer(c: Collector, args: dict[str, Any]) -> None:
    """--optim / --actor.optim: AdamW, fused on the GPU (adamw-fused) or DeepSpeedCPUAdam under --ds.adam_offload
    (the scenario's adamw with the optimizer offloaded, as engine/configs/deepspeed.py reads an offloaded config
    AdamW); Muon is listed as not modelled, for the actor and for the critic (--critic.optim)."""
    c.use(*(key for key in _ADAM_HYPER if key in args))
    critic = str(args.get(_CRITIC_OPTIM_FLAG, "adam")).lower()
    if critic != "adam":
        c.skip(_CRITIC_OPTIM_FLAG, message(_CRITIC_NOT_MODELLED, name=critic))
    elif _CRITIC_OPTIM_FLAG in args:
        c.use(_CRITIC_OPTIM_FLAG)
    flag = next((key for key in _OPTIM_FLAGS if key in args), None)
    name = str(args[flag]).lower() if flag else "adam"
    if name != "adam":
        c.skip(flag or "optim", message(QT_TRANSLATE_NOOP(
            "engine", "the optimizer '{name}' is not one the planner models (AdamW is)"), name=name))
        return
    if args.get("adam_offload") is True:
        c.set("optimizer", "adamw", "adam_offload")  # DeepSpeedCPUAdam: the states step on the CPU
    elif flag:  # the openrlhf row's optimizer (engine/frameworks/runs.py, with its source): FusedAdam on the GPU
        c.set("optimizer", framework_optimizer("openrlhf"), flag)
    else:
        c.assume("optimizer", framework_optimizer("openrlhf"), message(_FUSED_WHY))
