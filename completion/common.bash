# SPDX-License-Identifier: GPL-2.0-only
# What the four completions share; make appends it to each generated
# completion (dist/module.mk), which bash-completion loads on its own.
# shellcheck shell=bash

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
		# shellcheck disable=SC2053 # FILTER is a glob
		if [[ -d $f ]] || [[ -z ${2-} ]] || [[ $f == ${2} ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$cur")
}
