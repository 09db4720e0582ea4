"""What the ``gamehall`` sub-commands share: the data folder rule, the settings found by it, and the
``--verbose`` flag of the root command.

The bottom of the command line's modules: ``main`` and every sub-command module import it, and it
imports none of them.  Only typer and the standard library at import time (``gamehall --help`` must
start fast; tests/unit/test_cli_startup.py keeps it so).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from services.common import settings as settings_mod

# Set by the root command's ``--verbose`` (``-v``) before any sub-command runs.
verbose = False


def find_data_dir(cwd: Path, explicit: Path | None) -> Path | None:
    """The data folder: ``explicit`` (``GAMEHALL_DATA_DIR``), else the nearest ``.gamehall``
    folder in ``cwd`` or above it, else None."""
    if explicit is not None:
        return explicit
    for folder in (cwd, *cwd.parents):
        if (folder / ".gamehall").is_dir():
            return folder / ".gamehall"
    return None


NO_DATA_DIR = (
    "no gamehall data folder here: set GAMEHALL_DATA_DIR, or run the command inside the project "
    "(a folder with .gamehall in it or above it; 'gamehall up' makes one in the current folder)"
)


def settings(create: bool = False, log: bool = True) -> settings_mod.Settings:
    """The settings with the data folder found by the one rule of every command (docs/operations.md
    "Data folder"); with ``create`` a first ``gamehall up`` or ``demo`` starts ``./.gamehall``.
    Without a data folder: a clear message and exit status 2.  ``log``: this command's logs go to
    the data folder's logs/cli.log (stderr with --verbose), never among its output."""
    from services.common import datadir, logs
    from services.common import settings as settings_mod

    found = find_data_dir(Path.cwd(), settings_mod.explicit_data_dir())
    if found is None:
        if not create:
            typer.echo(NO_DATA_DIR, err=True)
            raise typer.Exit(2)
        found = Path.cwd() / ".gamehall"
    elif not create and not found.is_dir():
        typer.echo(f"no gamehall data folder at GAMEHALL_DATA_DIR={found} (a mistyped path?)", err=True)
        raise typer.Exit(2)
    loaded = settings_mod.load().replace(data_dir=found)
    # What this command and the processes it starts write is private to the user, and an older
    # folder's 0755/0644 modes are made so (docs/operations.md "Data folder").
    datadir.private_umask()
    datadir.secure(loaded.data_dir, create=create)
    if log:
        logs.configure_cli(loaded.data_dir / "logs" / "cli.log", verbose)
    return loaded
