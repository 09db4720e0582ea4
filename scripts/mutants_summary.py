"""Kill rate of a mutmut run (run in the package's working copy, .mutants/<name>/)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

package = sys.argv[1]
by_file: dict[str, Counter[str]] = {}
for meta in sorted(Path("mutants").joinpath(package).rglob("*.py.meta")):
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    counts = by_file.setdefault(str(meta.relative_to("mutants"))[: -len(".meta")], Counter())
    for code in codes.values():
        counts[status_by_exit_code[code]] += 1
total: Counter[str] = Counter()
for name, counts in by_file.items():
    total.update(counts)
    # A mutant in code no selected test runs is not killed: it counts against the rate.
    tested = counts["killed"] + counts["survived"] + counts["timeout"] + counts["no tests"]
    rate = 100 * (counts["killed"] + counts["timeout"]) / tested if tested else 0.0
    print(f"  {name:<45} {tested:5d} mutants  {rate:5.1f} % killed  {counts['survived']:4d} survived"
          f"  {counts['no tests']:4d} not covered")
tested = total["killed"] + total["survived"] + total["timeout"] + total["no tests"]
killed = total["killed"] + total["timeout"]
print(f"{package}: {killed}/{tested} killed = {100 * killed / tested if tested else 0:.1f} %"
      f" ({total['survived']} survived, {total['timeout']} timeouts counted as killed,"
      f" {total['no tests']} in code no selected test runs, counted as survivors,"
      f" {total['not checked']} not checked)")
