"""qstat's option words as Grid Engine reads them: an option's words run to the next option.

switch_list_qstat_parse_from_cmdline() (qstat_cmdline.c) reads ``-g -l -s -qs
-explain -q -u -U -pe`` with parse_until_next_opt() and ``-F -j`` with
parse_until_next_opt2(): every word up to the next one starting with ``-``
belongs to the option. sge_parse_qstat() then takes them all for ``-q -u -U
-pe -g -j`` (parse_multi_stringlist(): ``qstat -q a b`` is ``-q a,b``) and one
after the other for ``-l -F -s -qs -explain`` (parse_string(): ``-l``'s and
``-F``'s lists add up, of ``-s``, ``-qs`` and ``-explain`` each word is read
and the last one counts).

:func:`spread` writes such a command line as click reads it, each further word
as the option's own occurrence (``-q a -q b``); ``-F``'s words are joined by
commas, as its resource lists add up.
"""

from __future__ import annotations

from collections.abc import Sequence

UNTIL_NEXT = frozenset({"-g", "-l", "-s", "-qs", "-explain", "-q", "-u", "-U", "-pe", "-j"})
"""The options whose further words are occurrences of their own."""
JOINED = "-F"


def spread(argv: Sequence[str]) -> list[str]:
    """``argv`` with every option's further words given their option (``-q a b`` ->
    ``-q a -q b``, ``-F a b`` -> ``-F a,b``); a first word is left to the option's reader."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        option = argv[i]
        out.append(option)
        i += 1
        if option not in UNTIL_NEXT and option != JOINED:
            continue
        if i == len(argv) or argv[i].startswith("-") or (not argv[i] and option != JOINED):
            continue  # no word: the option's reader answers as before
        words = [argv[i]]
        i += 1
        while i < len(argv) and not argv[i].startswith("-"):
            words.append(argv[i])
            i += 1
        if option == JOINED:
            out.append(",".join(words))
        else:
            out.append(words[0])
            for word in words[1:]:
                out += [option, word]
    return out
