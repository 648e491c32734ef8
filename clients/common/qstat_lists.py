"""The argument lists qstat_usage() prints after the options, for qstat and qselect alike
(Grid Engine's qselect is qstat in qselect mode: the same list ends both usages)."""

ARGUMENT_LISTS = """\
job_identifier_list       {job_id|job_name|reg_exp}[,{job_id|job_name|reg_exp},...]
pe_list                   pe[,pe,...]
resource_attributes       resource,resource,...
resource_list             resource[=value][,resource[=value],...]
user_list                 user|pattern[,user|pattern,...]
wc_cqueue                 wildcard expression matching a cluster queue
wc_host                   wildcard expression matching a host
wc_hostgroup              wildcard expression matching a hostgroup
wc_qinstance              wc_cqueue@wc_host
wc_qdomain                wc_cqueue@wc_hostgroup
wc_queue                  wc_cqueue|wc_qdomain|wc_qinstance
wc_queue_list             wc_queue[,wc_queue,...]
"""
