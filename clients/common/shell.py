"""The click shell every command runs in, with Grid Engine's error behaviour.

click parses the options, but none of its texts or exit codes reach the user:

* ``--version`` (minige's) prints ``GE 6.2u5`` and minige's version, exit 0;
* ``-help`` prints ``GE 6.2u5`` and the command's usage on stdout and exits
  as Grid Engine's command does (0; qrstat 1);
* a bad command line (:class:`OptionError`, click's usage errors translated
  to one) is reported in the command's own Grid Engine layout and exit code
  (:mod:`clients.common.conventions`);
* a :class:`ClientError` prints its message (after the usage when it asks
  for it), exit code as it says;
* an unreachable qmaster (:class:`GdiError`) is one line on stderr, exit 1.

The qmaster is reached through a *transport*, ``(op, args) -> Reply``. By
default that is :func:`qmaster.gdi.client.call`, looked up at call time so
tests may monkeypatch it; ``main(argv, transport=...)`` injects another one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from clients.common.conventions import report
from clients.common.errors import ClientError, invalid_argument, missing_argument
from clients.common.guard import Transport, default_transport, guarded

__all__ = ["GeCommand", "Transport", "default_transport", "first_unknown", "transport_of"]

CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": [], "max_content_width": 100}


def transport_of(ctx: click.Context) -> Transport:
    """The transport a command invocation was started with."""
    found: Transport = ctx.find_root().obj
    return found


class GeCommand(click.Command):
    """A click command that behaves like a Grid Engine client on bad input."""

    def __init__(
        self,
        *args: Any,
        usage_text: str,
        asks_for_help: Callable[[Sequence[str]], bool] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("context_settings", dict(CONTEXT_SETTINGS))
        kwargs["add_help_option"] = False
        super().__init__(*args, **kwargs)
        self.usage_text = usage_text
        self.asks_for_help = asks_for_help or (lambda args: "-help" in args)

    def run(self, argv: Sequence[str] | None, transport: Transport | None = None) -> int:
        """Parse ``argv``, run the command and return its exit code."""
        args = list(sys.argv[1:] if argv is None else argv)
        return guarded(
            self.name or "",
            self.usage_text,
            args,
            self.asks_for_help,
            lambda: self._parse_and_invoke(args, transport or default_transport),
        )

    def _parse_and_invoke(self, args: list[str], transport: Transport) -> int:
        passthrough = self.context_settings.get("ignore_unknown_options", False)
        unknown = None if passthrough else first_unknown(args, self._option_names())
        if unknown is not None:
            return self._report(invalid_argument(unknown))
        try:
            ctx = self.make_context(self.name or "", list(args), obj=transport)  # click eats it
            with ctx:
                result = self.invoke(ctx)
        except click.exceptions.Exit as stop:
            return stop.exit_code
        except click.UsageError as exc:
            return self._report(self._translate(exc, args))
        return int(result or 0)

    def _report(self, exc: ClientError) -> int:
        return report(self.name or "", self.usage_text, exc)

    def _option_names(self) -> dict[str, bool]:
        """Every option name -> whether it takes a value."""
        names: dict[str, bool] = {}
        for param in self.params:
            if isinstance(param, click.Option):
                for name in param.opts + param.secondary_opts:
                    names[name] = not param.is_flag and not param.count
        return names

    def _translate(self, exc: click.UsageError, args: list[str]) -> ClientError:
        """Map a click usage error onto Grid Engine's wording."""
        names = self._option_names()
        option = getattr(exc, "option_name", None)
        if isinstance(exc, click.BadOptionUsage) and option and names.get(option):
            return missing_argument(option)
        token = first_unknown(args, names) or _bad_value(exc) or first_stray(args, names)
        return invalid_argument(token or (args[-1] if args else ""))


def first_unknown(args: Sequence[str], names: dict[str, bool]) -> str | None:
    """The first token that looks like an option but is none of ``names``."""
    expect_value = False
    for token in args:
        if expect_value:
            expect_value = False
            continue
        if token in names:
            expect_value = names[token]
        elif token.startswith("-") and len(token) > 1:
            return token
    return None


def first_stray(args: Sequence[str], names: dict[str, bool]) -> str | None:
    """The first word that is neither an option nor an option's value (the word Grid
    Engine's parsers stop at: ``qstat x`` is ``invalid option argument "x"``)."""
    expect_value = False
    for token in args:
        if expect_value:
            expect_value = False
        elif token in names:
            expect_value = names[token]
        elif not token.startswith("-"):
            return token
    return None


def _bad_value(exc: click.UsageError) -> str | None:
    if isinstance(exc, click.BadParameter):
        value = getattr(exc, "value", None)
        return None if value is None else str(value)
    return None
