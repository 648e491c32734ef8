"""qsub -o/-e/-i host:path (issue 540): the qmaster resolves each host
(job_resolve_host_for_path_list()). Without a name service, a host it knows is one of
its execution, admin or submit hosts, or one that resolves anywhere: its own host
(``qsub -o $(hostname):out`` on the master host) and ``localhost``."""

from __future__ import annotations

from tests.unit.core.helpers import ALICE, make_core, submit, texts


def test_the_qmasters_own_host_and_localhost_resolve_others_do_not() -> None:
    core = make_core(qmaster_host="master1")
    for path in ("master1:/tmp/out", "MASTER1:/tmp/out", "localhost:/tmp/out"):
        out = submit(core, ALICE, o=[path])
        assert not any(a.is_error for a in out.answers), (path, texts(out))
    out = submit(core, ALICE, o=["nohost:/tmp/out"])
    assert texts(out) == ['can\'t resolve hostname "nohost"']


def test_a_shell_host_is_resolved_too() -> None:
    """-S host:path is resolved with the output paths (stdout, stdin, shell, stderr)."""
    core = make_core()
    out = submit(core, ALICE, S=["nohost:/bin/sh"])
    assert texts(out) == ['can\'t resolve hostname "nohost"']
    out = submit(core, ALICE, S=["/bin/sh", "localhost:/bin/bash"])
    assert not any(a.is_error for a in out.answers), texts(out)
