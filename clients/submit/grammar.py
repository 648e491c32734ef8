"""The submit option grammar: a table from option name to arity and effect.

Grid Engine's submit options cannot be expressed in click: ``-soft`` and
``-hard`` switch the scope of the ``-l``/``-q`` options that follow them,
``-clear`` forgets everything collected so far, ``-@ file`` splices in more
options, and the first word that is not an option is the script, after which
everything is a job argument. So the options are parsed here, from a table,
into a JobSpec dict keyed by the JSV parameter names (see ``qmaster/gdi/ops.py``).

The same grammar reads the command line, the default request files and the
``#$`` lines of a script; the caller applies them in precedence order to one
:class:`SubmitState`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.common.errors import bad_value, invalid_argument, missing_argument
from clients.submit import more_options as M
from clients.submit import values as V
from clients.submit.dates import parse_date_time
from clients.submit.jobwords import TAKEN_BEFORE_JOB_WORDS, job_tasks
from clients.submit.words import request_tokens

VERIFY_MODES = V.VERIFY_MODES


@dataclass(slots=True)
class SubmitState:
    """Everything the submit options have said so far."""

    spec: dict[str, Any] = field(default_factory=dict)
    hard: bool = True
    verify: str | None = None
    terse: bool = False
    prefix: str | None = None
    script: str | None = None
    job_args: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)
    hold: str | None = None  # qalter -h: the hold list (u o s add, U O S remove, n none)
    tasked: bool = False  # qalter: a job word names tasks (7.2, or a -t after it)
    lonely_tasks: str | None = None  # qalter: a -t no job word took
    users: list[str] | None = None
    show_only: bool = False
    sync: bool = False
    reading: list[str] = field(default_factory=list)  # the -@ files being read

    def clear(self) -> None:
        """``-clear``: forget every option collected so far."""
        self.spec.clear()
        self.hard = True
        self.verify = None
        self.terse = False


@dataclass(frozen=True, slots=True)
class ParseContext:
    """What option effects may consult: the caller's environment, cwd and clock year."""

    env: dict[str, str]
    cwd: str
    year: int
    read_text: Callable[[str], str | None] = lambda _path: None
    qalter: bool = False
    prog: str = "qalter"  # qalter, qhold or qrls: how -h reads its hold list


Effect = Callable[[SubmitState, list[str], ParseContext], None]


@dataclass(frozen=True, slots=True)
class Option:
    """One submit option: how many words it takes and what it does.

    ``words``, when given, says how many words the option takes from the
    ones that follow it (``-binding [set|env|pe] strategy``).
    """

    arity: int
    effect: Effect
    missing: str | None = None
    words: Callable[[Sequence[str]], int] | None = None

    def arity_at(self, following: Sequence[str]) -> int:
        """The number of words this option takes here."""
        return self.words(following) if self.words is not None else self.arity


