"""The one reading of the credential a request carries, for the edge's limiter and every route.

A credential (a seat token, an API token or an app's JWT) is read from the request's ASGI scope
in exactly one way, the way Starlette and FastAPI read a header and a query parameter:

- the first ``Authorization`` header (decoded as latin-1), when its scheme is ``Bearer``
  (in any case): what follows, stripped of white space;
- else the ``token`` query parameter: the query string decoded as latin-1, split and
  percent-decoded by :func:`urllib.parse.parse_qsl` with blank values kept (so ``%74oken=``
  is ``token=`` and ``+`` is a space); of repeated ``token`` parameters the **last** one wins,
  as it does for FastAPI's ``token: str`` parameter;
- an empty credential is none.

The edge's rate limits (:mod:`services.gateway.edge`) and the routes (through
:func:`request_credential`, or :func:`credential_of` on a raw scope) call the same function, and
the edge stores its result in the scope, so the credential a route authenticates is the one
the failed-authentication limiter saw.  docs/api.md "Credentials" says the same to clients.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import Header, Query
from starlette.requests import HTTPConnection

SCOPE_KEY = "gamehall.credential"  # the scope's cached reading (a tuple holding the credential)
MAX_CREDENTIAL = 512  # characters of a credential that key a rate-limit bucket


def query_parameter(query_string: bytes, name: str) -> str | None:
    """The last value of the query parameter ``name``, read as Starlette reads ``query_params``."""
    if not query_string:
        return None
    # No parameter is named ``name`` unless its letters or a percent escape are there.
    if name.encode() not in query_string and b"%" not in query_string:
        return None
    found = None
    for key, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        if key == name:
            found = value
    return found


def authorization_bearer(scope: Any) -> tuple[bool, str | None]:
    """(whether the first ``Authorization`` header is a ``Bearer`` one, its credential)."""
    for key, value in scope["headers"]:
        if key == b"authorization":
            text: str = value.decode("latin-1")
            if text[:7].lower() == "bearer ":
                return True, text[7:].strip() or None
            return False, None
    return False, None


def read_credential(scope: Any) -> str | None:
    """The credential of a request (module docstring), read afresh."""
    is_bearer, found = authorization_bearer(scope)
    if is_bearer:
        return found
    return query_parameter(scope.get("query_string", b""), "token") or None


def credential_of(scope: Any) -> str | None:
    """The credential of a request, read once per scope (the edge reads it first)."""
    cached = scope.get(SCOPE_KEY)
    if cached is None:
        cached = scope[SCOPE_KEY] = (read_credential(scope),)
    found: str | None = cached[0]
    return found


def limiter_key(credential: str) -> str:
    """The rate-limit bucket of a credential: its first :data:`MAX_CREDENTIAL` characters (a
    longer credential shares its bucket with others of the same beginning, never gets its own)."""
    return credential[:MAX_CREDENTIAL]


def request_credential(
    connection: HTTPConnection,
    authorization: str | None = Header(
        default=None, description="`Bearer <credential>`: a seat token, an API token or an app's JWT."
    ),
    token: str | None = Query(
        default=None,
        description="The credential, for clients that cannot send a header (the header wins; of "
        "repeated `token` parameters the last one).",
    ),
) -> str | None:
    """FastAPI dependency: the request's credential.  ``authorization`` and ``token`` are declared
    for the OpenAPI description only; the value is :func:`credential_of` of the scope."""
    return credential_of(connection.scope)
