"""Usage texts of qrsub, qrstat and qrdel (Grid Engine's ``%-40.40s %s`` option lines)."""

from __future__ import annotations

QRSUB_USAGE = """\
usage: qrsub [options]
   [-a date_time]                           request a start time
   [-A account_string]                      account string in accounting record
   [-ckpt ckpt-name]                        request checkpoint method
   [-d time]                                duration of time window
   [-e date_time]                           request an end time
   [-he  y[es]|n[o]]                        enable/disable hard error handling
   [-help]                                  print this help
   [-l resource_list]                       request the given resources
   [-m mail_options]                        define mail notification events
   [-masterq wc_queue_list]                 bind master task to queue(s)
   [-now y[es]|n[o]]                        start job immediately or not at all
   [-M mail_list]                           notify these e-mail addresses
   [-N name]                                specify job name
   [-w e|v]                                 validate availability of AR request (error|verify) for jobs
   [-pe pe-name slot_range]                 request slot range for parallel jobs
   [-q wc_queue_list]                       bind job to queue(s)
   [-u wc_user_list]                        users allowed to use the reservation

date_time                [[CC]YY]MMDDhhmm[.SS]
time                     seconds or [[hours:]minutes:]seconds
"""

QRSTAT_USAGE = """\
usage: qrstat [options]
   [-ar ar_id_list]                         show advance reservation information
   [-explain]                               show reason for error state
   [-fmt plain|json|xml]                    output format
   [-help]                                  print this help
   [-json]                                  display the information as a JSON document
   [-u user_list]                           all advance reservations of users specified in list
   [-xml]                                   display the information in XML-Format

ar_id_list               ar_id[,ar_id,...]
user_list                user|pattern|'*'|$user[,...]
"""

QRDEL_USAGE = """\
usage: qrdel [options] ar_list
   [-f|--force]                             force action
   [-help]                                  print this help
   [-u user_list]                           delete all advance reservations of these users

ar_list                  ar_id|ar_name|pattern[,ar_id|ar_name|pattern,...]
user_list                user|pattern[,user|pattern,...]
"""
