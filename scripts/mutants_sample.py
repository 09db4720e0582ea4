"""A uniform random sample of a package's mutants (run in its working copy, .mutants/<name>/).

    python scripts/mutants_sample.py domain/games/king 300 [SEED] [--survivors]

Prints one mutant name per line, sorted.  The seed (default 1) makes the sample repeatable, so a
later run re-tests the same mutants against newer tests; with ``--survivors`` only the sample's
mutants that no run has killed yet (survived, in code no test ran, or not run at all: an
interrupted run) are printed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from mutmut.stats import status_by_exit_code

args = [a for a in sys.argv[1:] if a != "--survivors"]
survivors_only = "--survivors" in sys.argv
package, size = args[0], int(args[1])
seed = int(args[2]) if len(args) > 2 else 1
status: dict[str, str] = {}
for meta in Path("mutants").joinpath(package).rglob("*.py.meta"):
    for key, code in json.loads(meta.read_text())["exit_code_by_key"].items():
        status[key] = status_by_exit_code[code]
names = sorted(status)
if not names:
    sys.exit(f"no mutants of {package} under mutants/: generate them first")
for name in sorted(random.Random(seed).sample(names, min(size, len(names)))):
    if not survivors_only or status[name] in ("survived", "no tests", "not checked"):
        print(name)
