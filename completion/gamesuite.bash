# SPDX-License-Identifier: GPL-2.0-only
# bash completion for gamesuite(1)                       -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no blanks
# shellcheck disable=SC2154 # _gamesched_opts_*: make splices them in below
# Options and their values come from the option tables of run and tune
# (make puts `gamesuite run|tune --dump-options=bash` where the OPTION
# TABLES line is); SUITE from the shipped suites in @PKGDATADIR@/suites
# (make install fills the path in) and *.suite files; --only from the
# workloads of the suite on the command line.

_gamesuite()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local datadir=${GAMESCHED_DATADIR:-@PKGDATADIR@}
	local i w suite='' table=gamesuite_run flags opts
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W 'run check tune --help --version' -- "$cur"))
		return
	fi
	[[ ${COMP_WORDS[1]} == tune ]] && table=gamesuite_tune
	flags=_gamesched_flags_$table opts=_gamesched_opts_$table
	# the SUITE: the first word after the command that is neither an
	# option nor an option's value
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case " ${!flags} " in
		*" $w "*) ;;
		*) case $w in
		   -*) ((i++)) ;;
		   *) suite=$w; break ;;
		   esac ;;
		esac
	done
	case $prev in
	--sched)
		COMPREPLY=($(compgen -W 'eevdf default lavd' -- "$cur")
			$(compgen -c -- "${cur:-scx_}" | grep '^scx_'))
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
	esac
	"_gamesched_value_$table" "$prev" "$cur" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${!opts}" -- "$cur"))
	elif [[ -z $suite ]]; then
		local names=
		for w in "$datadir"/suites/*.suite; do
			[[ -f $w ]] && { w=${w##*/}; names="$names ${w%.suite}"; }
		done
		COMPREPLY=($(compgen -W "$names" -- "$cur"))
		_gamesched_files "$cur" '*.suite'
	fi
}
# @OPTION TABLES@
complete -F _gamesuite gamesuite
