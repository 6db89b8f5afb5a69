# SPDX-License-Identifier: GPL-2.0-only
# bash completion for frametrace(1)                      -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# shellcheck disable=SC2154 # _gamesched_opts_*: make splices them in below
# Commands; each command's options and their values from its option table
# (make puts `frametrace CMD --dump-options=bash` where the OPTION TABLES
# line is), or its --help; after "--" (record, watch) the command to run.

_frametrace()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd=${COMP_WORDS[1]} i opts
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
	--feed-pid)
		# the running framebench instances: /dev/shm/framebench.PID
		local feeds=(/dev/shm/framebench.*)
		[[ -e ${feeds[0]} ]] &&
			COMPREPLY=($(compgen -W "${feeds[*]##*/framebench.}" -- "$cur"))
		return ;;
	esac
	# the commands with an option table; info and trigger: their --help
	if declare -F "_gamesched_value_frametrace_$cmd" >/dev/null; then
		"_gamesched_value_frametrace_$cmd" "$prev" "$cur" && return
		opts=_gamesched_opts_frametrace_$cmd
		opts=${!opts}
	else
		opts=$(_gamesched_options "${COMP_WORDS[0]}" "$cmd")
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
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
# @OPTION TABLES@
complete -F _frametrace frametrace
