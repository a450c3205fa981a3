"""Import contracts, checked statically over the source (no module is imported, so a violation cannot hide):

1. engine/ never imports Qt or gui/ (not even inside a function or under TYPE_CHECKING);
2. the storage and settings modules never import Qt;
3. no import cycles between the project's modules (every import counts: top-level, TYPE_CHECKING and inside
   functions, because a cycle hidden in a function still ties the modules together);
4. no module uses another module's private names (`from x import _y`, or `x._y` on an imported module);
5. no module compares a framework's name: what a framework does is a column of its row in
   engine/frameworks/defaults.py, read through `Behaviour` or `defaults_for` (issue 21.2).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

PACKAGES = ("engine", "gui")
QT_FREE_GUI_MODULES = ("gui.storage", "gui.settings_store", "gui.data_folder", "gui.library_types")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {module_name(p): p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")}
    found["main"] = REPO / "main.py"
    return found


def resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import statement anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((resolve(module, node, path.name == "__init__.py"), [a.name for a in node.names], node.lineno))
    return out


MODULES = project_modules()
IMPORTS = {name: imports_of(name, path) for name, path in MODULES.items()}


def project_target(imported: str, names: list[str]) -> list[str]:
    """The project modules an import statement depends on (`from pkg import mod` depends on pkg.mod)."""
    targets = []
    for name in names:
        if f"{imported}.{name}" in MODULES:
            targets.append(f"{imported}.{name}")
    if imported in MODULES and (not names or len(targets) < len(names)):
        targets.append(imported)
    return targets


def test_engine_never_imports_qt_or_the_gui():
    bad = [(m, imp, line) for m, imps in IMPORTS.items() if m.startswith("engine")
           for imp, _names, line in imps if imp.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "gui")]
    assert bad == []


def test_storage_and_settings_never_import_qt():
    def qt_free_closure(module: str, seen: set[str]) -> list[tuple[str, str]]:
        bad = []
        for imp, names, _line in IMPORTS[module]:
            if imp.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
                bad.append((module, imp))
            for target in project_target(imp, names):
                if target not in seen:
                    seen.add(target)
                    bad += qt_free_closure(target, seen)
        return bad

    for module in QT_FREE_GUI_MODULES:
        assert qt_free_closure(module, {module}) == [], module


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, imps in IMPORTS.items():
        for imp, names, _line in imps:
            for target in project_target(imp, names):
                # a package's __init__ re-exporting its own submodules is how a package presents itself, not a cycle
                if target != module and not (module in PACKAGES and target.startswith(module + ".")) \
                        and not target.startswith(module + "."):
                    edges[module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    # The engine package's __init__ imports its submodules, and they import siblings, never the package itself.
    edges = graph()
    for module in edges:
        edges[module] = {t for t in edges[module] if t not in PACKAGES}
    assert cycles(edges) == []


def test_no_module_uses_another_modules_private_names():
    bad = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported_modules: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = resolve(module, node, path.name == "__init__.py")
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__") and source != module:
                        bad.append(f"{module}:{node.lineno} imports {source}.{alias.name}")
                    if f"{source}.{alias.name}" in MODULES:
                        imported_modules[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in MODULES:
                        imported_modules[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in imported_modules and node.attr.startswith("_") \
                    and not node.attr.startswith("__"):
                bad.append(f"{module}:{node.lineno} uses {imported_modules[node.value.id]}.{node.attr}")
    assert bad == []


@pytest.mark.parametrize("module", ["engine.scenario.format", "gui.main_window", "gui.storage"])
def test_the_checker_sees_imports(module):
    """The contracts above would pass vacuously if the parser found nothing: it finds these modules' imports."""
    assert graph()[module], module


# engine/configs/ compares *file format* names (fmt == "megatron": a Megatron launch script), not frameworks;
# engine/frameworks/ included, the framework table is the only place that knows what a framework does
NAME_COMPARISONS_ALLOWED_UNDER = ("engine/configs/",)


def framework_names() -> frozenset[str]:
    """The FRAMEWORKS tuple of engine/frameworks/defaults.py, read from the source."""
    tree = ast.parse((REPO / "engine/frameworks/defaults.py").read_text(encoding="utf-8"))
    found = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "FRAMEWORKS" for t in node.targets))
    return frozenset(ast.literal_eval(found))


def names_a_framework(expr: ast.expr, aliases: frozenset[str], names: frozenset[str]) -> bool:
    """A framework-name literal, a tuple/list/set of them, or a module constant holding one."""
    if isinstance(expr, ast.Constant):
        return expr.value in names
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return any(names_a_framework(e, aliases, names) for e in expr.elts)
    if isinstance(expr, ast.Call) and expr.args:  # frozenset((...)), set([...])
        return names_a_framework(expr.args[0], aliases, names)
    return isinstance(expr, ast.Name) and expr.id in aliases


def framework_aliases(trees: list[ast.Module], names: frozenset[str]) -> frozenset[str]:
    """Module constants that hold a framework's name (MEGATRON = "megatron"), in any module (they are imported)."""
    found: set[str] = set()
    for tree in trees:
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if value is not None and names_a_framework(value, frozenset(), names):
                found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return frozenset(found)


