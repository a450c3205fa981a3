"""Files named inside other files of one job (a DeepSpeed JSON under a TrainingArguments or accelerate config).

Only a file given with the job, or one in the job's folder or below it, is read: a config that says
`deepspeed: ../../../../etc/passwd` (or a link beside the job that points elsewhere) does not make the planner read
a file the user never chose; the path is listed as not read, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, message
from .reading import read_text
from .result import Collector
from .swift_config import read_argument_file, reads_argument_file

DS_FILE_KEY = "deepspeed_config.deepspeed_config_file"


def inside_folder(candidate: Path, folder: Path) -> bool:
    """Whether `candidate`, all links followed, is `folder` itself or below it (also resolved)."""
    try:
        return candidate.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):  # a link loop, a name the file system refuses
        return False


def _beside_the_job(ref: str, base_dir: Path) -> tuple[Path | None, bool]:
    """(the referenced file found in the job's folder or below, whether the path as written leads outside it)."""
    left_folder = False
    for cand in (base_dir / ref, base_dir / Path(ref).name):
        if not inside_folder(cand, base_dir):
            left_folder = True
            continue
        try:
            if cand.is_file():
                return cand, left_folder
        except OSError:
            continue
    return None, left_folder


def follow_references(
    collectors: list[Collector], base_dir: Path | None, read_one: Callable[[str, str], Collector]
) -> None:
    """A DeepSpeed JSON named inside another file: merged if given or found beside the job, else guessed from its
    name; `read_one(name, text)` reads one more file of the job."""
    given = {c.file for c in collectors}
    has_deepspeed = any(c.fmt == "deepspeed" for c in collectors)
    for c in list(collectors):
        for key, ref in c.references:
            ref_name = Path(ref).name
            if ref_name in given or (has_deepspeed and key in ("deepspeed", DS_FILE_KEY)):
                continue
            found, left_folder = _beside_the_job(ref, base_dir) if base_dir is not None else (None, False)
            if found is not None:
                try:
                    name, text = read_text(found)
                    # an ms-swift launch's argument file is its arguments whatever keys it holds (swift_config.py)
                    extra = (read_argument_file(name, text, key) if reads_argument_file(c.fmt, key)
                             else read_one(name, text))
                except PlannerError as exc:
                    c.skip(key, message(QT_TRANSLATE_NOOP("engine", "{ref} cannot be read: {exc}"), ref=ref, exc=exc))
                    continue
                collectors.append(extra)
                given.add(name)
                continue
            _not_found(c, key, ref, left_folder)


def _not_found(c: Collector, key: str, ref: str, left_folder: bool) -> None:
    ref_name = Path(ref).name
    m = re.search(r"z(?:ero)?_?(?:stage_?)?([0-3])", ref_name.lower())
    if m and key in ("deepspeed", DS_FILE_KEY):
        stage = int(m.group(1))
        why = message(
            QT_TRANSLATE_NOOP("engine", "{ref} was not imported: ZeRO stage {stage} taken from its name"),
            ref=ref,
            stage=stage,
        )
        c.assume("zero_stage", stage, why)
        c.assume("framework", "deepspeed", why)
        c.settings.append(("_deepspeed", True, "", True))
        if "offload" in ref_name.lower():
            c.assume(
                "offload",
                "optimizer+params" if stage == 3 else "optimizer",
                message(QT_TRANSLATE_NOOP("engine", "{ref} was not imported: offload taken from its name"), ref=ref),
            )
    elif left_folder:
        c.skip(
            key,
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "{ref} is outside the job's folder, so it was not read; give it with the other files to import it",
                ),
                ref=ref,
            ),
        )
    else:
        c.skip(
            key,
            message(QT_TRANSLATE_NOOP("engine", "{ref} was not imported; import it together with this file"), ref=ref),
        )
