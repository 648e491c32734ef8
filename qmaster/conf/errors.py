"""The errors of configuration files and configuration requests."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration file is wrong at a line; ``str()`` is ``"<path>:<line>: <reason>"``."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        super().__init__(f"{path}:{line}: {reason}")


class ConfNotFound(LookupError):
    """A configuration object asked for by name does not exist; the message is Grid Engine's."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return self.message
