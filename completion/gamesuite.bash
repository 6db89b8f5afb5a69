# SPDX-License-Identifier: GPL-2.0-only
# bash completion for gamesuite(1)                       -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# Options come from the program's own --help; SUITE from the shipped suites
# in @PKGDATADIR@/suites (make install fills the path in) and *.suite
# files; --only from the workloads of the suite on the command line.

_gamesuite()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local datadir=${GAMESCHED_DATADIR:-@PKGDATADIR@}
	local i w suite=
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W 'run check tune --help --version' -- "$cur"))
		return
	fi
	# the SUITE: the first word after the command that is neither an
	# option nor an option's value
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--dry-run|-q|--quiet|-h|--help|--version) ;;
		-*) ((i++)) ;;
		*) suite=$w; break ;;
		esac
	done
	case $prev in
	--sched)
		COMPREPLY=($(compgen -W 'eevdf default lavd' -- "$cur")
			$(compgen -c -- "${cur:-scx_}" | grep '^scx_'))
		return ;;
	--order)
		COMPREPLY=($(compgen -W 'interleaved rotate' -- "$cur"))
		return ;;
	--disturbed)
		COMPREPLY=($(compgen -W 'repeat keep' -- "$cur"))
		return ;;
	--only)
		if [[ -n $suite && ! -f $suite ]]; then
			for w in "$datadir/suites/$suite" "$datadir/suites/$suite.suite"; do
				[[ -f $w ]] && { suite=$w; break; }
			done
		fi
		[[ -f $suite ]] && COMPREPLY=($(compgen -W \
			"$(awk '$1 == "workload" { print $2 }' "$suite" 2>/dev/null)" -- "$cur"))
		return ;;
	--json|--html)
		_gamesched_files "$cur"
		return ;;
	--workdir|--sched-ext-root)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--label|--ops|--repeat|--warmup|--cooldown|--duration|--load-timeout|\
	--stop-timeout|--max-other-cpu|--max-busy|--settle|--probe-factor|\
	--retries|--confidence|--bootstrap)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gamesched_options "${COMP_WORDS[0]}" run)" -- "$cur"))
	elif [[ -z $suite ]]; then
		local names=
		for w in "$datadir"/suites/*.suite; do
			[[ -f $w ]] && { w=${w##*/}; names="$names ${w%.suite}"; }
		done
		COMPREPLY=($(compgen -W "$names" -- "$cur"))
		_gamesched_files "$cur" '*.suite'
	fi
}
complete -F _gamesuite gamesuite
