"""Value checks of the global and the scheduler configuration, as Grid Engine makes them.

The scheduler configuration's as sconf_validate_config_() (sge_schedd_conf.c), the
global configuration's as read_CF_value() and check_config()
(configuration_qmaster.c), with their texts: a value they refuse is refused by
``qconf -Msconf``/``-Mconf`` (and when a cell is read), not stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from qmaster.complexes.values import parse_c_integer
from qmaster.conf import fields as f
from qmaster.conf.errors import Refused

GID_RANGE_NOT_ALLOWED_ID = 100
"""The lowest group id gid_range may give out (GID_RANGE_NOT_ALLOWED_ID)."""


def check_script_path(name: str) -> Callable[[str], None]:
    """``prolog``/``epilog``: ``none`` or an absolute path, after an optional ``user@``."""

    def check(text: str) -> None:
        if text.lower() == "none":
            return
        script = text
        cut = re.search(r"[@ ]", script)
        if cut is not None and cut.group() == "@":
            script = script[cut.end() :]
        if not script.startswith("/"):
            raise Refused(f'denied: the path given for "{name}" must start with a "/"')

    return check


_ID_RANGE = re.compile(r"(\d+)(?:-(\d+))?")


def check_gid_range(text: str) -> None:
    """``NONE`` or ranges of group ids from 100 on (read_CF_value())."""
    words = text.split()
    value = words[0] if words else ""
    if value.upper() == "NONE":
        return
    ranges = [_ID_RANGE.fullmatch(item) for item in value.split(",")]
    if not value or any(m is None or (m[2] and int(m[2]) < int(m[1])) for m in ranges):
        raise Refused(f'incorrect value "{value}" given for configuration attribute "gid_range"')
    if any(m is not None and int(m[1]) < GID_RANGE_NOT_ALLOWED_ID for m in ranges):
        raise Refused(
            "minimum group id in gid_range may not be less than "
            f"{GID_RANGE_NOT_ALLOWED_ID} in cluster configuration"
        )


_JOB_IDS = re.compile(r"\d+(-\d+(:\d+)?)?")


def check_job_info(text: str) -> None:
    """``schedd_job_info`` as sconf_validate_config_() checks it: ``true``, ``false`` (as
    written: strcmp()) or ``job_list`` with a list of job id ranges."""
    word, *rest = text.split(None, 1) or [""]
    ids = rest[0] if rest else ""
    if word not in ("true", "false", "job_list"):
        raise Refused('attribute "schedd_job_info " is not a valid parameter')
    items = ids.replace(",", " ").split()
    if word == "job_list" and not (items and all(_JOB_IDS.fullmatch(i) for i in items)):
        raise Refused('attribute "schedd_job_info" is not a valid job_list')


def check_algorithm(text: str) -> None:
    """``default``, ``simple_sched`` or an ``ext_`` name (sconf_validate_config_())."""
    if text not in ("default", "simple_sched") and not text.startswith("ext_"):
        raise Refused(f'attribute "{text}" is not a valid algorithm name.')


def check_policy_hierarchy(text: str) -> None:
    """``NONE`` or letters of ``OFSD``, each once (policy_hierarchy_verify_value())."""
    if text.upper() == "NONE":
        return
    if any(c not in "OFSD" for c in text) or len(set(text)) != len(text):
        raise Refused("Invalid policy hierachy string. Disabling policy hierachy.")


_LEADING_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def check_halflife_decay(text: str) -> None:
    """``none`` or ``name=number`` items separated by colons, one at least read (its number
    as sscanf("%lf") reads one: a leading number)."""
    if text.lower() == "none":
        return
    for item in text.split(":"):
        parts = [p for p in item.split("=") if p]  # strtok() skips empty fields
        if len(parts) >= 2 and _LEADING_NUMBER.match(parts[1]):
            return
    raise Refused("Invalid halflife_day_list. Ignoring the setting.")


def check_pending_tasks(text: str) -> None:
    f.check_uint(text)
    if parse_c_integer(text) == 0:
        raise Refused('invalid setting for param: "max_pending_tasks_per_job"(should be ">0")')
