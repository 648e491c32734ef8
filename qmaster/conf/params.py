"""``qmaster_params`` of sge_conf(5): a list of ``NAME=value`` (or bare ``NAME``) entries.

Names are case-insensitive; entries are separated by commas, semicolons or blanks. The
integer parameters minige acts on are checked; others are kept as given, as
Grid Engine keeps parameters it does not use.
"""

from __future__ import annotations

from qmaster.complexes.values import parse_c_integer
from qmaster.conf import fields as f
from qmaster.conf.flatfile import Pair

INT_PARAMS = frozenset({"jsv_timeout", "jsv_threshold", "max_job_deletion_time"})
LEGACY_TOP_LEVEL = ("jsv_timeout", "jsv_threshold")


def split_params(text: str) -> dict[str, str]:
    """The entries (separated by ``,``, ``;`` or blanks) as ``{lower-case name: value}``;
    a bare name is ``true``."""
    params: dict[str, str] = {}
    for item in f.split_list(text.replace(";", ",")):
        name, eq, value = item.partition("=")
        params[name.strip().lower()] = value.strip() if eq else "true"
    return params


def check_qmaster_params(text: str) -> None:
    """``NONE`` or entries; the integer ones must be integers."""
    for name, value in split_params(text).items():
        if not name:
            raise ValueError(f'"{text}" has an entry without a name')
        if name in INT_PARAMS:
            try:
                parse_c_integer(value)
            except ValueError:
                raise ValueError(f'"{name}={value}" is not an integer') from None


def fold_legacy_params(pairs: list[Pair]) -> list[Pair]:
    """Move top-level ``jsv_timeout``/``jsv_threshold`` lines into ``qmaster_params``."""
    legacy = [p for p in pairs if p.key in LEGACY_TOP_LEVEL]
    if not legacy:
        return pairs
    kept = [p for p in pairs if p.key not in LEGACY_TOP_LEVEL]
    index = next((i for i, p in enumerate(kept) if p.key == "qmaster_params"), None)
    current = kept[index] if index is not None else Pair("qmaster_params", "none", legacy[0].line)
    present = split_params(current.value)
    items = [] if f.is_none(current.value) else [current.value]
    items += [f"{p.key}={p.value}" for p in legacy if p.key not in present]
    merged = Pair("qmaster_params", ",".join(items) or "none", current.line)
    if index is None:
        return [*kept, merged]
    return [*kept[:index], merged, *kept[index + 1 :]]
