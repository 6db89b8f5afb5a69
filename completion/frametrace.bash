# SPDX-License-Identifier: GPL-2.0-only
# bash completion for frametrace(1)                      -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# Commands, and each command's options from its own --help; after "--"
# (record, watch) the command to run.

_frametrace()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd=${COMP_WORDS[1]} i
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W 'record watch trigger import report export info profile compare --help --version' -- "$cur"))
		return
	fi
	# record/watch -- CMD ARG...: complete the command
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			elif [[ $((i + 1)) -eq $COMP_CWORD ]]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				_gamesched_files "$cur"
			fi
			return
		fi
	done
	case $prev in
	-o|--output|--dir)
		if [[ $cmd == watch ]]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		else
			_gamesched_files "$cur"
		fi
		return ;;
	--html|--dot|--perfetto|--mangohud)
		_gamesched_files "$cur"
		return ;;
	--feed-dir)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--feed-pid)
		# the running framebench instances: /dev/shm/framebench.PID
		local feeds=(/dev/shm/framebench.*)
		[[ -e ${feeds[0]} ]] &&
			COMPREPLY=($(compgen -W "${feeds[*]##*/framebench.}" -- "$cur"))
		return ;;
	--frames-from)
		COMPREPLY=($(compgen -W 'feed markers mangohud auto' -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W 'perf ftrace mangohud' -- "$cur"))
		return ;;
	-d|--duration|--buffer-mb|--drain-ms|--pre|--post|--frame-ms|--frame-factor|\
	--min-frames|--wakelat|--wakelat-comm|--min-gap|--max-captures|--max-disk|\
	--ring-slots|--top|--slow-ms|--explain|--pid|--max-flows|--frames|--name|\
	--step-cost|--pid-a|--pid-b)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gamesched_options "${COMP_WORDS[0]}" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	info) _gamesched_files "$cur" '*.ftr' ;;
	report|export|import|profile|compare) _gamesched_files "$cur" ;;
	trigger)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -F _frametrace frametrace
