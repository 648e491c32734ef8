"""The global configuration (sge_conf(5)) and the scheduler configuration (sched_conf(5)).

``libjvm_path`` and ``additional_jvm_args`` (Grid Engine's JMX server) are
stored and shown; minige has no JMX server. ``jsv_timeout`` and
``jsv_threshold`` are ``qmaster_params`` entries, as in
sge_conf(5) (``qmaster_params jsv_timeout=10,jsv_threshold=5000``). minige
additions beyond Grid Engine: ``jsv_reject_wait_retries`` (0, the
default, makes ``REJECT_WAIT`` refuse the submission as Grid Engine does; N > 0
keeps the job waiting for verification and asks the JSV again up to N times)
and ``jsv_reject_wait_backoff`` (the first wait; it doubles each time). New keys are added to ``GLOBAL_FORMAT`` with their default.
"""

from __future__ import annotations

from functools import cached_property
from typing import Self

from qmaster.complexes.formula import check_formula
from qmaster.complexes.values import parse_c_integer, parse_time
from qmaster.conf import fields as f
from qmaster.conf.confchecks import (
    check_algorithm,
    check_gid_range,
    check_halflife_decay,
    check_job_info,
    check_pending_tasks,
    check_policy_hierarchy,
    check_script_path,
)
from qmaster.conf.flatfile import read_pairs
from qmaster.conf.model import Attr, ConfObject, Format, parse_attrs
from qmaster.conf.params import check_qmaster_params, fold_legacy_params, split_params
from qmaster.jsv.url import check_server_url


def _text(name: str, default: str) -> Attr:
    return Attr(name, default, f.check_any)


def _uint(name: str, default: str) -> Attr:
    return Attr(name, default, f.check_uint)


def _time(name: str, default: str) -> Attr:
    return Attr(name, default, f.check_time_or_none)


def _bool(name: str, default: str) -> Attr:
    return Attr(name, default, f.check_bool)


OPTIONAL_ON_MODIFY = frozenset(
    {"libjvm_path", "additional_jvm_args", "jsv_reject_wait_retries", "jsv_reject_wait_backoff"}
)
"""Keys a ``qconf -Mconf`` file may leave out (keeping their values): Grid Engine's JMX
settings, which older configurations lack, and minige's own additions."""

GLOBAL_FORMAT = Format(
    kind="global",
    header="#global:\n",
    column=29,
    attrs=(
        _text("execd_spool_dir", "/var/spool/sge"),
        _text("mailer", "/bin/mail"),
        _text("xterm", "/usr/bin/xterm"),
        _text("load_sensor", "none"),
        Attr("prolog", "none", check_script_path("prolog")),
        Attr("epilog", "none", check_script_path("epilog")),
        Attr(
            "shell_start_mode",
            "posix_compliant",
            f.check_words("posix_compliant", "unix_behavior", "script_from_stdin"),
        ),
        _text("login_shells", "sh,bash,ksh,csh,tcsh"),
        _uint("min_uid", "0"),
        _uint("min_gid", "0"),
        Attr("user_lists", "none", f.check_names),
        Attr("xuser_lists", "none", f.check_names),
        Attr("projects", "none", f.check_names),
        Attr("xprojects", "none", f.check_names),
        _bool("enforce_project", "false"),
        Attr("enforce_user", "auto", f.check_words("true", "false", "auto")),
        _time("load_report_time", "00:00:40"),
        _time("max_unheard", "00:05:00"),
        _time("reschedule_unknown", "00:00:00"),
        Attr(
            "loglevel",
            "log_warning",
            f.check_words(
                "log_crit", "log_err", "log_warning", "log_notice", "log_info", "log_debug"
            ),
        ),
        _text("administrator_mail", "none"),
        _text("set_token_cmd", "none"),
        _text("pag_cmd", "none"),
        _time("token_extend_time", "none"),
        _text("shepherd_cmd", "none"),
        Attr("qmaster_params", "none", check_qmaster_params),
        _text("execd_params", "none"),
        _text(
            "reporting_params",
            "accounting=true reporting=false flush_time=00:00:15 joblog=false sharelog=00:00:00",
        ),
        _uint("finished_jobs", "100"),
        Attr("gid_range", "20000-20100", check_gid_range),
        _text("qlogin_command", "builtin"),
        _text("qlogin_daemon", "builtin"),
        _text("rlogin_command", "builtin"),
        _text("rlogin_daemon", "builtin"),
        _text("rsh_command", "builtin"),
        _text("rsh_daemon", "builtin"),
        _uint("max_aj_instances", "2000"),
        _uint("max_aj_tasks", "75000"),
        _uint("max_u_jobs", "0"),
        _uint("max_jobs", "0"),
        _uint("max_advance_reservations", "0"),
        _uint("auto_user_oticket", "0"),
        _uint("auto_user_fshare", "0"),
        _text("auto_user_default_project", "none"),
        _uint("auto_user_delete_time", "86400"),
        _bool("delegated_file_staging", "false"),
        _uint("reprioritize", "0"),
        Attr("jsv_url", "none", check_server_url),
        _text("jsv_allowed_mod", "ac,h,i,e,o,j,M,N,p,w"),
        _text("libjvm_path", "none"),
        _text("additional_jvm_args", "none"),
        _uint("jsv_reject_wait_retries", "0"),
        _time("jsv_reject_wait_backoff", "00:00:10"),
    ),
)


