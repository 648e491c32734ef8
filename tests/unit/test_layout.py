"""The layout of the pure parts: no import cycles through the core, no imports inside functions.

The import graph is read from the source with :mod:`ast` (nothing is
imported): a module's edges are its imports at run time, so those under
``if TYPE_CHECKING:`` do not count. ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, otherwise to ``pkg``. The graph spans
``qmaster`` and ``schedd``, so a cycle that leaves the core and comes back
(core → complexes → core) is found too; only cycles through ``qmaster.core``
or ``schedd`` fail here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("qmaster", "schedd")
PURE = ("qmaster.core", "schedd")
#: What the pure parts never import: the wire's models and the library behind them
#: (the daemon converts the wire to stimuli in qmaster/stimuli_wire.py).
WIRE = ("qmaster.gdi.messages", "pydantic")
#: The leaf module every layer shares: it imports nothing of minige.
LEAF = "qmaster.model"
#: Modules whose tasks the daemon's TaskGroup must own (no free-floating create_task).
DAEMON_TASKS = ("qmaster/daemon.py", "qmaster/gdi/server.py")
SPAWNERS = frozenset({"create_task", "ensure_future"})

Graph = dict[str, set[str]]


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for top in packages:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``import from`` names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, node.module] if node.module else package)


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The known modules ``module`` imports at run time."""
    found: set[str] = set()
    for stmt in ast.parse(path.read_text()).body:
        if _is_type_checking(stmt):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _base(module, path, node)
                found.update(
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                )
    return {m for m in found if m in known and m != module}


def imported_names(path: Path) -> set[str]:
    """Every module ``path`` imports by name at run time, ours or not (``pydantic``...)."""
    found: set[str] = set()
    for stmt in ast.parse(path.read_text()).body:
        if _is_type_checking(stmt):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def wire_imports(path: Path) -> list[str]:
    """The wire modules (:data:`WIRE`) ``path`` imports, or a module inside them."""
    return sorted(
        name
        for name in imported_names(path)
        if any(name == w or name.startswith(w + ".") for w in WIRE)
    )


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> Graph:
    known = modules(root, packages)
    return {name: imported(name, path, known) for name, path in known.items()}


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _pure(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PURE)


