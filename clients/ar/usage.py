"""Usage texts of qrsub, qrstat and qrdel."""

from __future__ import annotations

QRSUB_USAGE = """\
usage: qrsub [options]
   [-a date_time]                           request a start time
   [-A account_string]                      account string in accounting record
   [-ckpt ckpt-name]                        reserve in queues with this checkpoint method
   [-d time]                                duration of the reservation
   [-e date_time]                           request an end time
   [-he y[es]|n[o]]                         hard error handling
   [-help]                                  print this help
   [-l resource_list]                       request the given resources
   [-m mail_options]                        define mail notification events
   [-masterq wc_queue_list]                 reserve the master task's queue(s)
   [-now y[es]|n[o]]                        reserve in interactive queues only
   [-M mail_list]                           notify these e-mail addresses
   [-N name]                                specify the reservation's name
   [-w e|v]                                 validate (error|verify)
   [-pe pe-name slot_range]                 reserve a slot range for parallel jobs
   [-q wc_queue_list]                       reserve in these queue(s)
   [-u wc_user_list]                        users allowed to use the reservation

date_time                [[CC]YY]MMDDhhmm[.SS]
time                     seconds or [[hours:]minutes:]seconds
"""

QRSTAT_USAGE = """\
usage: qrstat [options]
   [-ar ar_id_list]                         show advance reservation information
   [-explain]                               show the reasons for error states
   [-fmt plain|json|xml]                    output format
   [-help]                                  print this help
   [-json]                                  display the information as a JSON document
   [-u user_list]                           view only advance reservations of these users
   [-xml]                                   display the information in XML format

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
