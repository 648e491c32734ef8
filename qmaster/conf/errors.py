"""The errors of configuration files and configuration requests."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration file is wrong at a line; ``str()`` is ``"<path>:<line>: <reason>"``.

    ``verbatim``: the reason is the qmaster verifier's own answer (:class:`Refused`),
    which a request answers as it is, without the path and line.
    """

    def __init__(self, path: str, line: int, reason: str, verbatim: bool = False) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        self.verbatim = verbatim
        super().__init__(f"{path}:{line}: {reason}")

    @property
    def answer(self) -> str:
        """What a configuration request answers for this error."""
        return self.reason if self.verbatim else str(self)


class Refused(ValueError):
    """A value Grid Engine's qmaster refuses, with the qmaster's text (pe_validate(),
    cqueue_verify_*(), verify_str_key() ...) rather than a parse error's framing.
    With ``named``, ``{name}`` in the text stands for the object's name."""

    def __init__(self, text: str, named: bool = False) -> None:
        super().__init__(text)
        self.named = named

    def for_object(self, name: str) -> str:
        """The text naming the object (as ``%-.100s``: its first 100 characters)."""
        return str(self).replace("{name}", name[:100]) if self.named else str(self)


class ConfNotFound(LookupError):
    """A configuration object asked for by name does not exist; the message is Grid Engine's."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return self.message
