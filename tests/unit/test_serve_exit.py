"""The last resort of `gamehall serve` (services/cli/stackrun.exit_after_stop): a process whose
work was stopped but whose exit hangs (a library's thread or task that never ends) is ended
a bounded time after its stop, with exit status 3."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from services.common.processes import ROOT

HANGS_AT_EXIT = textwrap.dedent(
    """
    import asyncio, threading, time
    from services.cli.stackrun import exit_after_stop

    threading.Thread(target=lambda: time.sleep(3600)).start()  # not a daemon: exit waits for it

    async def main() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.2, stop.set)
        await exit_after_stop("demo", stop, after_s=1.0)

    asyncio.run(main())
    """
)


def test_a_process_whose_exit_hangs_is_ended_after_its_stop() -> None:
    proc = subprocess.run([sys.executable, "-c", HANGS_AT_EXIT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert "demo: still running 1s after its stop; exiting" in proc.stderr


def test_a_process_that_exits_by_itself_is_not_held() -> None:
    code = HANGS_AT_EXIT.replace('threading.Thread(target=lambda: time.sleep(3600)).start()', "pass")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "still running" not in proc.stderr
