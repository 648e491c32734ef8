"""qsub -o/-e/-i host:path (issue 540): the qmaster resolves each host
(job_resolve_host_for_path_list()). Without a name service, a host it knows is one of
its execution, admin or submit hosts, or one that resolves anywhere: its own host
(``qsub -o $(hostname):out`` on the master host) and ``localhost``."""

from __future__ import annotations

from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, submit, texts


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


def test_a_refused_path_host_uses_no_job_number() -> None:
    """sge_gdi_add_job() resolves the path hosts before it numbers the job: the next job
    submitted gets the number the refused one would have had."""
    core = make_core()
    assert texts(submit(core, ALICE, o=["nohost:/tmp/out"])) == ['can\'t resolve hostname "nohost"']
    assert texts(submit(core, ALICE)) == ['Your job 1 ("job.sh") has been submitted']


def test_qalter_resolves_only_the_lists_it_sets() -> None:
    """A host named in -o and gone since (here: an admin host removed) does not stop qrls
    or qalter -N of the job; qalter -o with an unknown host is still refused."""
    core = make_core()
    request(core, ROOT, "conf_add", kind="adminhost", members=["hx"])
    assert not any(a.is_error for a in submit(core, ALICE, o=["hx:/tmp/out"], h=True).answers)
    request(core, ROOT, "conf_delete", kind="adminhost", members=["hx"])
    for job in ({"N": "renamed"}, {}):
        hold = None if job else "U"
        out = request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job=job, hold=hold)
        assert not any(a.is_error for a in out.answers), texts(out)
    out = request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={"o": ["nohost:/tmp/x"]})
    assert texts(out) == ['can\'t resolve hostname "nohost"']


def test_a_submission_reports_each_bad_list_qalter_the_first() -> None:
    """sge_job_verify_adjust() resolves stdout, stdin, shell and stderr lists alike and
    answers each list's first bad host; qalter's mod_job_attributes() stops at the first."""
    core = make_core()
    out = submit(core, ALICE, e=["e1:/x"], o=["o1:/x", "o2:/x"], S=["/bin/sh"], i=["i1:/x"])
    assert texts(out) == [f'can\'t resolve hostname "{h}"' for h in ("o1", "i1", "e1")]
    assert all(a.is_error for a in out.answers)
    submit(core, ALICE, h=True)
    out = request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={"o": ["o1:/x"], "e": ["e1:/x"]})
    assert len(texts(out)) == 1


def test_a_host_request_is_stored_as_the_resolved_name() -> None:
    """centry_fill_and_check() resolves a HOST request: -l h=HOST1 is kept as hostname=host1
    (qstat -j shows it so), localhost as the qmaster's own name; patterns stay as given."""
    core = make_core(qmaster_host="master1")
    for asked in ("HOST1", "localhost", "host*"):
        submit(core, ALICE, l_hard={"h": asked})
    stored = [dict(job.spec.hard_resources or ())["hostname"] for job in core.jobs.values()]
    assert stored == ["host1", "master1", "host*"]
