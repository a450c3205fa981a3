"""The application's version (its own module: the window, reports and the launcher all show it)."""

from __future__ import annotations


def version() -> str:
    """The installed distribution's version, or pyproject's in a source checkout."""
    from importlib import metadata

    try:
        return metadata.version("llm-memory-planner")
    except metadata.PackageNotFoundError:
        from pathlib import Path

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            for line in pyproject.read_text(encoding="utf-8").splitlines():
                if line.startswith("version"):
                    return line.split("=", 1)[1].strip().strip('"')
        except OSError:
            pass
        return "unknown"
