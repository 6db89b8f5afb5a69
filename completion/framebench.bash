# SPDX-License-Identifier: GPL-2.0-only
# bash completion for framebench(1)                      -*- shell-script -*-
# Options come from the program's own --help, profile names from
# --list-profiles, so they cannot fall behind the program.

# Every -x and --name that PROG [ARGS] --help mentions.
_gamesched_options()
{
	"$@" --help 2>/dev/null |
		grep -oE -- '(^|[][ ,(|])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[][ ,(|]//' | sort -u
}

# Files (FILTER: a glob to keep, e.g. '*.profile') and directories.
_gamesched_files()
{
	local cur=$1 f
	compopt -o filenames 2>/dev/null
	while IFS= read -r f; do
		if [[ -d $f ]] || [[ -z ${2-} ]] || [[ $f == ${2} ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$cur")
}

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
	--bg)
		COMPREPLY=($(compgen -W 'hogs compile browser' -- "$cur"))
		return ;;
	--json|--csv)
		_gamesched_files "$cur"
		return ;;
	-d|--duration|-w|--warmup|-s|--seed|--fps|--workers|--calibration|--bg-nice|--nice|--slice-us|--dilate|--disturb)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gamesched_options "$prog")" -- "$cur"))
	fi
}
complete -F _framebench framebench
