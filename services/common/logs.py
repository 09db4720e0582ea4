"""structlog: JSON lines in production, console in a terminal."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

# structlog.dev imports rich (and with it pygments) for its console tracebacks when rich is
# installed: tens of milliseconds of CPU in the start of every service, which prints JSON lines.
# structlog is imported with rich hidden, so its console form prints plain tracebacks; rich stays
# importable for everything else.
_hide_rich = "rich" not in sys.modules
if _hide_rich:
    sys.modules["rich"] = None  # type: ignore[assignment]
try:
    import structlog
finally:
    if _hide_rich:
        del sys.modules["rich"]

_configured = False


def configure(service: str, fmt: str = "auto", level: int = logging.INFO) -> None:
    global _configured
    if _configured:
        return
    _configured = True
    json_lines = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    renderer: Any = structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(service=service)


def configure_cli(log_file: Path | None, verbose: bool = False) -> None:
    """Logs of a command run by a person: never on the terminal among its results.  JSON lines
    appended to ``log_file`` (the data folder's ``logs/cli.log``), or with ``verbose`` everything
    down to debug on stderr in console form.  Also takes the standard library's loggers (nats,
    asyncio) along, so nothing reaches the terminal through logging's last-resort handler."""
    global _configured
    if _configured:
        return
    _configured = True
    if verbose:
        stream: Any = sys.stderr
        renderer: Any = structlog.dev.ConsoleRenderer()
        level = logging.DEBUG
    else:
        stream = None
        if log_file is not None:
            try:
                log_file.parent.mkdir(parents=True, exist_ok=True)
                stream = open(log_file, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives as long as the process
            except OSError:
                stream = None
        renderer = structlog.processors.JSONRenderer()
        level = logging.INFO
    root = logging.getLogger()
    handler: logging.Handler = logging.StreamHandler(stream) if stream is not None else logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level if stream is not None else logging.CRITICAL + 10),
        logger_factory=structlog.PrintLoggerFactory(file=stream if stream is not None else sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(service="cli")


def get(name: str = "gamehall") -> Any:
    return structlog.get_logger(name)
