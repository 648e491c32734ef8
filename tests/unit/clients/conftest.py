"""A scripted GDI transport for the client command tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from qmaster.gdi.answers import Answer
from qmaster.gdi.client import Reply


@dataclass
class FakeQmaster:
    """Records every request and answers with the reply set for its op."""

    replies: dict[str, Reply] = field(default_factory=dict)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    handler: Callable[[str, dict[str, Any]], Reply] | None = None

    def __call__(self, op: str, args: dict[str, Any]) -> Reply:
        self.calls.append((op, args))
        if self.handler is not None:
            return self.handler(op, args)
        return self.replies.get(op, Reply())

    def reply(self, op: str, answers: list[Answer] | None = None, data: Any = None) -> None:
        self.replies[op] = Reply(answers or [], data)

    @property
    def last(self) -> tuple[str, dict[str, Any]]:
        return self.calls[-1]


@pytest.fixture
def qmaster() -> FakeQmaster:
    return FakeQmaster()
