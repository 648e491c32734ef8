"""The core's exceptions. Each is a class and a status; the message is Grid Engine's text.

Exceptions never cross the socket: the daemon turns them into answer-list
entries with :func:`to_answer`.
"""

from __future__ import annotations

from qmaster.gdi.answers import Answer, Quality, Status


class CoreError(Exception):
    """A request the core refuses; ``str(exc)`` is the text the user sees."""

    status: Status = Status.ESEMANTIC
    earlier: tuple[Answer, ...] = ()
    """Refusals of the same request Grid Engine answers before this one (it checked on)."""

    def to_answer(self) -> Answer:
        return Answer(int(self.status), Quality.ERROR, str(self))

    def to_answers(self) -> list[Answer]:
        """Every refusal the request gets, this one last."""
        return [*self.earlier, self.to_answer()]


class InvalidRequest(CoreError):
    """The request's arguments are malformed or out of range."""

    status = Status.ESYNTAX


class NoSuchObject(CoreError):
    """The named job or object does not exist."""

    status = Status.EEXIST


class PermissionDenied(CoreError):
    """The caller may not act on this object."""

    status = Status.ENOTOWNER


class NotManager(CoreError):
    """The operation needs manager privileges."""

    status = Status.ENOMGR


class LimitReached(CoreError):
    """A configured limit (``max_jobs``, ``max_u_jobs``...) refuses the request; qsub exits 25."""

    status = Status.NOTOK_DOAGAIN


class IllegalTransition(CoreError):
    """A job or task was asked to move to a state its current state does not lead to."""

    status = Status.EILLEGALSTATE

    def __init__(self, obj: str, frm: str, to: str, story: list[str]) -> None:
        super().__init__(f"{obj}: illegal state transition {frm} -> {to}")
        self.story = story
