"""qconf's usage, as Grid Engine 6.2u5's ``sge_usage(QCONF)`` prints it.

``source/common/usage.c``: after ``usage: qconf [options]`` one line an option,
``"   %-40.40s %s"``, in usage.c's order, the texts of ``msg_common.h``
(``MSG_GDI_USAGE_*`` / ``MSG_GDI_UTEXT_*``); then an empty line and the syntax
of every argument the printed options marked, in the order of usage.h's
``OA_*`` enumeration. The options are those ``VALID_OPT(..., QCONF)`` allows
(``sge_options.c``). An option minige's qconf refuses (resource quota sets,
the share tree, local configurations, ...) is left out, and so is an argument
line only such options marked; the rest stays as Grid Engine prints it.
"""

from __future__ import annotations

from collections.abc import Collection

# usage.h's OA_* order; the texts are msg_common.h's MSG_GDI_ARGUMENTSYNTAX_OA_*
_ARGUMENTS: dict[str, str] = {
    "complex_list": "complex_list            complex[,complex,...]",
    "destin_id_list": "destin_id_list          queue[,queue,...]",
    "hostname_list": "hostname_list           hostname[,hostname,...]",
    "listname_list": "listname_list           listname[,listname,...]",
    "rqs_list": "rqs_list                rqs_name[,rqs_name,...]",
    "node_list": "node_list               node_path[,node_path,...]",
    "node_path": "node_path               [/]node_name[[/.]node_name...]",
    "node_shares_list": "node_shares_list        node_path=shares[,node_path=shares,...]",
    "user_list": "user_list               user[,user,...]",
    "obj_nm": 'obj_nm                  "queue"|"exechost"|"pe"|"ckpt"|"hostgroup"|"resource_quota"',
    "attr_nm": "attr_nm                 (see man pages)",
    "obj_id_list": "obj_id_list             objectname [ objectname ...]",
    "project_list": "project_list            project[,project,...]",
    "evid_list": "evid_list               all | evid[,evid,...]",
    "host_list": "host_list               all | hostname[,hostname,...]",
    "obj_nm2": 'obj_nm2                 "queue"|"queue_domain"|"queue_instance"|"exechost"',
    "obj_nm3": 'obj_nm3                 "queue"',
    "thread_name": 'thread_name             "scheduler"|"jvm"',
}

_OBJ = ("obj_nm", "attr_nm", "obj_id_list")
_USERS = ("user_list",)
_USERSETS = ("user_list", "listname_list")
_TREE = ("node_list", "node_path")
_SHARES = ("node_shares_list", "node_path")
_RQS = ("rqs_list",)