def framework_name_comparisons(sources: dict[str, str]) -> list[str]:
    """'where: line' of every ==, !=, in, not in (or match case) on a framework's name in the given sources."""
    names = framework_names()
    trees = {where: ast.parse(text) for where, text in sources.items()}
    aliases = framework_aliases(list(trees.values()), names)
    bad = []
    for where, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
            elif isinstance(node, ast.MatchValue):
                sides = [node.value]
            else:
                continue
            if any(names_a_framework(side, aliases, names) for side in sides):
                bad.append(f"{where}:{node.lineno}")
    return bad


def test_no_framework_name_is_compared_outside_the_framework_table():
    """Not even in engine/frameworks/: its readers take columns of the table as the rest of the engine does."""
    sources = {str(path.relative_to(REPO)): path.read_text(encoding="utf-8") for path in MODULES.values()
               if not str(path.relative_to(REPO)).startswith(NAME_COMPARISONS_ALLOWED_UNDER)}
    assert framework_name_comparisons(sources) == []


def test_the_framework_name_checker_sees_comparisons():
    """The contract above would pass vacuously if the checker missed a form: it finds each of these."""
    sources = {"literal": 'ok = s.framework == "megatron"\n',
               "tuple": 'ok = fw.framework in ("torchtitan", "pytorch")\n',
               "alias": 'KEEPS = frozenset(("torchtitan",))\nok = framework not in KEEPS\n',
               "match": 'match s.framework:\n    case "unsloth":\n        pass\n',
               "label map": 'WORDS = {"megatron": "Megatron-LM"}\nok = s.framework in WORDS\n'}
    assert framework_name_comparisons(sources) == ["literal:1", "tuple:1", "alias:2", "match:2"]


def test_the_time_model_does_not_import_the_memory_estimator():
    """The pipeline stage split lives in engine/memory/parallelism/pipeline.py (issue 21.3): the time model takes it from
    there, not from engine/memory/detailed.py, nor through any module that imports it. (engine.planning.speed_search does run
    memory estimates: it ranks layouts that fit.)"""
    edges = graph()
    reached, todo = set(), ["engine.timing.model"]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += [t for t in edges.get(module, ()) if t not in PACKAGES]
    assert "engine.memory.parallelism.pipeline" in reached and "engine.memory.detailed" not in reached


# Issue 21.3: the engine's folders say what it is, and each group imports only from the groups before it in this
# order (or from itself). Base modules sit at the top level; the interfaces (command line, report, cache control,
# the package's own __init__) come last and may import anything.
ENGINE_LAYERS = (
    ("base", ("errors", "messages", "units", "paths", "safe_read", "safe_write", "bounded_json", "input_bounds",
              "monotone", "range_words")),
    ("models", ("models",)),
    ("frameworks", ("frameworks",)),
    ("scenario", ("scenario",)),
    ("memory", ("memory",)),
    ("timing", ("timing",)),
    ("serving", ("serving",)),
    ("posttraining", ("posttraining",)),
    ("workloads", ("workloads",)),
    ("diagnosis", ("diagnosis",)),
    ("planning", ("planning",)),
    ("configs", ("configs",)),
    ("accuracy", ("accuracy",)),
    ("interfaces", ("", "cli", "cli_flags", "estimate_output", "report", "plan_card", "figure_words", "caches")),
)
SIBLINGS = {"planning": "configs", "configs": "planning"}  # the same rank: neither imports the other


def engine_group(module: str) -> str:
    """The layer of an engine module: the first part of its name under engine (or the base/interface module)."""
    first = module.split(".")[1] if module.count(".") else ""
    return next(name for name, parts in ENGINE_LAYERS if first in parts)


def test_engine_groups_import_only_downward():
    rank = {name: i for i, (name, _parts) in enumerate(ENGINE_LAYERS)}
    upward = []
    for module, targets in graph().items():
        if not module.startswith("engine"):
            continue
        for target in targets:
            if not target.startswith("engine"):
                continue
            source_group, target_group = engine_group(module), engine_group(target)
            if rank[target_group] > rank[source_group] or SIBLINGS.get(source_group) == target_group:
                upward.append(f"{module} ({source_group}) imports {target} ({target_group})")
    assert upward == []


def test_every_engine_module_belongs_to_a_group():
    """A new top-level module must be placed in a layer above (a file at engine/ is base or an interface)."""
    assert all(engine_group(m) for m in MODULES if m.startswith("engine"))


def test_the_layering_check_sees_an_upward_import():
    """Not vacuous: the memory model importing the planner would be reported."""
    assert engine_group("engine.memory.detailed") == "memory" and engine_group("engine.planning.solver") == "planning"
    assert engine_group("engine.cli") == "interfaces" and engine_group("engine.errors") == "base"
    rank = [name for name, _parts in ENGINE_LAYERS]
    assert rank.index("planning") > rank.index("memory")
