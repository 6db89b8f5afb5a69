# SPDX-License-Identifier: GPL-2.0-only
# bash completion for framebench(1)                      -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# shellcheck disable=SC2154 # _gamesched_opts_*: make splices them in below
# Options and their values come from the program's option table (make
# puts `framebench --dump-options=bash` where the OPTION TABLES line is),
# profile names from --list-profiles, so they cannot fall behind the
# program.

_framebench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local prog=${COMP_WORDS[0]}
	COMPREPLY=()
	case $prev in
	-p|--profile)
		COMPREPLY=($(compgen -W "$("$prog" --list-profiles 2>/dev/null |
			sed -n 's/^\([a-z][a-z0-9_-]*\) .*/\1/p')" -- "$cur"))
		_gamesched_files "$cur" '*.profile'
		return ;;
	esac
	_gamesched_value_framebench "$prev" "$cur" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_gamesched_opts_framebench" -- "$cur"))
	fi
}
# @OPTION TABLES@
complete -F _framebench framebench
