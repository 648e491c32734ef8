"""Projects and checkpointing environments a job or reservation names must exist and admit it.

Called from ``validate_spec``, the one validation path of submissions (command
line, JSV, qalter) and advance reservations. Messages are Grid Engine's
(``sge_job_qmaster.c``): an unknown project or checkpointing environment, a
project whose ``acl``/``xacl`` shuts the user out, a project the global
``projects``/``xprojects`` do not allow, and a job without a project where
``enforce_project`` or the global ``projects`` require one; a user without a
user(5) object where ``enforce_user`` is ``true``. A job without a project gets
its owner's ``default_project``.
"""

from __future__ import annotations

from qmaster.conf import fields as f
from qmaster.conf.store import ClusterConfig
from qmaster.core.errors import NoSuchObject, PermissionDenied
from qmaster.core.jobs import Identity
from qmaster.core.jobspec import JobSpec


def check_user(config: ClusterConfig, who: Identity) -> None:
    """With ``enforce_user true`` only users with a user(5) object may submit.

    ``auto`` would create the object on submission in Grid Engine; minige does
    not create user objects, so ``auto`` admits every user as ``false`` does.
    """
    if config.global_conf.attrs["enforce_user"].strip().lower() != "true":
        return
    if who.user not in config.state.users:
        raise NoSuchObject(f'job rejected: the user "{who.user}" does not exist')


def default_project(config: ClusterConfig, spec: JobSpec, who: Identity) -> JobSpec:
    """A job without ``-P`` gets its owner's ``default_project`` (user(5)), if one is set."""
    user = config.state.users.get(who.user)
    if spec.project or user is None or f.is_none(user.attrs["default_project"]):
        return spec
    return spec.changed(project=user.attrs["default_project"])


def check_ckpt(config: ClusterConfig, spec: JobSpec) -> None:
    """``-ckpt NAME`` must name a checkpointing environment."""
    ckpt = spec.ckpt
    if ckpt and str(ckpt) not in config.ckpts:
        raise NoSuchObject(
            f'job rejected: the requested checkpointing environment "{ckpt}" does not exist'
        )


def _has_access(config: ClusterConfig, who: Identity, acl: list[str], xacl: list[str]) -> bool:
    if xacl and config.user_in_lists(who.user, who.group, xacl):
        return False
    return not acl or config.user_in_lists(who.user, who.group, acl)


def check_project(config: ClusterConfig, spec: JobSpec, who: Identity | None) -> None:
    """``-P NAME`` must name a project that admits the job's owner and may submit jobs."""
    glob = config.global_conf.attrs
    allowed, denied = f.split_list(glob["projects"]), f.split_list(glob["xprojects"])
    name = spec.project
    if not name:
        if allowed:
            raise PermissionDenied(
                "job rejected: no project was supplied and only certain projects are allowed "
                "to submit jobs"
            )
        if glob["enforce_project"].strip().lower() == "true":
            raise PermissionDenied("job rejected: no project assigned to job")
        return
    project = config.projects.get(str(name))
    if project is None:
        raise NoSuchObject(f'job rejected: the requested project "{name}" does not exist')
    acl, xacl = f.split_list(project.attrs["acl"]), f.split_list(project.attrs["xacl"])
    if who is not None and not _has_access(config, who, acl, xacl):
        raise PermissionDenied(f'job rejected: no access to project "{name}" for user "{who.user}"')
    if name in denied or (allowed and name not in allowed):
        raise PermissionDenied(f'job rejected: project "{name}" is not allowed to submit jobs')
