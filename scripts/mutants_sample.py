"""A uniform random sample of a package's mutants (run in its working copy, .mutants/<name>/).

    python scripts/mutants_sample.py domain/games/king 300 [SEED]

Prints one mutant name per line, sorted.  The seed (default 1) makes the sample repeatable, so a
later run re-tests the same mutants against newer tests.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

package, size = sys.argv[1], int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
names = sorted(
    key
    for meta in Path("mutants").joinpath(package).rglob("*.py.meta")
    for key in json.loads(meta.read_text())["exit_code_by_key"]
)
if not names:
    sys.exit(f"no mutants of {package} under mutants/: generate them first")
for name in sorted(random.Random(seed).sample(names, min(size, len(names)))):
    print(name)
