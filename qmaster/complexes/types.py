"""The words of a complex(5) entry: value types, relational operators and flags."""

from __future__ import annotations

from enum import Enum


class ValueType(Enum):
    """A complex attribute's value type, as complex(5) names it."""

    INT = "INT"
    DOUBLE = "DOUBLE"
    TIME = "TIME"
    MEMORY = "MEMORY"
    BOOL = "BOOL"
    STRING = "STRING"
    CSTRING = "CSTRING"
    RESTRING = "RESTRING"
    HOST = "HOST"

    @property
    def is_numeric(self) -> bool:
        """True for the types whose values compare as numbers."""
        return self in _NUMERIC


_NUMERIC = frozenset(
    {ValueType.INT, ValueType.DOUBLE, ValueType.TIME, ValueType.MEMORY, ValueType.BOOL}
)


class Relop(Enum):
    """How a requested value is compared with an offered one."""

    EQ = "=="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EXCL = "EXCL"


class Requestable(Enum):
    """Whether jobs may (or must) request the attribute."""

    YES = "YES"
    NO = "NO"
    FORCED = "FORCED"


class Consumable(Enum):
    """Whether requests use the attribute up, per slot (YES) or per job (JOB)."""

    YES = "YES"
    NO = "NO"
    JOB = "JOB"
