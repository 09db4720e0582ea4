"""structlog: JSON lines in production, console in a terminal."""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog

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


def get(name: str = "gamehall") -> Any:
    return structlog.get_logger(name)
