#!/usr/bin/env bash
# Mutation testing of one or more domain packages with mutmut (not part of `make test`: slow).
#   scripts/mutants.sh [PACKAGE ...]      e.g. domain/games/ugolki domain/core
#   MUTANTS='domain.games.ugolki.decide.*' scripts/mutants.sh domain/games/ugolki   (some mutants only)
#   MUTANTS_SAMPLE=300 scripts/mutants.sh domain/games/king     (a uniform random sample, seed MUTANTS_SEED)
#   MUTANTS_SAMPLE=300 MUTANTS_RECHECK=1 scripts/mutants.sh ... (only that sample's survivors, again)
# Each package is mutated in its own working copy under .mutants/<name>/ (kept between runs, so a
# second run re-tests only the mutants of functions that changed) against the unit, golden and
# property tests of that package.  Prints the kill rate per package; the survivors are listed by
# `cd .mutants/<name> && ../../.venv/bin/mutmut results`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MUTMUT=$ROOT/.venv/bin/mutmut
[ $# -gt 0 ] || set -- domain/games/ugolki domain/games/kings_corner domain/games/king domain/games/thousand domain/games/farkle_flip domain/games/kings_cup domain/core
tests_for() {
  case "$1" in
    # The unit tests (mutmut runs, for each mutant, only those that call the mutated function),
    # and for a game its golden logs.  The property tests and the conformance suite (random
    # playouts, seconds to minutes a run, in no fixed order before the unit tests) are left out
    # so that a package's mutants can be run in an hour on two cores.
    domain/games/*) echo "tests/unit tests/golden/$(basename "$1")" ;;
    *) echo "tests/unit" ;;
  esac
}
for pkg in "$@"; do
  name=$(echo "$pkg" | tr / _)
  work=$ROOT/.mutants/$name
  mkdir -p "$work"
  # A fresh copy of the sources and tests (mutmut writes its mutants to $work/mutants/).
  # Every tracked file: some unit tests read docs/, web/ or scripts/.
  top=$(git ls-files | cut -d/ -f1 | sort -u)
  # shellcheck disable=SC2086  # one word per top-level entry
  (cd "$work" && rm -rf $top)
  git ls-files -z | xargs -0 cp --parents -t "$work/"
  # Drop the pytest section's test paths: the selection below names the tests.
  selection=""
  for t in $(tests_for "$pkg"); do [ -e "$t" ] && selection="$selection    $t"$'\n'; done
  {
    echo "[mutmut]"
    echo "source_paths=$pkg/"
    echo "also_copy="
    for entry in $top; do
      case "$entry" in domain|tests) ;; *) [ -d "$entry" ] && echo "    $entry/" || echo "    $entry" ;; esac
    done
    # Everything of domain/ outside the mutated package (copying the package itself would
    # overwrite its mutants).
    "$ROOT/.venv/bin/python" - "$pkg" <<'PY'
import sys
from pathlib import Path
pkg = Path(sys.argv[1])
ancestors = [pkg, *pkg.parents][:-1]  # pkg, ..., domain
for anc in ancestors[1:]:
    for child in sorted(anc.iterdir()):
        if child.name == "__pycache__" or child in ancestors:
            continue
        print(f"    {child}{'/' if child.is_dir() else ''}")
PY
    # Frozen older rules versions (docs/audit.md "Older rules versions") are not mutated.
    # Nor are the sentences shown to players (rules help, end reasons in words: explain.py and
    # words.py), whose string literals are not rules; tests/unit/test_rules_in_words.py and
    # tests/unit/test_end_reasons_in_words.py check them in both languages.
    echo "do_not_mutate="
    echo "    $pkg/v[0-9]*/*"
    echo "    $pkg/explain.py"
    echo "    $pkg/words.py"
    echo "    $pkg/*/words.py"
    echo "pytest_add_cli_args="
    # The command-line tests start `gamehall` in another process and folder, where the mutated
    # code's trampolines find no mutmut configuration; they test the command line, not rules.
    echo "    --ignore=tests/unit/test_cli_data_dir.py"
    echo "    --ignore=tests/unit/test_cli_startup.py"
    echo "    -p"
    echo "    no:cacheprovider"
    echo "    -x"
    echo "    -q"
    echo "pytest_add_cli_args_test_selection="
    printf '%s' "$selection"
  } >"$work/setup.cfg"
  echo "== $pkg: tests $(tests_for "$pkg")"
  names=${MUTANTS:-}
  sample_file=""
  if [ -n "${MUTANTS_SAMPLE:-}" ]; then
    # Generate the mutants and collect which tests call what (the filter matches no mutant, so
    # mutmut stops there), then draw the sample.
    (cd "$work" && nice -n 19 "$MUTMUT" run --max-children "${MUTANTS_CHILDREN:-1}" 'no-such-mutant' >generate.log 2>&1) || true
    sample_file=$work/sample.txt
    (cd "$work" && "$ROOT/.venv/bin/python" "$ROOT/scripts/mutants_sample.py" "$pkg" "$MUTANTS_SAMPLE" "${MUTANTS_SEED:-1}") >"$sample_file"
    names=$(tr '\n' ' ' <"$sample_file")
    echo "   a sample of $(wc -l <"$sample_file") mutants (seed ${MUTANTS_SEED:-1}): $sample_file"
    if [ -n "${MUTANTS_RECHECK:-}" ]; then
      # Only the sample's mutants no run has killed yet (an interrupted run's unchecked ones
      # too), against the tests as they are now.
      names=$(cd "$work" && "$ROOT/.venv/bin/python" "$ROOT/scripts/mutants_sample.py" "$pkg" "$MUTANTS_SAMPLE" "${MUTANTS_SEED:-1}" --survivors | tr '\n' ' ')
      echo "   re-checking the sample's $(echo $names | wc -w) survivors"
      [ -n "$names" ] || { (cd "$work" && "$ROOT/.venv/bin/python" "$ROOT/scripts/mutants_summary.py" "$pkg" "$sample_file"); continue; }
    fi
  fi
  # shellcheck disable=SC2086  # names: globs of mutant names, one word each
  (cd "$work" && nice -n 19 "$MUTMUT" run --max-children "${MUTANTS_CHILDREN:-1}" $names >run.log 2>&1) || {
    echo "mutmut failed for $pkg; see $work/run.log"; tail -20 "$work/run.log"; exit 1; }
  (cd "$work" && "$ROOT/.venv/bin/python" "$ROOT/scripts/mutants_summary.py" "$pkg" $sample_file)
done
