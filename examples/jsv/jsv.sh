#!/bin/sh
# A template JSV for minige (works as a client JSV with qsub -jsv and as the
# server JSV in jsv_url). Copy it, then edit jsv_on_start and jsv_on_verify.
#
# As shipped it enforces two site rules:
#   - a job without a run-time limit gets h_rt=$JSV_DEFAULT_H_RT (default 1:0:0);
#   - parallel jobs may ask for at most $JSV_MAX_SLOTS slots (default 16).

. "`dirname "$0"`/jsv_include.sh"

jsv_on_start()
{
   return
}

jsv_on_verify()
{
   max_slots=${JSV_MAX_SLOTS:-16}
   if [ "`jsv_is_param pe_name`" = true ]; then
      if [ "`jsv_get_param pe_max`" -gt "$max_slots" ]; then
         jsv_reject "parallel jobs may use at most $max_slots slots"
         return
      fi
   fi
   if [ "`jsv_sub_is_param l_hard h_rt`" = false ]; then
      jsv_sub_add_param l_hard h_rt "${JSV_DEFAULT_H_RT:-1:0:0}"
      jsv_correct "h_rt set to the site default"
      return
   fi
   jsv_accept
}

jsv_main
