#!/bin/sh
# minige JSV library for Bourne-shell JSV scripts (protocol 1.0).
#
# Source this file, define jsv_on_start() and jsv_on_verify(), then call
# jsv_main. The function names and behaviour match the interface of the
# Grid Engine 6.2 shell library, so existing JSV scripts keep working.
# This is an independent implementation written for minige.
#
# Parameters of the job being verified live in variables jsv_param_<name>,
# environment variables (after jsv_send_env) in jsv_env_<name>.

__jsv_state="initialized"
__jsv_params=""
__jsv_envs=""
__jsv_want_env="false"

jsv_send_command()
{
   printf '%s\n' "$*"
}

__jsv_valid_name()
{
   case "$1" in
      ""|*[!A-Za-z0-9_]*) return 1 ;;
   esac
   return 0
}

jsv_clear_params()
{
   for __jsv_n in $__jsv_params; do
      unset "jsv_param_$__jsv_n"
   done
   __jsv_params=""
}

jsv_clear_envs()
{
   for __jsv_n in $__jsv_envs; do
      unset "jsv_env_$__jsv_n"
   done
   __jsv_envs=""
}

jsv_is_param()
{
   __jsv_valid_name "$1" || { echo false; return; }
   eval "__jsv_set=\${jsv_param_$1+true}"
   if [ "$__jsv_set" = true ]; then echo true; else echo false; fi
}

jsv_get_param()
{
   __jsv_valid_name "$1" || return
   eval "printf '%s\n' \"\${jsv_param_$1}\""
}

jsv_set_param()
{
   __jsv_valid_name "$1" || return
   eval "jsv_param_$1=\$2"
   __jsv_params="$__jsv_params $1"
   jsv_send_command PARAM "$1" "$2"
}

jsv_del_param()
{
   __jsv_valid_name "$1" || return
   if [ "`jsv_is_param "$1"`" = true ]; then
      unset "jsv_param_$1"
      jsv_send_command PARAM "$1" ""
   fi
}

# jsv_sub_is_param list_param name -> true|false
jsv_sub_is_param()
{
   __jsv_list=`jsv_get_param "$1"`
   __jsv_found=false
   __jsv_old_ifs=$IFS; IFS=","
   for __jsv_e in $__jsv_list; do
      if [ "${__jsv_e%%=*}" = "$2" ]; then __jsv_found=true; break; fi
   done
   IFS=$__jsv_old_ifs
   echo $__jsv_found
}

# jsv_sub_get_param list_param name -> value ("" when it has none)
jsv_sub_get_param()
{
   __jsv_list=`jsv_get_param "$1"`
   __jsv_old_ifs=$IFS; IFS=","
   for __jsv_e in $__jsv_list; do
      if [ "${__jsv_e%%=*}" = "$2" ]; then
         case "$__jsv_e" in *=*) printf '%s\n' "${__jsv_e#*=}" ;; esac
         break
      fi
   done
   IFS=$__jsv_old_ifs
}

# jsv_sub_add_param list_param name [value]: add or replace one element
jsv_sub_add_param()
{
   __jsv_list=`jsv_get_param "$1"`
   if [ -n "$3" ]; then __jsv_item="$2=$3"; else __jsv_item="$2"; fi
   __jsv_new=""; __jsv_done=false
   __jsv_old_ifs=$IFS; IFS=","
   for __jsv_e in $__jsv_list; do
      if [ "${__jsv_e%%=*}" = "$2" ]; then __jsv_e=$__jsv_item; __jsv_done=true; fi
      __jsv_new="${__jsv_new:+$__jsv_new,}$__jsv_e"
   done
   IFS=$__jsv_old_ifs
   if [ $__jsv_done = false ]; then __jsv_new="${__jsv_new:+$__jsv_new,}$__jsv_item"; fi
   jsv_set_param "$1" "$__jsv_new"
}

# jsv_sub_del_param list_param name: drop one element
jsv_sub_del_param()
{
   [ "`jsv_is_param "$1"`" = true ] || return
   __jsv_list=`jsv_get_param "$1"`
   __jsv_new=""
   __jsv_old_ifs=$IFS; IFS=","
   for __jsv_e in $__jsv_list; do
      if [ "${__jsv_e%%=*}" != "$2" ]; then __jsv_new="${__jsv_new:+$__jsv_new,}$__jsv_e"; fi
   done
   IFS=$__jsv_old_ifs
   jsv_set_param "$1" "$__jsv_new"
}