def _set(key: str, convert: Callable[[str], Any] = str) -> Effect:
    def effect(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
        state.spec[key] = convert(args[0])

    return effect


def _flag(key: str) -> Effect:
    def effect(state: SubmitState, _args: list[str], _ctx: ParseContext) -> None:
        state.spec[key] = True

    return effect


def _yes_no(key: str, option: str) -> Effect:
    return _set(key, lambda text: V.yes_no(option, text))


def _extend(key: str, items: Callable[[str], list[str]] = V.name_list) -> Effect:
    def effect(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
        state.spec.setdefault(key, []).extend(items(args[0]))

    return effect


def _scoped_resources(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    key = "l_hard" if state.hard else "l_soft"
    state.spec.setdefault(key, {}).update(V.resource_list(args[0]))


def _scoped_queues(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    key = "q_hard" if state.hard else "q_soft"
    state.spec.setdefault(key, []).extend(V.name_list(args[0]))


def _scope(hard: bool) -> Effect:
    def effect(state: SubmitState, _args: list[str], _ctx: ParseContext) -> None:
        state.hard = hard

    return effect


def _variables(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
    state.spec.setdefault("v", {}).update(V.variable_list(args[0], ctx.env))


def _export_all(state: SubmitState, _args: list[str], ctx: ParseContext) -> None:
    state.spec["V"] = True
    state.spec.setdefault("v", {}).update(ctx.env)


_CONTEXT_OPS = {"-ac": "+", "-dc": "-", "-sc": "="}


def _context(option: str) -> Effect:
    """-ac adds, -dc deletes (a value given is ignored), -sc replaces the context.

    qsub resolves them into the job's ``ac``; qalter sends them in order as
    ``context_ops`` for the qmaster to apply to each job's own context."""

    def effect(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
        items = V.context_list(option, args[0])
        if ctx.qalter:
            ops = state.spec.setdefault("context_ops", [])
            if option == "-sc":
                ops.append(["=", "", ""])
            op = "-" if option == "-dc" else "+"
            ops.extend([op, name, value] for name, value in items.items())
            return
        context: dict[str, str] = state.spec.setdefault("ac", {})
        if option == "-sc":
            context.clear()
        if option == "-dc":
            for name in items:
                context.pop(name, None)
            if not context:  # Grid Engine frees the emptied list: the job has no context
                del state.spec["ac"]
        else:
            context.update(items)

    return effect


def _cwd(state: SubmitState, _args: list[str], ctx: ParseContext) -> None:
    state.spec["cwd"] = ctx.cwd


def _hold(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
    if not ctx.qalter:
        state.spec["h"] = True
        return
    letters = M.hold_list(args[0], ctx.prog)
    if letters is None:  # an empty list is taken: it changes no hold, as in Grid Engine
        raise bad_value(f'ERROR! Unknown hold list "{args[0]}" specified to -h option')
    state.hold = letters
    if any(ch in letters for ch in "uUn"):  # what a client JSV sees as h: the user hold
        state.spec["h"] = "u" in letters and "n" not in letters and "U" not in letters


def _pe(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    first, last = V.slot_range(args[1])
    state.spec.update(pe_name=args[0], pe_min=first, pe_max=last)


def _tasks(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    first, last, step = V.task_range(args[0])
    state.spec.update(t_min=first, t_max=last, t_step=step)


def _date(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
    state.spec["a"] = parse_date_time(args[0], ctx.year)


def _verify(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    state.verify = V.verify_mode(args[0])


def _terse(state: SubmitState, _args: list[str], _ctx: ParseContext) -> None:
    state.terse = True


def _display(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    """``-display``: the X display, passed to the job as ``DISPLAY``."""
    state.spec.setdefault("v", {})["DISPLAY"] = args[0]


def _show_only(state: SubmitState, _args: list[str], _ctx: ParseContext) -> None:
    """``-verify``: show the job as it would be submitted, submit nothing."""
    state.show_only = True


def _sync(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    """``-sync y``: wait for the job to end and exit with its exit status."""
    state.sync = V.yes_no("-sync", args[0])


def _prefix(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    state.prefix = args[0]


def _clear(state: SubmitState, _args: list[str], _ctx: ParseContext) -> None:
    state.clear()


def _options_file(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
    """``-@ file``: its options in place; a file it names again cannot be read again."""
    path = os.path.normpath(os.path.join(ctx.cwd, args[0]))
    text = ctx.read_text(args[0]) if path not in state.reading else None
    if text is None:
        raise bad_value(f'ERROR! Could not read options file "{args[0]}"')
    state.reading.append(path)
    apply_tokens(request_tokens(text), state, ctx, allow_script=False)
    state.reading.pop()


def _jsv(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    state.spec.setdefault("jsv", []).append(args[0])


OPTIONS: dict[str, Option] = {
    "-N": Option(1, _set("N", V.job_name)),
    "-o": Option(1, M.paths("o", "-o")),
    "-e": Option(1, M.paths("e", "-e")),
    "-j": Option(1, _yes_no("j", "-j")),
    "-cwd": Option(0, _cwd),
    "-wd": Option(1, _set("wd")),
    "-V": Option(0, _export_all),
    "-v": Option(1, _variables, "ERROR! -v option must have variable list argument"),
    "-ac": Option(1, _context("-ac"), "ERROR! -ac option must have a context_list list argument"),
    "-sc": Option(1, _context("-sc"), "ERROR! -sc option must have context list argument"),
    "-dc": Option(1, _context("-dc")),
    "-A": Option(1, _set("A")),
    "-P": Option(1, _set("P")),
    "-p": Option(1, _set("p", V.priority)),
    "-hold_jid": Option(1, M.job_refs("hold_jid", "-hold_jid")),
    "-hold_jid_ad": Option(1, M.job_refs("hold_jid_ad", "-hold_jid_ad")),
    "-binding": Option(1, M.binding, words=M.binding_words),
    "-c": Option(1, M.checkpoint),
    "-ckpt": Option(1, _set("ckpt")),
    "-dl": Option(1, M.deadline),
    "-i": Option(1, M.paths("i", "-i")),
    "-js": Option(1, M.number("js", V.job_share)),
    "-ot": Option(1, M.number("ot", V.override_tickets)),
    "-tc": Option(1, M.number("tc", V.task_concurrency)),
    "-l": Option(1, _scoped_resources),
    "-soft": Option(0, _scope(False)),
    "-hard": Option(0, _scope(True)),
    "-q": Option(1, _scoped_queues, "ERROR! -q option must have queue list argument"),
    "-pe": Option(2, _pe, "ERROR! -pe option must have range as 2nd argument"),
    "-masterq": Option(1, _extend("masterq")),
    "-now": Option(1, _yes_no("now", "-now")),
    "-r": Option(1, _yes_no("r", "-r")),
    "-m": Option(1, _set("m", V.mail_options)),
    "-M": Option(1, _extend("M", V.mail_list)),
    "-w": Option(1, _verify),
    "-terse": Option(0, _terse),
    "-@": Option(1, _options_file, "ERROR! -@ option must have file argument"),
    "-clear": Option(0, _clear),
    "-t": Option(1, _tasks, "ERROR! -t option must have a list of task id ranges"),
    "-jsv": Option(1, _jsv),
    "-b": Option(1, _yes_no("b", "-b")),
    "-S": Option(1, M.paths("S", "-S"), "ERROR! -S option must have path_name argument"),
    "-R": Option(1, _yes_no("R", "-R")),
    "-a": Option(1, _date),
    "-ar": Option(1, _set("ar", V.ar_id)),
    "-shell": Option(1, _yes_no("shell", "-shell")),
    "-notify": Option(0, _flag("notify")),
    "-C": Option(1, _prefix),
    "-display": Option(1, _display, "ERROR! -display option must have argument"),
    "-verify": Option(0, _show_only),
    "-sync": Option(1, _sync),
}


def _users(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    state.users = [*(state.users or []), *V.name_list(args[0])]


QALTER_HOLD = Option(1, _hold)
QSUB_HOLD = Option(0, _hold)
QSUB_ONLY = frozenset({"-b", "-shell", "-sync", "-now"})
QALTER_TABLE = {
    **{k: v for k, v in OPTIONS.items() if k not in QSUB_ONLY},
    "-h": QALTER_HOLD,
    "-u": Option(1, _users, "ERROR! -u option must have a list usernames"),
}
QSUB_TABLE = {**OPTIONS, "-h": QSUB_HOLD}


def option_table(qalter: bool) -> dict[str, Option]:
    """The options of qsub, or of qalter (``-h`` takes a hold list, ``-u`` a user list)."""
    return QALTER_TABLE if qalter else QSUB_TABLE


def apply_tokens(
    tokens: Sequence[str], state: SubmitState, ctx: ParseContext, *, allow_script: bool
) -> None:
    """Apply ``tokens`` to ``state`` in order.

    With ``allow_script`` the first word that is not an option is the script
    (qsub) and the rest are job arguments; qalter collects such words as job
    ids. Elsewhere (request files, ``#$`` lines) such a word is an error.
    """
    table = option_table(ctx.qalter)
    i = 0
    after_job_word = False
    while i < len(tokens):
        token = tokens[i]
        option = table.get(token)
        if ctx.qalter and allow_script and token == "-t":
            job_tasks(state, list(tokens[i + 1 : i + 2]), after_job_word)
            after_job_word = False
            i += 2
            continue
        # qalter_parse_job_parameter() takes these out before it pairs a job word with the
        # -t right after it: between the two, they leave the pair as it is
        keep = after_job_word and ctx.qalter and token in TAKEN_BEFORE_JOB_WORDS
        after_job_word = False
        if option is None:
            if (token.startswith("-") and token != "-") or not allow_script:
                raise invalid_argument(token)
            if ctx.qalter:
                words = V.name_list(token)
                state.job_ids.extend(words)
                state.tasked |= any(w[:1].isdigit() and "." in w for w in words)
                after_job_word = bool(words)
                i += 1
                continue
            state.script, state.job_args = token, list(tokens[i + 1 :])
            return
        arity = option.arity_at(tokens[i + 1 :])
        words = list(tokens[i + 1 : i + 1 + arity])
        if len(words) < arity:
            raise missing_argument(token, option.missing)
        option.effect(state, words, ctx)
        after_job_word = keep
        i += 1 + arity


def asks_for_help(tokens: Sequence[str], qalter: bool = False) -> bool:
    """``-help`` given as an option (not as another option's value or a job argument)."""
    table = option_table(qalter)
    i = 0
    while i < len(tokens):
        if tokens[i] == "-help":
            return True
        option = table.get(tokens[i])
        if option is None and not qalter:
            return False
        i += 1 + (option.arity_at(tokens[i + 1 :]) if option else 0)
    return False


def split_command_line(tokens: Sequence[str], qalter: bool = False) -> tuple[list[str], list[str]]:
    """Split argv into its option words and the script with its job arguments."""
    table = option_table(qalter)
    i = 0
    while i < len(tokens):
        option = table.get(tokens[i])
        if option is None:
            break
        i += 1 + option.arity_at(tokens[i + 1 :])
    return list(tokens[:i]), list(tokens[i:])