def nested_imports(path: Path) -> list[str]:
    """``file:line: statement`` for every import inside a function or class body."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found.append(f"{path}:{inner.lineno}: {ast.unparse(inner)}")
    return sorted(set(found))


def free_tasks(path: Path) -> list[str]:
    """``file:line: call`` for every task started other than by ``<TaskGroup>.create_task``.

    A call counts as owned when its receiver is a TaskGroup by name: ``tg`` or an
    attribute ending in ``tasks`` (``self._tasks``).
    """
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr not in SPAWNERS:
            continue
        owner = node.func.value
        owned = (isinstance(owner, ast.Name) and owner.id == "tg") or (
            isinstance(owner, ast.Attribute) and owner.attr.endswith("tasks")
        )
        if not owned:
            found.append(f"{path}:{node.lineno}: {ast.unparse(node.func)}")
    return found


# -- the rules, on the project ------------------------------------------------------


def test_no_import_cycle_runs_through_the_core_or_the_scheduler() -> None:
    """A core or scheduler module never needs itself to import: handlers can be added freely."""
    bad = [c for c in cycles(import_graph()) if any(_pure(m) for m in c)]
    assert not bad, "import cycles: " + "; ".join(" <-> ".join(c) for c in bad)


def test_the_core_and_the_scheduler_import_only_at_module_level() -> None:
    """No import hides inside a function of qmaster/core or schedd (no cycle is dodged so)."""
    found = [
        line for name, path in modules(ROOT).items() if _pure(name) for line in nested_imports(path)
    ]
    assert not found, "imports inside functions:\n" + "\n".join(found)


def test_the_core_and_the_scheduler_never_see_the_wire() -> None:
    """The core takes typed stimuli: no module of qmaster/core or schedd imports the wire's
    pydantic models or pydantic itself."""
    found = {
        name: wire_imports(path)
        for name, path in modules(ROOT).items()
        if _pure(name) and wire_imports(path)
    }
    assert not found, f"pure modules importing the wire: {found}"


def test_the_shared_values_module_is_a_leaf() -> None:
    """qmaster/model.py (Identity, answers, spool deltas) imports nothing of minige, so the
    GDI, the core and the spool all import it without importing one another."""
    path = modules(ROOT)[LEAF]
    ours = sorted(n for n in imported_names(path) if n.split(".")[0] in PACKAGES)
    assert not ours, f"{LEAF} imports {ours}"


def test_the_daemon_starts_tasks_only_in_its_task_group() -> None:
    """No task of the daemon outlives it or dies unseen: its TaskGroup owns them all."""
    found = [line for name in DAEMON_TASKS for line in free_tasks(ROOT / name)]
    assert not found, "tasks outside the daemon's TaskGroup:\n" + "\n".join(found)


# -- the checker itself ---------------------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_a_cycle_is_found_and_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    """a -> b -> c -> a is a cycle; an import under TYPE_CHECKING is not."""
    root = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg import a\n",
            "pkg/a.py": "from pkg.b import x\n",
            "pkg/b.py": "from pkg import c\n",
            "pkg/c.py": "import pkg.a\n",
            "pkg/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.e import y\n",
            "pkg/e.py": "from pkg.d import z\n",
        },
    )
    assert cycles(import_graph(root, ("pkg",))) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    """``from . import b`` and ``from .a import x`` are edges like their absolute forms."""
    root = _tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/a.py": "from . import b\n", "pkg/b.py": "from .a import x\n"},
    )
    assert cycles(import_graph(root, ("pkg",))) == [["pkg.a", "pkg.b"]]


def test_imports_inside_functions_and_classes_are_reported(tmp_path: Path) -> None:
    """A function-level import is found with its line; a module-level one is not."""
    root = _tree(
        tmp_path,
        {
            "m.py": "import os\n\ndef f():\n    from fnmatch import fnmatchcase\n\n"
            "class C:\n    import json\n"
        },
    )
    lines = nested_imports(root / "m.py")
    assert [line.split(": ", 1)[1] for line in lines] == [
        "from fnmatch import fnmatchcase",
        "import json",
    ]


def test_imports_of_the_wire_are_reported(tmp_path: Path) -> None:
    """``import pydantic``, ``from pydantic import X`` and ``from qmaster.gdi.messages import Y``
    are found; ``qmaster.gdi.answers`` and imports under TYPE_CHECKING are not."""
    root = _tree(
        tmp_path,
        {
            "a.py": "import pydantic\n",
            "b.py": "from pydantic import BaseModel\n",
            "c.py": "from qmaster.gdi.messages import JobSpec\n",
            "d.py": "from qmaster.gdi import messages\n",
            "e.py": "from qmaster.gdi.answers import ok\nfrom typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    import pydantic\n",
        },
    )
    found = {name: wire_imports(root / f"{name}.py") for name in "abcde"}
    assert found == {
        "a": ["pydantic"],
        "b": ["pydantic", "pydantic.BaseModel"],
        "c": ["qmaster.gdi.messages", "qmaster.gdi.messages.JobSpec"],
        "d": ["qmaster.gdi.messages"],
        "e": [],
    }


def test_tasks_outside_a_task_group_are_reported(tmp_path: Path) -> None:
    """asyncio.create_task and loop.create_task are found; tg.create_task is not."""
    root = _tree(
        tmp_path,
        {
            "d.py": "async def f(tg, loop, self):\n    tg.create_task(g())\n"
            "    self._tasks.create_task(g())\n    asyncio.create_task(g())\n"
            "    loop.create_task(g())\n    asyncio.ensure_future(g())\n"
        },
    )
    calls = [line.split(": ", 1)[1] for line in free_tasks(root / "d.py")]
    assert calls == ["asyncio.create_task", "loop.create_task", "asyncio.ensure_future"]