jsv_send_env()
{
   __jsv_want_env="true"
}

jsv_is_env()
{
   __jsv_valid_name "$1" || { echo false; return; }
   eval "__jsv_set=\${jsv_env_$1+true}"
   if [ "$__jsv_set" = true ]; then echo true; else echo false; fi
}

jsv_get_env()
{
   __jsv_valid_name "$1" || return
   eval "printf '%s\n' \"\${jsv_env_$1}\""
}

jsv_add_env()
{
   __jsv_valid_name "$1" || return
   eval "jsv_env_$1=\$2"
   __jsv_envs="$__jsv_envs $1"
   jsv_send_command ENV ADD "$1" "$2"
}

jsv_mod_env()
{
   __jsv_valid_name "$1" || return
   eval "jsv_env_$1=\$2"
   __jsv_envs="$__jsv_envs $1"
   jsv_send_command ENV MOD "$1" "$2"
}

jsv_del_env()
{
   __jsv_valid_name "$1" || return
   unset "jsv_env_$1"
   jsv_send_command ENV DEL "$1"
}

__jsv_result()
{
   if [ "$__jsv_state" = "verifying" ]; then
      jsv_send_command RESULT STATE "$@"
      __jsv_state="initialized"
   else
      jsv_send_command ERROR "JSV script will send RESULT command but is in state $__jsv_state"
   fi
}

jsv_accept()      { __jsv_result ACCEPT "$@"; }
jsv_correct()     { __jsv_result CORRECT "$@"; }
jsv_reject()      { __jsv_result REJECT "$@"; }
jsv_reject_wait() { __jsv_result REJECT_WAIT "$@"; }

jsv_log_info()    { jsv_send_command LOG INFO "$*"; }
jsv_log_warning() { jsv_send_command LOG WARNING "$*"; }
jsv_log_error()   { jsv_send_command LOG ERROR "$*"; }

jsv_show_params()
{
   for __jsv_n in $__jsv_params; do
      jsv_log_info "got param $__jsv_n=`jsv_get_param $__jsv_n`"
   done
}

jsv_show_envs()
{
   for __jsv_n in $__jsv_envs; do
      jsv_log_info "got env $__jsv_n=`jsv_get_env $__jsv_n`"
   done
}

__jsv_on_line()
{
   case "$1" in
   START)
      if [ "$__jsv_state" != "initialized" ]; then
         jsv_send_command ERROR "JSV script got START command but is in state $__jsv_state"
         return
      fi
      jsv_clear_params; jsv_clear_envs; __jsv_want_env="false"
      jsv_on_start
      if [ "$__jsv_want_env" = true ]; then jsv_send_command SEND ENV; fi
      jsv_send_command STARTED
      __jsv_state="started" ;;
   PARAM)
      if __jsv_valid_name "$2"; then
         eval "jsv_param_$2=\$3"
         __jsv_params="$__jsv_params $2"
      fi ;;
   ENV)
      __jsv_name=${3%% *}
      __jsv_value=""
      case "$3" in *" "*) __jsv_value=${3#* } ;; esac
      if [ "$2" = ADD ] && __jsv_valid_name "$__jsv_name"; then
         eval "jsv_env_$__jsv_name=\$__jsv_value"
         __jsv_envs="$__jsv_envs $__jsv_name"
      fi ;;
   BEGIN)
      if [ "$__jsv_state" != "started" ]; then
         jsv_send_command ERROR "JSV script got BEGIN command but is in state $__jsv_state"
         return
      fi
      __jsv_state="verifying"
      jsv_on_verify
      if [ "$__jsv_state" = "verifying" ]; then jsv_accept; fi ;;
   QUIT)
      exit 0 ;;
   "")
      ;;
   *)
      jsv_send_command ERROR "JSV script got unknown command \"$1\"" ;;
   esac
}

jsv_main()
{
   while IFS= read -r __jsv_line; do
      __jsv_cmd=${__jsv_line%% *}
      __jsv_rest=""
      case "$__jsv_line" in *" "*) __jsv_rest=${__jsv_line#* } ;; esac
      __jsv_arg=${__jsv_rest%% *}
      __jsv_tail=""
      case "$__jsv_rest" in *" "*) __jsv_tail=${__jsv_rest#* } ;; esac
      __jsv_on_line "$__jsv_cmd" "$__jsv_arg" "$__jsv_tail"
   done
}
