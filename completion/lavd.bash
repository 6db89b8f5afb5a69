# SPDX-License-Identifier: GPL-2.0-only
# bash completion for lavd(8)                            -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# Options come from the program's own --help.

_lavd()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--topology|--power-profile-file|--eevdf-state)
		_gamesched_files "$cur"
		return ;;
	--sysfs-root)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--debug-preempt-kick)
		COMPREPLY=($(compgen -W 'auto never always' -- "$cur"))
		return ;;
	--eevdf-scope)
		COMPREPLY=($(compgen -W 'user all' -- "$cur"))
		return ;;
	--eevdf-levers)
		COMPREPLY=($(compgen -W 'nice,slice,bg,uclamp nice,slice nice,slice,bg nice,slice,fifo,bg none' -- "$cur"))
		return ;;
	--debug-futex-path)
		COMPREPLY=($(compgen -W 'fexit tracepoint' -- "$cur"))
		return ;;
	--slice-min-us|--slice-max-us|--preempt-shift|--pinned-slice-us|--greedy-slice-us|--stats|\
	--monitor|--monitor-sched-samples|--watchdog-ms|--debug-stall-after|\
	--eevdf-period-ms|--eevdf-nice|--eevdf-bg-nice|--eevdf-slice-us|--eevdf-uclamp-min)
		return ;;
	esac
	COMPREPLY=($(compgen -W "$(_gamesched_options "${COMP_WORDS[0]}")" -- "$cur"))
}
complete -F _lavd lavd
