"""Real serving-engine start-up logs (tests/data/published/serving_logs.json) and how the serving estimate reads them.

Each row is one start of vLLM, SGLang, llama.cpp or ollama found in a public issue, pull request, CI log or blog post:
the model (a preset id, or the model's config facts with their source), the GPU and count, the engine version, the
settings in the scenario keys' own names, what the engine logged (weights, KV cache bytes and tokens, blocks, buffer
sizes, in bytes), whether it started, and the URL. docs/serving-accounting.md explains each engine's accounting.

`check_row` says in one sentence per problem what a row lacks. `judge` runs the inference estimate on a row's
settings and reads the same figures back (weights, KV tokens or KV bytes, the verdict); it returns None, with the
reason, when the engine cannot judge that row (no inference workload yet, a setting it does not take, a GPU the log
does not name).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PlannerError
from ..models.presets import get_gpu, get_model_preset, model_spec_for
from ..scenario import scenario_from_dict
from ..serving import GenerationInputs, generation_memory
from ..workloads import estimate

SERVING_LOGS_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "serving_logs.json"
ENGINES = ("vllm", "sglang", "llama.cpp", "ollama")
OUTCOMES = ("started", "failed")
# The scenario keys a row may set (tp/pp/ep reused from training); anything else is a typo.
SETTING_KEYS = frozenset({
    "weight_format", "kv_cache_dtype", "max_model_len", "max_num_seqs", "max_num_batched_tokens",
    "gpu_memory_utilization", "block_size", "enforce_eager", "tp", "pp", "ep", "n_gpu_layers", "n_ctx", "n_batch",
    "n_ubatch", "flash_attn", "n_parallel", "n_ctx_padding", "gguf_mla"})
REQUIRED = ("id", "engine", "engine_version", "url", "source", "settings", "logged", "outcome")
WEIGHTS_TARGET, KV_TARGET = 0.03, 0.05  # issue 26: weights median <= 3%, KV tokens median <= 5%


@dataclass(frozen=True)
class ServingLog:
    id: str
    engine: str
    engine_version: str
    version_stated: bool
    url: str
    source: str
    model: str | None
    hf_repo: str
    gpu: str | None
    gpu_count: int
    settings: dict[str, Any]
    logged: dict[str, Any]
    outcome: str
    hf_config: dict[str, Any] | None = None
    gpu_facts: dict[str, Any] | None = None
    failure: str = ""
    verdict_excluded: str = ""  # why the verdict of this row is not checked (the data lacks what it needs)
    notes: str = ""

    @property
    def started(self) -> bool:
        return self.outcome == "started"

    @property
    def kv_metric(self) -> str:
        """vLLM and SGLang log their KV cache in tokens; llama.cpp logs the KV buffer in MiB for n_ctx cells."""
        return "kv_tokens" if self.engine in ("vllm", "sglang") else "kv_cache_bytes"


def _problems_of_model(raw: dict[str, Any]) -> list[str]:
    rid = raw.get("id", "?")
    if raw.get("model"):
        try:
            get_model_preset(raw["model"])
        except PlannerError:
            return [f"Row {rid} names a model preset that does not exist: {raw['model']}."]
        return []
    if not isinstance(raw.get("hf_config"), dict) or not raw.get("hf_config_source"):
        return [f"Row {rid} has no model preset and no hf_config with its source."]
    return []


def _problems_of_gpu(raw: dict[str, Any]) -> list[str]:
    rid = raw.get("id", "?")
    facts = raw.get("gpu_facts") or {}
    if not raw.get("gpu") and not facts.get("memory_bytes") and not raw.get("verdict_excluded"):
        return [f"Row {rid} names no GPU, so its verdict cannot be checked, but does not say so (verdict_excluded)."]
    if not isinstance(raw.get("gpu_count"), int) or raw["gpu_count"] < 1:
        return [f"Row {rid} has no GPU count."]
    return []


def _problems_of_figures(raw: dict[str, Any]) -> list[str]:
    rid, logged = raw.get("id", "?"), raw.get("logged") or {}
    problems = []
    for name, value in logged.items():
        if name.endswith(("_bytes", "_tokens", "_blocks")) and not isinstance(value, int):
            problems.append(f"Row {rid}: logged {name} is not a whole number of bytes, tokens or blocks.")
    if raw.get("outcome") == "started" and not logged and not raw.get("notes"):
        problems.append(f"Row {rid} started but carries no figure and no note saying why.")
    if logged and not raw.get("log_lines"):
        problems.append(f"Row {rid} carries figures but not the log lines they come from.")
    return problems


def check_row(raw: Any) -> list[str]:
    """One sentence per problem with one row of the file (empty when the row is complete)."""
    if not isinstance(raw, dict):
        return ["A row of the serving logs is not an object."]
    missing = [k for k in REQUIRED if raw.get(k) in (None, "")]
    if missing:
        return [f"Row {raw.get('id', '?')} lacks {', '.join(missing)}."]
    rid, problems = raw["id"], []
    if raw["engine"] not in ENGINES:
        problems.append(f"Row {rid} names an engine the planner does not know: {raw['engine']}.")
    if raw["outcome"] not in OUTCOMES:
        problems.append(f"Row {rid}: outcome must be started or failed.")
    if raw["outcome"] == "failed" and not raw.get("failure"):
        problems.append(f"Row {rid} failed but does not say how.")
    if not str(raw["url"]).startswith("https://"):
        problems.append(f"Row {rid} has no https source URL.")
    unknown = sorted(set(raw["settings"]) - SETTING_KEYS)
    if unknown:
        problems.append(f"Row {rid} sets keys the scenario does not have: {', '.join(unknown)}.")
    return problems + _problems_of_model(raw) + _problems_of_gpu(raw) + _problems_of_figures(raw)


def load_serving_logs(path: Path = SERVING_LOGS_FILE) -> list[ServingLog]:
    """The rows of the file; a row with a problem raises PlannerError naming it (check_row's sentences)."""
    raw_rows = json.loads(path.read_text(encoding="utf-8"))
    problems = [p for raw in raw_rows for p in check_row(raw)]
    if problems:
        raise PlannerError(" ".join(problems[:5]))
    names = {f.name for f in ServingLog.__dataclass_fields__.values()}
    return [ServingLog(**{k: v for k, v in raw.items() if k in names}) for raw in raw_rows]


def _model_value(row: ServingLog) -> str | dict[str, Any]:
    return row.model if row.model else {"name": row.hf_repo, "hf_config": row.hf_config}


def _gpu_value(row: ServingLog) -> str | dict[str, Any] | None:
    if row.gpu:
        return row.gpu
    facts = row.gpu_facts or {}
    if facts.get("memory_bytes"):
        return {"name": facts.get("name", row.id), "memory_bytes": facts["memory_bytes"]}
    return None


def scenario_dict(row: ServingLog) -> dict[str, Any]:
    """The inference scenario of a row: model, GPU, GPU count, engine and the row's settings under their keys."""
    data: dict[str, Any] = {"name": row.id, "model": _model_value(row), "gpus_per_node": row.gpu_count,
                            "workload": "inference", "serving_engine": row.engine}
    gpu = _gpu_value(row)
    if gpu is not None:
        data["gpu"] = gpu
    data.update(row.settings)
    return data


@dataclass(frozen=True)
class Judged:
    """What the estimate says about one row, next to what the engine logged."""

    row: ServingLog
    weights_bytes: float | None
    kv_value: float | None  # tokens (vLLM, SGLang) or KV buffer bytes (llama.cpp, ollama)
    verdict: str
    reason: str = ""
    kv_pool_bytes: float | None = None  # the KV memory the engine logs as available (vLLM), when estimated

    def error(self, measured: float | None, estimated: float | None) -> float | None:
        if not measured or estimated is None:
            return None
        return (estimated - measured) / measured

    @property
    def weights_error(self) -> float | None:
        return self.error(self.row.logged.get("weights_bytes"), self.weights_bytes)

    @property
    def kv_error(self) -> float | None:
        measured = self.row.logged.get(self.row.kv_metric)
        if measured is None or measured <= 0:
            return None
        if self.row.kv_metric == "kv_tokens" and _gpu_value(self.row) is None:
            return None  # vLLM/SGLang pools depend on the GPU, which the log does not name
        return self.error(measured, self.kv_value)

    @property
    def kv_pool_error(self) -> float | None:
        measured = self.row.logged.get("kv_cache_bytes")
        if self.row.engine != "vllm" or measured is None or measured <= 0:
            return None
        return self.error(measured, self.kv_pool_bytes)

    @property
    def verdict_checked(self) -> bool:
        return not self.row.verdict_excluded and _gpu_value(self.row) is not None

    @property
    def verdict_wrong(self) -> bool:
        """A start judged as refused, or a refusal judged as starting ("tight" counts as refused)."""
        if not self.verdict_checked:
            return False
        refused = self.verdict in ("does not fit", "tight")
        return refused if self.row.started else not refused


def serving_block(row: ServingLog) -> Any:
    return getattr(estimate(scenario_from_dict(scenario_dict(row))), "serving", None)


def _weights_of(serving: Any, row: ServingLog) -> float | None:
    by_key = getattr(serving, "bytes_of", None)
    if by_key is None:
        return None
    gpu_weights = by_key("weights")
    # llama.cpp keeps token_embd on the CPU: the whole model is the GPU's part plus the host part.
    return gpu_weights + (getattr(serving, "host_bytes", 0.0) if row.engine in ("llama.cpp", "ollama") else 0.0)


def _kv_of(serving: Any, row: ServingLog) -> float | None:
    if row.kv_metric == "kv_tokens":
        return float(getattr(serving, "kv_tokens", 0))
    by_key = getattr(serving, "bytes_of", None)
    return by_key("kv_cache") if by_key else None


def judge(row: ServingLog) -> tuple[Judged | None, str]:
    """The estimate of one row, or None and the reason it cannot be judged."""
    try:
        serving = serving_block(row)
    except PlannerError as exc:
        return None, str(exc)
    if serving is None:
        return None, "the estimate has no serving block for this scenario (inference is not wired in)"
    return Judged(row, _weights_of(serving, row), _kv_of(serving, row), str(serving.verdict),
                  str(getattr(serving, "reason", ""))), ""


def _engine_kv_dtype(value: str) -> str:
    return value if value in ("auto", "fp8") else "auto"


def mechanism_inputs(row: ServingLog) -> GenerationInputs | None:
    """The engine-accounting inputs of a vLLM/SGLang row whose weights the engine logged, on its preset model and
    GPU; None for rows without those. With the logged weights fed in, what is left to compare is the engine's own
    accounting: profile peak, overheads, KV layout and blocks (engine/serving, generation_memory)."""
    if row.engine not in ("vllm", "sglang") or not row.model or not row.gpu or "weights_bytes" not in row.logged:
        return None
    s = row.settings
    return GenerationInputs(
        spec=model_spec_for(row.model), weight_bytes=float(row.logged["weights_bytes"]),
        capacity_bytes=float(get_gpu(row.gpu).cuda_visible_bytes), engine=row.engine,
        gpu_memory_utilization=s.get("gpu_memory_utilization"), max_num_batched_tokens=s.get("max_num_batched_tokens"),
        max_num_seqs=s.get("max_num_seqs"), max_model_len=s.get("max_model_len"),
        kv_cache_dtype=_engine_kv_dtype(s.get("kv_cache_dtype", "auto")), block_size=s.get("block_size"),
        tp=s.get("tp", 1), pp=s.get("pp", 1), enforce_eager=bool(s.get("enforce_eager", False)), gpu_name=row.gpu)


def judge_given_weights(row: ServingLog) -> Judged | None:
    """The engine accounting on the logged weights (weights are not judged here, so weights_bytes is None)."""
    inputs = mechanism_inputs(row)
    if inputs is None:
        return None
    m = generation_memory(inputs)
    kv = float(m.kv_tokens) if row.kv_metric == "kv_tokens" else m.bytes_of("kv_cache")
    return Judged(row, None, kv, str(m.verdict), str(m.reason), kv_pool_bytes=m.kv_pool_bytes)


@dataclass(frozen=True)
class Accuracy:
    """Figures over a set of judged rows (rows whose verdict is excluded still count for weights and KV)."""

    rows: int
    judged: int
    weights_errors: tuple[float, ...] = field(default=())
    kv_errors: tuple[float, ...] = field(default=())
    verdicts_checked: int = 0
    started_judged_refused: tuple[str, ...] = ()
    failed_judged_starting: tuple[str, ...] = ()

    @staticmethod
    def _median(values: tuple[float, ...]) -> float | None:
        return statistics.median(abs(v) for v in values) if values else None

    @property
    def weights_median(self) -> float | None:
        return self._median(self.weights_errors)

    @property
    def kv_median(self) -> float | None:
        return self._median(self.kv_errors)


def accuracy(judged: list[Judged], total_rows: int) -> Accuracy:
    weights = tuple(j.weights_error for j in judged if j.weights_error is not None)
    kv = tuple(j.kv_error for j in judged if j.kv_error is not None)
    checked = [j for j in judged if j.verdict_checked]
    return Accuracy(total_rows, len(judged), weights, kv, len(checked),
                    tuple(j.row.id for j in checked if j.row.started and j.verdict_wrong),
                    tuple(j.row.id for j in checked if not j.row.started and j.verdict_wrong))


def judge_all(rows: list[ServingLog]) -> tuple[list[Judged], dict[str, str]]:
    """Judged rows and, for the others, why the estimate could not judge them."""
    judged, skipped = [], {}
    for row in rows:
        result, why = judge(row)
        if result is None:
            skipped[row.id] = why
        else:
            judged.append(result)
    return judged, skipped


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def accuracy_table(judged: list[Judged], rows: list[ServingLog], key: str = "engine") -> str:
    """Markdown table of accuracy grouped by engine (key="engine") or by engine and version (key="version")."""
    def group_of(row: ServingLog) -> str:
        return row.engine if key == "engine" else f"{row.engine} {row.engine_version}"

    groups = sorted({group_of(r) for r in rows})
    lines = ["| group | rows | judged | weights median | KV median | verdicts checked | wrong verdicts |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for g in [*groups, "all"]:
        in_group = [r for r in rows if g in ("all", group_of(r))]
        ids = {r.id for r in in_group}
        acc = accuracy([j for j in judged if j.row.id in ids], len(in_group))
        wrong = len(acc.started_judged_refused) + len(acc.failed_judged_starting)
        lines.append(f"| {g} | {acc.rows} | {acc.judged} | {_pct(acc.weights_median)} | {_pct(acc.kv_median)} | "
                     f"{acc.verdicts_checked} | {wrong} |")
    return "\n".join(lines)