class GlobalConf(ConfObject):
    """The cluster-wide configuration (``qconf -sconf``)."""

    FORMAT = GLOBAL_FORMAT

    def _int(self, key: str) -> int:
        return parse_c_integer(self.attrs[key])

    @cached_property
    def max_jobs(self) -> int:
        """Jobs allowed in the cluster; 0 is unlimited."""
        return self._int("max_jobs")

    @cached_property
    def max_u_jobs(self) -> int:
        """Jobs allowed per user; 0 is unlimited."""
        return self._int("max_u_jobs")

    @cached_property
    def max_aj_tasks(self) -> int:
        """Tasks allowed in one array job; 0 is unlimited."""
        return self._int("max_aj_tasks")

    @cached_property
    def max_aj_instances(self) -> int:
        """Tasks of one array job allowed to run at once; 0 is unlimited."""
        return self._int("max_aj_instances")

    @cached_property
    def finished_jobs(self) -> int:
        """Finished jobs kept for ``qstat -s z``."""
        return self._int("finished_jobs")

    @cached_property
    def max_advance_reservations(self) -> int:
        """Advance reservations allowed in the cluster; 0 allows none to be created."""
        return self._int("max_advance_reservations")

    @cached_property
    def jsv_url(self) -> str | None:
        """The server JSV's script, or None."""
        url = self.attrs["jsv_url"]
        return None if f.is_none(url) else url

    @cached_property
    def jsv_allowed_mod(self) -> list[str]:
        """The qalter switches allowed for jobs that a JSV has seen."""
        return f.split_list(self.attrs["jsv_allowed_mod"])

    @classmethod
    def parse(cls, text: str, path: str = "-", *, spooled: bool = False) -> Self:
        """Read the file; top-level ``jsv_timeout``/``jsv_threshold`` lines (written by
        earlier minige versions) move into ``qmaster_params``, where sge_conf(5) has them."""
        pairs = fold_legacy_params(read_pairs(text, path))
        return cls(attrs=parse_attrs(cls.FORMAT, pairs, path, spooled=spooled))

    @cached_property
    def qmaster_params(self) -> dict[str, str]:
        """``qmaster_params`` as a dict with lower-case names (a bare name is ``true``)."""
        return split_params(self.attrs["qmaster_params"])

    @cached_property
    def execd_params(self) -> dict[str, str]:
        """``execd_params`` as a dict with lower-case names (a bare name is ``true``)."""
        return split_params(self.attrs["execd_params"])

    def execd_flag(self, name: str, default: bool = False) -> bool:
        """A boolean of ``execd_params`` as parse_bool_param() reads it: a bare name, a
        value starting with 1, or ``true`` in any case is true."""
        value = self.execd_params.get(name)
        if value is None:
            return default
        return value[:1] == "1" or value.lower() == "true"

    @property
    def inherit_env(self) -> bool:
        """``execd_params INHERIT_ENV`` (default true): jobs start with the execution
        daemon's environment under their own."""
        return self.execd_flag("inherit_env", default=True)

    @cached_property
    def jsv_timeout(self) -> float:
        """Seconds to wait for the JSV's answer (``qmaster_params jsv_timeout``, default 10)."""
        value = parse_c_integer(self.qmaster_params.get("jsv_timeout", "10"))
        return float(value if value > 0 else 10)

    @cached_property
    def jsv_threshold(self) -> float:
        """Milliseconds after which a JSV verification is logged (``qmaster_params``)."""
        return float(parse_c_integer(self.qmaster_params.get("jsv_threshold", "5000")))

    @cached_property
    def jsv_reject_wait_retries(self) -> int:
        """How often a REJECT_WAIT job is verified again (0: refuse it, as Grid Engine does)."""
        return self._int("jsv_reject_wait_retries")

    @cached_property
    def jsv_reject_wait_backoff(self) -> float:
        """Seconds before the first re-verification; doubled for each later one."""
        return parse_time(self.attrs["jsv_reject_wait_backoff"])

    @cached_property
    def reporting_params(self) -> dict[str, str]:
        """``reporting_params`` as a dict (``accounting``, ``reporting``, ``flush_time``...)."""
        pairs = (item.partition("=") for item in self.attrs["reporting_params"].split())
        return {key: value for key, _, value in pairs}

    @cached_property
    def administrator_mail(self) -> list[str]:
        """Addresses that get administrator mail."""
        return f.split_list(self.attrs["administrator_mail"])