# (switch, option, text, arguments marked), in the order sge_usage() prints them
_OPTIONS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "-aattr",
        "[-aattr obj_nm attr_nm val obj_id_list]",
        "add to a list attribute of an object",
        _OBJ,
    ),
    ("-Aattr", "[-Aattr obj_nm fname obj_id_list]", "add to a list attribute of an object", _OBJ),
    ("-acal", "[-acal calendar_name]", "add a new calendar", ()),
    ("-Acal", "[-Acal fname]", "add a new calendar from file", ()),
    ("-ackpt", "[-ackpt ckpt_name]", "add a ckpt interface definition", ()),
    ("-Ackpt", "[-Ackpt fname]", "add a ckpt interface definition from file", ()),
    ("-aconf", "[-aconf host_list]", "add configurations", ()),
    ("-Aconf", "[-Aconf file_list]", "add configurations from file_list", ()),
    ("-ae", "[-ae [exec_server_template]]", "add an exec host using a template", ()),
    ("-Ae", "[-Ae fname]", "add an exec host from file", ()),
    ("-ah", "[-ah hostname_list]", "add an administrative host", ("hostname_list",)),
    ("-ahgrp", "[-ahgrp group]", "add new host group entry", ()),
    ("-Ahgrp", "[-Ahgrp file]", "add new host group entry from file", ()),
    ("-arqs", "[-arqs [rqs_list]]", "add resource quota set(s)", _RQS),
    ("-Arqs", "[-Arqs fname]", "add resource quota set(s) from file", _RQS),
    ("-am", "[-am user_list]", "add user to manager list", _USERS),
    ("-ao", "[-ao user_list]", "add user to operator list", _USERS),
    ("-ap", "[-ap pe-name]", "add a new parallel environment", ()),
    ("-Ap", "[-Ap fname]", "add a new parallel environment from file", ()),
    ("-aprj", "[-aprj]", "add project", ()),
    ("-Aprj", "[-Aprj fname]", "add project from file", ()),
    ("-aq", "[-aq [queue_name]]", "add a new cluster queue", ()),
    ("-Aq", "[-Aq fname]", "add a queue from file", ()),
    ("-as", "[-as hostname_list]", "add a submit host", ("hostname_list",)),
    ("-astnode", "[-astnode node_shares_list]", "add sharetree node(s)", _SHARES),
    ("-astree", "[-astree]", "create/modify the sharetree", ()),
    ("-Astree", "[-Astree fname]", "create/modify the sharetree from file", ()),
    ("-at", "[-at thread_name]", "add/start qmaster thread", ("thread_name",)),
    ("-au", "[-au user_list listname_list]", "add user(s) to userset list(s)", _USERSETS),
    ("-Au", "[-Au fname]", "add userset from file", ()),
    ("-auser", "[-auser]", "add user", ()),
    ("-Auser", "[-Auser fname]", "add user from file", ()),
    ("-clearusage", "[-clearusage]", "clear all user/project sharetree usage", ()),
    ("-cq", "[-cq destin_id_list]", "clean queue", ("destin_id_list",)),
    (
        "-dattr",
        "[-dattr obj_nm attr_nm val obj_id_list]",
        "delete from a list attribute of an object",
        _OBJ,
    ),
    (
        "-Dattr",
        "[-Dattr obj_nm fname obj_id_list]",
        "delete from a list attribute of an object",
        _OBJ,
    ),
    ("-dcal", "[-dcal calendar_name]", "delete calendar", ()),
    ("-dckpt", "[-dckpt ckpt_name]", "delete ckpt interface definition", ()),
    ("-dconf", "[-dconf host_list]", "delete local configurations", ()),
    ("-de", "[-de host_list]", "delete exec host", ()),
    ("-dh", "[-dh host_list]", "delete administrative host", ()),
    ("-dhgrp", "[-dhgrp group]", "delete host group entry", ()),
    ("-drqs", "[-drqs rqs_list]", "delete resource quota set(s)", _RQS),
    ("-dm", "[-dm user_list]", "delete user from manager list", _USERS),
    ("-do", "[-do user_list]", "delete user from operator list", _USERS),
    ("-dp", "[-dp pe-name]", "delete parallel environment", ()),
    ("-dprj", "[-dprj project_list]", "delete project", ("project_list",)),
    ("-dq", "[-dq destin_id_list]", "delete queue", ("destin_id_list",)),
    ("-ds", "[-ds host_list]", "delete submit host", ()),
    ("-dstnode", "[-dstnode node_list]", "delete sharetree node(s)", _TREE),
    ("-dstree", "[-dstree]", "delete the sharetree", ()),
    ("-du", "[-du user_list listname_list]", "delete user(s) from userset list(s)", _USERSETS),
    ("-dul", "[-dul listname_list]", "delete userset list(s) completely", ("listname_list",)),
    ("-duser", "[-duser user_list]", "delete user(s)", _USERS),
    ("-help", "[-help]", "print this help", ()),
    ("-ke", "[-ke[j] host_list", "shutdown execution daemon(s)", ("host_list",)),
    ("-km", "[-k{m|s}]", "shutdown master|scheduling daemon", ()),
    ("-kec", "[-kec evid_list]", "kill event client", ("evid_list",)),
    ("-kt", "[-kt thread_name]", "kill qmaster thread", ("thread_name",)),
    (
        "-mattr",
        "[-mattr obj_nm attr_nm val obj_id_list]",
        "modify an attribute (or element in a sublist) of an object",
        _OBJ,
    ),
    (
        "-Mattr",
        "[-Mattr obj_nm fname obj_id_list]",
        "modify an attribute (or element in a sublist) of an object",
        _OBJ,
    ),
    ("-mc", "[-mc ]", "modify complex attributes", ()),
    ("-mckpt", "[-mckpt ckpt_name]", "modify a ckpt interface definition", ()),
    ("-Mc", "[-Mc fname]", "modify complex attributes from file", ()),
    ("-mcal", "[-mcal calendar_name]", "modify calendar", ()),
    ("-Mcal", "[-Mcal fname]", "modify calendar from file", ()),
    ("-Mckpt", "[-Mckpt fname]", "modify a ckpt interface definition from file", ()),
    ("-mconf", "[-mconf [host_list|global]]", "modify configurations", ()),
    ("-Mconf", "[-Mconf file_list]", "modify configurations from file_list", ()),
    ("-me", "[-me server]", "modify exec server", ()),
    ("-Me", "[-Me fname]", "modify exec server from file", ()),
    ("-mhgrp", "[-mhgrp group]", "modify host group entry", ()),
    ("-Mhgrp", "[-Mhgrp file]", "modify host group entry from file", ()),
    ("-mrqs", "[-mrqs [rqs_list]]", "modify resource quota set(s)", _RQS),
    ("-Mrqs", "[-Mrqs fname [rqs_list]]", "modify resource quota set(s) from file", _RQS),
    ("-mp", "[-mp pe-name]", "modify a parallel environment", ()),
    ("-Mp", "[-Mp fname]", "modify a parallel environment from file", ()),
    ("-mprj", "[-mprj project]", "modify a project", ()),
    ("-Mprj", "[-Mprj fname]", "modify project from file", ()),
    ("-mq", "[-mq queue]", "modify a queue", ()),
    ("-Mq", "[-Mq fname]", "modify a queue from file", ()),
    ("-msconf", "[-msconf]", "modify scheduler configuration", ()),
    ("-Msconf", "[-Msconf fname]", "modify scheduler configuration from file", ()),
    ("-mstnode", "[-mstnode node_shares_list]", "modify sharetree node(s)", _SHARES),
    ("-Mstree", "[-Mstree fname]", "modify/create the sharetree from file", ()),
    ("-mstree", "[-mstree]", "modify/create the sharetree", ()),
    ("-mu", "[-mu listname_list]", "modify the given userset list", ("listname_list",)),
    ("-Mu", "[-Mu fname]", "modify userset from file", ()),
    ("-muser", "[-muser user]", "modify a user", ()),
    ("-Muser", "[-Muser fname]", "modify a user from file", ()),
    (
        "-purge",
        "[-purge obj_nm3 attr_nm objectname]",
        "deletes attribute from object_instance",
        ("obj_nm3",),
    ),
    (
        "-rattr",
        "[-rattr obj_nm attr_nm val obj_id_list]",
        "replace a list attribute of an object",
        _OBJ,
    ),
    ("-Rattr", "[-Rattr obj_nm fname obj_id_list]", "replace a list attribute of an object", _OBJ),
    ("-sc", "[-sc]", "show complex attributes", ("complex_list",)),
    ("-scal", "[-scal calendar_name]", "show given calendar", ()),
    ("-scall", "[-scall]", "show a list of all calendar names", ()),
    ("-sckpt", "[-sckpt ckpt_name]", "show ckpt interface definition", ()),
    ("-sckptl", "[-sckptl]", "show all ckpt interface definitions", ()),
    ("-sconf", "[-sconf [host_list|global]]", "show configurations", ()),
    ("-sconfl", "[-sconfl]", "show a list of all local configurations", ()),
    ("-se", "[-se server]", "show given exec server", ()),
    ("-secl", "[-secl]", "show event client list", ()),
    ("-sel", "[-sel]", "show a list of all exec servers", ()),
    ("-sep", "[-sep]", "show a list of all licensed processors", ()),
    ("-sh", "[-sh]", "show a list of all administrative hosts", ()),
    ("-shgrp", "[-shgrp group]", "show host group", ()),
    ("-shgrp_tree", "[-shgrp_tree group]", "show host group and used hostgroups as tree", ()),
    ("-shgrp_resolved", "[-shgrp_resolved group]", "show host group with resolved hostlist", ()),
    ("-shgrpl", "[-shgrpl]", "show host group list", ()),
    ("-sds", "[-sds]", "show detached settings", ()),
    ("-srqs", "[-srqs [rqs_list]]", "show resource quota set(s)", _RQS),
    ("-srqsl", "[-srqsl]", "show resource quota set list", _RQS),
    ("-sm", "[-sm]", "show a list of all managers", ()),
    ("-so", "[-so]", "show a list of all operators", ()),
    (
        "-sobjl",
        "[-sobjl obj_nm2 attr_nm val]",
        "show objects which match the given value",
        ("obj_nm2", "attr_nm"),
    ),
    ("-sp", "[-sp pe-name]", "show a parallel environment", ()),
    ("-spl", "[-spl]", "show all parallel environments", ()),
    ("-sprj", "[-sprj project]", "show a project", ()),
    ("-sprjl", "[-sprjl]", "show a list of all projects", ()),
    ("-sq", "[-sq [destin_id_list]]", "show the given queue", ("destin_id_list",)),
    ("-sql", "[-sql]", "show a list of all queues", ()),
    ("-ss", "[-ss]", "show a list of all submit hosts", ()),
    ("-sss", "[-sss]", "show scheduler state", ()),
    ("-ssconf", "[-ssconf]", "show scheduler configuration", ()),
    ("-sstnode", "[-sstnode node_list]", "show sharetree node(s)", _TREE),
    ("-rsstnode", "[-rsstnode node_list]", "show sharetree node(s) and its children", _TREE),
    ("-sst", "[-sst]", "show a formated sharetree", ()),
    ("-sstree", "[-sstree]", "show the sharetree", ()),
    ("-su", "[-su listname_list]", "show the given userset list", ("listname_list",)),
    ("-suser", "[-suser user_list]", "show user(s)", _USERS),
    ("-sul", "[-sul]", "show a list of all userset lists", ()),
    ("-suserl", "[-suserl]", "show a list of all users", ()),
    ("-tsm", "[-tsm]", "trigger scheduler monitoring", ()),
)


def qconf_usage(accepted: Collection[str]) -> str:
    """Grid Engine's qconf usage for the switches in ``accepted`` (``-help`` always)."""
    lines = ["usage: qconf [options]"]
    marked: set[str] = set()
    for switch, option, text, arguments in _OPTIONS:
        if switch in accepted or switch == "-help":
            lines.append(f"   {option:<40.40} {text}")
            marked.update(arguments)
    lines.append("")
    lines.extend(syntax for name, syntax in _ARGUMENTS.items() if name in marked)
    return "\n".join(lines) + "\n"
