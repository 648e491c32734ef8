"""Assemble a qsub or qalter request from every place options come from.

Order of application, lowest precedence first (sge_request(5), submit(1)):
``$SGE_ROOT/$SGE_CELL/common/sge_request``, ``$HOME/.sge_request``,
``./.sge_request``, the script's ``#$`` lines, then the command line. A
``-clear`` anywhere forgets what came before it. The file system is reached
only through :class:`SubmitInputs`, so everything here is testable on dicts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.common.errors import ClientError, invalid_argument
from clients.submit.grammar import (
    ParseContext,
    SubmitState,
    apply_tokens,
    split_command_line,
)
from clients.submit.words import directive_tokens, request_tokens
from qmaster.cell import Cell

STDIN_NAME = "STDIN"


@dataclass(frozen=True, slots=True)
class SubmitInputs:
    """The caller's world as the submit clients see it."""

    env: dict[str, str]
    cwd: str
    year: int
    host: str
    read_text: Callable[[str], str | None]
    read_stdin: Callable[[], str] = lambda: ""

    def context(self, qalter: bool = False, prog: str = "qalter") -> ParseContext:
        """The parse context these inputs give."""
        return ParseContext(self.env, self.cwd, self.year, self._resolve, qalter, prog)

    def _resolve(self, path: str) -> str | None:
        return self.read_text(os.path.join(self.cwd, path))


@dataclass(slots=True)
class SubmitRequest:
    """What qsub or qalter sends: the JobSpec, the ``-w`` mode and client-only switches."""

    spec: dict[str, Any]
    verify: str = "n"
    terse: bool = False
    job_ids: list[str] = field(default_factory=list)
    jsv_scripts: list[str] = field(default_factory=list)
    hold: str | None = None
    users: list[str] | None = None
    tasked: bool = False
    lonely_tasks: str | None = None
    show_only: bool = False
    sync: bool = False


def request_files(inputs: SubmitInputs) -> list[str]:
    """The default request files, lowest precedence first."""
    files = [str(Cell.from_env(inputs.env).common / "sge_request")]
    home = inputs.env.get("HOME")
    if home:
        files.append(os.path.join(home, ".sge_request"))
    files.append(os.path.join(inputs.cwd, ".sge_request"))
    return files


def environment_essentials(inputs: SubmitInputs) -> dict[str, str]:
    """The ``SGE_O_*`` variables qsub passes with every job, as job_initialize_env() sets
    them: HOME, LOGNAME, PATH, SHELL, TZ and MAIL of the caller's environment, then HOST
    and WORKDIR (LOGNAME falls back to USER where the environment has no LOGNAME)."""
    env = inputs.env
    found = {
        "SGE_O_HOME": env.get("HOME", ""),
        "SGE_O_LOGNAME": env.get("LOGNAME") or env.get("USER", ""),
        "SGE_O_PATH": env.get("PATH", ""),
        "SGE_O_SHELL": env.get("SHELL", ""),
        "SGE_O_TZ": env.get("TZ", ""),
        "SGE_O_MAIL": env.get("MAIL", ""),
        "SGE_O_HOST": inputs.host,
        "SGE_O_WORKDIR": inputs.cwd,
    }
    return {key: value for key, value in found.items() if value}


def _jsvs_of(tokens: list[str], ctx: ParseContext) -> list[str]:
    state = SubmitState()
    apply_tokens(tokens, state, ctx, allow_script=False)
    return list(state.spec.get("jsv", []))


def build_qsub(argv: Sequence[str], inputs: SubmitInputs) -> SubmitRequest:
    """Parse qsub's argv with the request files and the script's directives."""
    ctx = inputs.context()
    words, rest = split_command_line(argv)
    if rest and rest[0].startswith("-") and rest[0] != "-":
        raise invalid_argument(rest[0])
    first_pass = SubmitState()
    apply_tokens(words, first_pass, ctx, allow_script=False)
    state = SubmitState()
    # jsv(1): client JSVs run command line first, then ./.sge_request,
    # ~/.sge_request and the cell's sge_request (the reverse of option precedence)
    jsvs = list(first_pass.spec.get("jsv", []))
    file_jsvs: list[str] = []
    for path in request_files(inputs):
        text = inputs.read_text(path)
        if text is not None:
            tokens = request_tokens(text)
            apply_tokens(tokens, state, ctx, allow_script=False)
            file_jsvs = _jsvs_of(tokens, ctx) + file_jsvs
    binary = bool(first_pass.spec.get("b", state.spec.get("b", False)))
    name, job_args = (rest[0], rest[1:]) if rest else ("-", [])
    script_text = None if binary else _script_text(name, inputs)
    if script_text is not None:
        prefix = first_pass.prefix if first_pass.prefix is not None else "#$"
        apply_tokens(directive_tokens(script_text, prefix), state, ctx, allow_script=False)
    apply_tokens(words, state, ctx, allow_script=False)
    request = _finish_qsub(state, name, job_args, script_text, inputs)
    request.jsv_scripts = jsvs + file_jsvs
    return request


def _script_text(name: str, inputs: SubmitInputs) -> str:
    if name == "-":
        return inputs.read_stdin()
    text = inputs.read_text(os.path.join(inputs.cwd, name))
    if text is None:
        raise ClientError(f'Unable to read script file because of error: error opening "{name}"')
    return text


def _finish_qsub(
    state: SubmitState,
    name: str,
    job_args: list[str],
    script_text: str | None,
    inputs: SubmitInputs,
) -> SubmitRequest:
    spec = state.spec
    if spec.get("b") and name == "-":
        raise ClientError("ERROR! -b y requires a command")
    spec["CMDNAME"] = STDIN_NAME if name == "-" else name
    if job_args:
        spec["CMDARGS"] = job_args
    if script_text is not None:
        spec["script"] = script_text
    spec.setdefault("N", os.path.basename(spec["CMDNAME"]) or STDIN_NAME)
    spec.setdefault("v", {}).update(environment_essentials(inputs))
    spec.pop("jsv", None)
    request = SubmitRequest(spec, state.verify or "n", state.terse)
    request.show_only, request.sync = state.show_only, state.sync
    return request


IMPLICIT_HOLD = {"qhold": "u", "qrls": "U"}
"""cull_parse_cmdline(): qhold and qrls without -h set or remove the user hold."""


def build_qalter(argv: Sequence[str], inputs: SubmitInputs, prog: str = "qalter") -> SubmitRequest:
    """Parse qalter's argv (or qhold's, qrls's: qalter with a hold list): the changed keys
    and the job ids they apply to."""
    state = SubmitState()
    apply_tokens(argv, state, inputs.context(qalter=True, prog=prog), allow_script=True)
    if state.hold is None and prog in IMPLICIT_HOLD:
        state.hold = IMPLICIT_HOLD[prog]
    jsvs = list(state.spec.pop("jsv", []))
    request = SubmitRequest(
        state.spec, state.verify or "n", state.terse, state.job_ids, jsvs, hold=state.hold
    )
    request.users = state.users
    request.tasked, request.lonely_tasks = state.tasked, state.lonely_tasks
    request.show_only = state.show_only
    return request
