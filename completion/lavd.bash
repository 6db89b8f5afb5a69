# SPDX-License-Identifier: GPL-2.0-only
# bash completion for lavd(8)                            -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# shellcheck disable=SC2154 # _gamesched_opts_*: make splices them in below
# Options and their values come from the program's option table (make
# puts `lavd --dump-options=bash` where the OPTION TABLES line is).

_lavd()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--eevdf-levers)
		COMPREPLY=($(compgen -W 'nice,slice,bg,uclamp nice,slice nice,slice,bg nice,slice,fifo,bg none' -- "$cur"))
		return ;;
	esac
	_gamesched_value_lavd "$prev" "$cur" && return
	COMPREPLY=($(compgen -W "$_gamesched_opts_lavd" -- "$cur"))
}
# @OPTION TABLES@
complete -F _lavd lavd
