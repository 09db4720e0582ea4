"""Kill rate of a mutmut run (run in the package's working copy, .mutants/<name>/).

    python scripts/mutants_summary.py PACKAGE [SAMPLE_FILE]

With a sample file (one mutant name per line, from scripts/mutants_sample.py) only those mutants
count, and the rate is given with its 95 % Wilson interval as an estimate of the package's.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

package = sys.argv[1]
sample = set(Path(sys.argv[2]).read_text().split()) if len(sys.argv) > 2 else None
by_file: dict[str, Counter[str]] = {}
for meta in sorted(Path("mutants").joinpath(package).rglob("*.py.meta")):
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    counts = by_file.setdefault(str(meta.relative_to("mutants"))[: -len(".meta")], Counter())
    for name, code in codes.items():
        if sample is None or name in sample:
            counts[status_by_exit_code[code]] += 1


def tested_and_killed(counts: Counter[str]) -> tuple[int, int]:
    """A mutant in code no selected test runs is not killed: it counts against the rate."""
    killed = counts["killed"] + counts["timeout"]
    return killed + counts["survived"] + counts["no tests"], killed


def wilson(killed: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (centre - half), 100 * (centre + half)


total: Counter[str] = Counter()
for name, counts in by_file.items():
    if not sum(counts.values()):
        continue
    total.update(counts)
    tested, killed = tested_and_killed(counts)
    rate = 100 * killed / tested if tested else 0.0
    print(f"  {name:<45} {tested:5d} mutants  {rate:5.1f} % killed  {counts['survived']:4d} survived"
          f"  {counts['no tests']:4d} not covered")
tested, killed = tested_and_killed(total)
line = (f"{package}: {killed}/{tested} killed = {100 * killed / tested if tested else 0:.1f} %"
        f" ({total['survived']} survived, {total['timeout']} timeouts counted as killed,"
        f" {total['no tests']} in code no selected test runs, counted as survivors,"
        f" {total['not checked']} not checked)")
if sample is not None:
    low, high = wilson(killed, tested)
    line += f"; a random sample of {len(sample)}: 95 % interval {low:.1f}-{high:.1f} %"
print(line)
