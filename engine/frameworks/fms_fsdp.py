"""IBM's fms-fsdp (foundation-model-stack/fms-fsdp at 7746dac96fe3, 2024-03-13, the README of the PyTorch blog's
'Maximizing training throughput using PyTorch FSDP' runs): a plain PyTorch loop over FSDP1, so plain PyTorch's row of
engine/frameworks/defaults.py with its own layouts and the time profile "fms-fsdp" (presets/efficiency.json), whose
element-wise work is the Foundation Model Stack's LLaMA block as it runs eager: its RMSNorm, SwiGLU and rotary
embedding are ATen ops one after another. fms-fsdp's requirements.txt reads ibm-fms>=0.0.3 and its main_training.py
calls model.reset_parameters(), which fms's LLaMA has from 92dcdaa3 (2024-02-14; main from 2295aaf8, 2024-03-11);
those ops read the same at v0.0.3 (2024-01-29), 92dcdaa3, 4691c3d4 (2024-02-27) and f29e546d (2024-03-13)."""

from __future__ import annotations

from dataclasses import replace

from .parallelism_row import FSDP_STAGES, Parallelism
from .row_type import FrameworkRow
from .runs import ADAPTERS, WHOLE_LAYERS, Runs
from .shard_group_facts import ShardGroups, grouped

_FSDP = "foundation-model-stack/fms-fsdp at 7746dac96fe3"
_NO_STRATEGY = (f"{_FSDP} main_training.py lines 54-65 build fms's LLaMA(llama_config) with its default "
                "distributed_strategy (NoOpStrategy) and line 82 wraps it in FullyShardedDataParallel")
_SOURCES = (
    ("pipeline schedules", f"{_NO_STRATEGY}: no pipeline"),
    ("tensor", f"{_NO_STRATEGY}: no tensor parallelism (fms's TensorParallelStrategy is not used)"),
    ("context", f"{_NO_STRATEGY}: no context parallelism"),
    ("expert", f"{_NO_STRATEGY}: a dense LLaMA, no expert parallelism"),
    ("ZeRO", f"{_FSDP} fms_fsdp/utils/train_utils.py lines 146-153 get_policies: sharding_strategy fsdp "
     "FULL_SHARD, hsdp HYBRID_SHARD, ddp NO_SHARD, anything else FULL_SHARD: FSDP or plain data parallelism, no "
     "SHARD_GRAD_OP or optimizer-only sharding"),
    ("offload", f"{_FSDP} main_training.py lines 82-96: FullyShardedDataParallel(..., limit_all_gathers=True) with "
     "no cpu_offload"),
)
SHARD_GROUPS = ShardGroups((3,), f"{_FSDP} fms_fsdp/utils/train_utils.py line 149 (sharding_strategy hsdp, "
                                 "fms_fsdp/config/training.py's default): torch's HYBRID_SHARD, FULL_SHARD within a "
                                 "node and replicated across nodes")
PARALLELISM = grouped(Parallelism(pp_schedules=(), tensor=False, context=False, expert=False,
                                  zero_stages=FSDP_STAGES, offloads=("none",), sources=_SOURCES), SHARD_GROUPS)
RUNS = Runs(WHOLE_LAYERS, lacks=("freeze", *ADAPTERS), recompute_methods=("block",), sources=(
    ("checkpointing", f"{_FSDP} fms_fsdp/policies/ac_handler.py lines 17-34: checkpoint_wrapper (NO_REENTRANT) on "
     "LLaMABlock number n, 2n, ... (selective_checkpointing = n: `_count % every_xth_item == 0`), whole blocks; "
     "main_training.py lines 99-102 apply it under fsdp_activation_checkpointing"),
    ("methods", f"{_FSDP} main_training.py line 117: optim.AdamW(model.parameters()) over every weight; no adapter "
     "or frozen-layer code in the repository"),
))


def fms_fsdp_row(pytorch: FrameworkRow) -> FrameworkRow:
    """Plain PyTorch's row (its memory facts) with fms-fsdp's layouts, FSDP1, the bf16 loss and its time profile."""
    return replace(pytorch, id="fms-fsdp", label="PyTorch FSDP (IBM fms-fsdp)", profile="fms-fsdp", loss_upcast=False,
                   fsdp_version=1, pipeline_keeps_weights=False,  # no pipeline (PARALLELISM)
                   parallelism=PARALLELISM, runs=RUNS, sources=(
                       ("training", f"{_FSDP} main_training.py and fms_fsdp/utils/train_utils.py train: fms's LLaMA "
                        "under torch.distributed.fsdp.FullyShardedDataParallel (FSDP1), MixedPrecision bfSixteen "
                        "(fms_fsdp/policies/mixed_precision.py: param, reduce and buffer dtypes bfloat16)"),
                       ("loss", f"{_FSDP} fms_fsdp/utils/train_utils.py lines 44-46: torch.nn.CrossEntropyLoss() on "
                        "the model's bf16 logits (output.view(-1, output.size(-1))), no fp32 upcast"),
                       ("layouts", "engine/frameworks/fms_fsdp.py")))
