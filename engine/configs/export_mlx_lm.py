"""A plan as mlx-lm's fine-tuning YAML (`mlx_lm.lora --config FILE`), which engine/configs/mlx_lm.py reads back.

Sources: ml-explore/mlx-lm at d78bf58e217c. mlx_lm/lora.py: CONFIG_DEFAULTS (lines 44-80); main (lines 372-391) loads
the file with yaml.SafeLoader plus an implicit float resolver (lines 28-42) and puts each key over the defaults, so
a lora_parameters mapping replaces the default one whole (rank, scale and dropout are all written); train_model
(lines 224-253: fine_tune_type full unfreezes model.layers[-num_layers:] after model.freeze(), lora / dora call
linear_to_lora_layers); run raises unless train or test is set (line 365); --optimizer choices (line 116).
mlx_lm/tuner/utils.py linear_to_lora_layers (lines 39-111): keys are module paths inside a decoder layer
("self_attn.q_proj"), none = every linear of the layer. mlx_lm/tuner/lora.py line 98: the adapter's output is
multiplied by scale (PEFT's lora_alpha / r). mlx_lm/tuner/trainer.py: iterate_batches (lines 102-170) splits
batch_size between the distributed workers (batch_size // world each), one iteration is one batch, the optimizer
steps every grad_accumulation_steps iterations (lines 240-257, 321-325); grad_checkpoint (line 236) checkpoints
every decoder layer.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..scenario import Scenario, resolve_model
from ..scenario.optimizer_used import optimizer_used
from .export_common import ExportError, OneLineDumper, lora_target_list, model_name, yaml_config

# mlx_lm/lora.py lines 28-42: the float resolver mlx-lm adds to yaml.SafeLoader (it reads "1e-5" as a float, which
# PyYAML's own resolver leaves a string), so text of that shape is written quoted
MLX_LM_FLOAT = re.compile(
    r"""^(?:
     [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)


class _MlxLmDumper(OneLineDumper):
    """The one-line dumper, resolving scalars as mlx-lm's loader does (what it would read as a float is quoted)."""


_MlxLmDumper.add_implicit_resolver("tag:yaml.org,2002:float", MLX_LM_FLOAT, list("-+0123456789."))

# the planner's projection names -> their path in a decoder layer of mlx-lm's models (mlx_lm/models/llama.py,
# qwen2.py, qwen3.py, gemma*.py, olmo2.py, nemotron.py: self_attn.{q,k,v,o}_proj and mlp.{gate,up,down}_proj;
# phi3.py lines 62 and 124: qkv_proj, gate_up_proj; deepseek_v2.py / deepseek_v3.py: MLA's q_a_proj, q_b_proj,
# kv_a_proj_with_mqa, kv_b_proj), for the model types whose files were read (gpt2.py has attn.c_attn instead)
_ATTENTION_NAMES = ("q_proj", "k_proj", "v_proj", "o_proj", "qkv_proj", "q_a_proj", "q_b_proj", "kv_a_proj_with_mqa",
                    "kv_b_proj")
_LAYER_PATHS = {**{p: f"self_attn.{p}" for p in _ATTENTION_NAMES},
                **{p: f"mlp.{p}" for p in ("gate_proj", "up_proj", "down_proj", "gate_up_proj")}}
_MODEL_TYPES = frozenset(("llama", "mistral", "qwen2", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3", "gemma3_text",
                          "phi3", "deepseek_v2", "deepseek_v3", "nemotron", "olmo2", "mixtral"))
# optimizers mlx-lm's --optimizer offers (lora.py line 116), as the planner names them
_OPTIMIZERS = {"adamw": "adamw", "adamw-fused": "adamw", "sgd": "sgd", "adafactor": "adafactor"}
FILE_NAME = "mlx_lm_lora.yaml"


def mlx_lm_config(s: Scenario) -> str:
    data: dict[str, Any] = {"model": model_name(s), "train": True, **_method(s)}
    world = s.world_size
    data["batch_size"] = s.micro_batch * world  # iterate_batches gives each of the world's workers batch_size // world
    data["grad_accumulation_steps"] = s.grad_accum
    data["max_seq_length"] = s.seq_len
    data["grad_checkpoint"] = s.checkpointing != "none"
    optimizer = _OPTIMIZERS.get(optimizer_used(s))
    if optimizer:
        data["optimizer"] = optimizer
    if s.tokens_to_train:  # one iteration is one batch of at most max_seq_length tokens a sequence
        data["iters"] = math.ceil(s.tokens_to_train / (data["batch_size"] * s.seq_len))
    launch = f"mlx_lm.lora --config {FILE_NAME} --data DATA"
    if world > 1:
        launch = f"mlx.launch -n {world} --hostfile HOSTS -- {launch}"
    note = ""
    if s.method == "full" or (s.method == "freeze" and not s.freeze_embeddings):  # the plan trains the embeddings
        note = "# mlx-lm's full fine-tuning keeps the embeddings and the output layer frozen (lora.py train_model)\n"
    return (f"# Launch: {launch} (DATA: a folder of train/valid .jsonl files or a Hugging Face dataset)\n"
            + yaml_config(s, "mlx-lm", data, _MlxLmDumper) + note)


def _method(s: Scenario) -> dict[str, Any]:
    """fine_tune_type, num_layers and lora_parameters of the plan's method."""
    if s.method == "qlora":
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "mlx-lm trains QLoRA when its model is a quantized MLX checkpoint: convert the model with "
                      "mlx_lm.convert --hf-path {model} -q --q-bits {bits}, then export this plan as LoRA and set its "
                      "model to the converted folder."), model=model_name(s), bits=s.qlora_bits)
    layers = resolve_model(s).layers
    if s.method == "full":  # every decoder layer (mlx-lm keeps the embeddings and the output layer frozen)
        return {"fine_tune_type": "full", "num_layers": -1}
    if s.method == "freeze":
        if s.freeze_from != "bottom" and s.frozen_layers:
            raise ExportError(QT_TRANSLATE_NOOP(
                "engine", "mlx-lm trains the top layers of the model (num_layers), not the bottom ones: freeze the "
                          "bottom layers to export this plan."))
        trained = layers - s.frozen_layers
        return {"fine_tune_type": "full", "num_layers": trained if 0 < trained < layers else -1}
    return {"fine_tune_type": "lora", "num_layers": s.lora_layers or -1, "lora_parameters": _lora_parameters(s)}


def _lora_parameters(s: Scenario) -> dict[str, Any]:
    params: dict[str, Any] = {"rank": s.lora_rank, "scale": s.lora_alpha / s.lora_rank, "dropout": 0.0}
    if s.lora_targets == "all-linear":  # no keys: linear_to_lora_layers adapts every linear of the layer
        return params
    targets = lora_target_list(s)
    spec = resolve_model(s)
    unknown = [t for t in targets if t not in _LAYER_PATHS or spec.model_type not in _MODEL_TYPES]
    if unknown:
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "mlx-lm names the adapted modules by their path in a decoder layer, and the exporter does not "
                      "know the path of '{name}' in this model: pick all-linear to export this plan."),
            name=unknown[0])
    mlp = [t for t in targets if _LAYER_PATHS[t].startswith("mlp.")]
    if mlp and spec.n_experts:
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "mlx-lm's mixture-of-experts layers keep their MLP projections under the experts' own path: "
                      "pick all-linear or the attention projections to export this plan."))
    params["keys"] = [_LAYER_PATHS[t] for t in targets]
    return params
