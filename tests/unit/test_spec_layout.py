"""The core and the scheduler read a specification's attributes, never its dict form.

Read from the source with :mod:`ast`: a subscript (``spec["N"]``) or a ``.get``
call (``job.spec.get("N")``) on anything named ``spec`` is a read of the dict
form. A JobSpec is built once where a request enters the core and turned into a
dict only where it leaves (spool rows, JSV parameters, replies).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.unit.test_layout import ROOT, _pure, modules


def _is_spec(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "spec") or (
        isinstance(node, ast.Attribute) and node.attr == "spec"
    )


def dict_reads(path: Path) -> list[str]:
    """``file:line: expression`` for every ``spec[...]`` and ``spec.get(...)``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Subscript) and _is_spec(node.value)) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and _is_spec(node.func.value)
        ):
            found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_nothing_in_the_core_or_the_scheduler_reads_a_spec_dict() -> None:
    """Every read of a job's (or an AR's) request in qmaster/core and schedd is typed."""
    found = [
        line for name, path in modules(ROOT).items() if _pure(name) for line in dict_reads(path)
    ]
    assert not found, "dict reads of a specification:\n" + "\n".join(found)


def test_dict_reads_are_reported(tmp_path: Path) -> None:
    """``spec["N"]``, ``job.spec.get("N")`` and ``spec.get("N")`` are found; ``spec.name`` is not."""
    path = tmp_path / "m.py"
    path.write_text(
        'def f(job, spec):\n    a = spec["N"]\n    b = job.spec.get("N")\n'
        '    c = spec.get("N", 1)\n    d = spec.name\n    e = other["N"]\n'
    )
    assert [line.split(": ", 1)[1] for line in dict_reads(path)] == [
        "spec['N']",
        "job.spec.get('N')",
        "spec.get('N', 1)",
    ]