def _check_adjustments(text: str) -> None:
    """``NONE`` or ``name=number`` pairs (sched_conf(5) ``job_load_adjustments``)."""
    for name, value in f.split_pairs(text).items():
        try:
            float(value)
        except ValueError:
            raise ValueError(
                f'load adjustments value "{name}={value}" must be of numeric type'
            ) from None


SCHED_FORMAT = Format(
    kind="sched",
    column=34,
    attrs=(
        Attr("algorithm", "default", check_algorithm),
        Attr("schedule_interval", "0:0:15", f.check_time),
        _uint("maxujobs", "0"),
        Attr("queue_sort_method", "load", f.check_words("load", "seqno")),
        Attr("job_load_adjustments", "np_load_avg=0.50", _check_adjustments),
        _time("load_adjustment_decay_time", "0:7:30"),
        Attr("load_formula", "np_load_avg", check_formula),
        Attr("schedd_job_info", "false", check_job_info),
        _uint("flush_submit_sec", "0"),
        _uint("flush_finish_sec", "0"),
        _text("params", "none"),
        _time("reprioritize_interval", "0:0:0"),
        _uint("halftime", "168"),
        Attr("usage_weight_list", "cpu=1.000000,mem=0.000000,io=0.000000", f.check_pairs),
        Attr("compensation_factor", "5.000000", f.check_double),
        Attr("weight_user", "0.250000", f.check_double),
        Attr("weight_project", "0.250000", f.check_double),
        Attr("weight_department", "0.250000", f.check_double),
        Attr("weight_job", "0.250000", f.check_double),
        _uint("weight_tickets_functional", "0"),
        _uint("weight_tickets_share", "0"),
        _bool("share_override_tickets", "TRUE"),
        _bool("share_functional_shares", "TRUE"),
        _uint("max_functional_jobs_to_schedule", "200"),
        _bool("report_pjob_tickets", "TRUE"),
        Attr("max_pending_tasks_per_job", "50", check_pending_tasks),
        Attr("halflife_decay_list", "none", check_halflife_decay),
        Attr("policy_hierarchy", "OFS", check_policy_hierarchy),
        Attr("weight_ticket", "0.500000", f.check_double),
        Attr("weight_waiting_time", "0.278000", f.check_double),
        Attr("weight_deadline", "3600000.000000", f.check_double),
        Attr("weight_urgency", "0.500000", f.check_double),
        Attr("weight_priority", "0.000000", f.check_double),
        _uint("max_reservation", "0"),
        Attr("default_duration", "INFINITY", f.check_time),
    ),
)


class SchedConf(ConfObject):
    """The scheduler configuration (``qconf -ssconf``)."""

    FORMAT = SCHED_FORMAT

    @cached_property
    def schedule_interval(self) -> float:
        """Seconds between scheduling passes."""
        return parse_time(self.attrs["schedule_interval"])

    @cached_property
    def flush_submit_sec(self) -> int:
        """Seconds after a submit before an extra pass (0: none)."""
        return parse_c_integer(self.attrs["flush_submit_sec"])

    @cached_property
    def flush_finish_sec(self) -> int:
        """Seconds after a job ends before an extra pass (0: none)."""
        return parse_c_integer(self.attrs["flush_finish_sec"])

    @cached_property
    def max_reservation(self) -> int:
        """Reservations the scheduler makes per pass."""
        return parse_c_integer(self.attrs["max_reservation"])

    @cached_property
    def maxujobs(self) -> int:
        """Running jobs allowed per user; 0 is unlimited."""
        return parse_c_integer(self.attrs["maxujobs"])

    @cached_property
    def default_duration(self) -> float:
        """Assumed runtime (seconds, ``math.inf`` for INFINITY) of jobs without h_rt/s_rt."""
        return parse_time(self.attrs["default_duration"])

    @cached_property
    def queue_sort_method(self) -> str:
        """``load`` or ``seqno``."""
        return self.attrs["queue_sort_method"].lower()
