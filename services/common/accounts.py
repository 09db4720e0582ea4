"""Player identity (issue 9): accounts with an API token, app keys and the JWTs apps sign.

Two ways to be a player (docs/api.md "Players and credentials"):

- **Sign up** (``POST /api/accounts {"name"}``): the answer holds an opaque API token
  (``gh_...``) once; only its sha256 is stored.  ``Authorization: Bearer gh_...``.
- **A client app's user**: an operator registers the app (``gamehall apps add NAME``: a key id
  and a secret); the app signs a short-lived JWT for each of its users (HS256 with the secret,
  ``iss`` = the key id, ``sub`` = the app's user id, ``exp`` required, at most
  :data:`MAX_JWT_LIFETIME_S` after ``iat``).  The gateway verifies it and maps ``(app, sub)`` to
  an account named ``<app name>:<sub>`` (created on first sight).

Blocking SQL: the gateway calls these through ``asyncio.to_thread``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

import jwt
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from contracts.envelope import Rejected
from services.common.db import Account, AppKey

TOKEN_PREFIX = "gh_"
PLAYER = "player"
OPERATOR = "operator"
ROLES = (PLAYER, OPERATOR)
MAX_NAME = 64
MAX_APP_NAME = 32
MAX_SUBJECT = 128
MAX_JWT_LIFETIME_S = 3600  # a player JWT lives at most an hour (exp - iat)
JWT_LEEWAY_S = 30  # clock skew allowed between the app and the gateway
# Sign-up names: ASCII letters and digits, and ' ', '-', '_', '.' inside; never ':' (app
# players' names are ``<app>:<sub>``, so the two kinds never collide).
NAME_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._-])?$")


@dataclass(frozen=True)
class Player:
    """An authenticated player: the name matches and ratings use, and how it signed in."""

    name: str
    account_id: str
    app_id: str | None = None
    operator: bool = False  # the account's role is "operator" (rules on disputes)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def name_problem(name: str) -> str | None:
    if not 1 <= len(name) <= MAX_NAME:
        return f"a player name has 1-{MAX_NAME} characters"
    if not NAME_RE.match(name) or "  " in name:
        return "a player name holds letters, digits, single spaces, '-', '_' and '.', first a letter or digit"
    return None


def sign_up(engine: Engine, name: str) -> tuple[Player, str] | Rejected:
    """A new account and its API token (the only time the token is seen)."""
    problem = name_problem(name)
    if problem:
        return Rejected(code="invalid_name", detail=problem)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    account_id = secrets.token_hex(16)
    try:
        with Session(engine) as session, session.begin():
            session.add(Account(account_id=account_id, name=name, token_hash=token_hash(token), created_at=now_ms()))
    except IntegrityError:
        return Rejected(code="name_taken", detail="that player name is taken; pick another")
    return Player(name=name, account_id=account_id), token


def by_token(engine: Engine, token: str) -> Player | None:
    with Session(engine) as session:
        row = session.scalar(select(Account).where(Account.token_hash == token_hash(token)))
    return None if row is None else Player(name=row.name, account_id=row.account_id, operator=row.role == OPERATOR)


# ---------------------------------------------------------------------- roles
def set_role(engine: Engine, name: str, role: str) -> bool:
    """Give the account ``name`` the role ``role`` (``player`` or ``operator``); False if unknown."""
    if role not in ROLES:
        raise ValueError(f"a role is one of {ROLES}")
    with Session(engine) as session, session.begin():
        row = session.scalar(select(Account).where(Account.name == name))
        if row is None:
            return False
        row.role = role
    return True


def is_operator(engine: Engine, name: str) -> bool:
    with Session(engine) as session:
        role = session.scalar(select(Account.role).where(Account.name == name))
    return role == OPERATOR


def list_accounts(engine: Engine, operators_only: bool = False) -> list[dict[str, object]]:
    query = select(Account).order_by(Account.created_at, Account.name)
    if operators_only:
        query = query.where(Account.role == OPERATOR)
    with Session(engine) as session:
        return [
            {"name": r.name, "role": r.role, "app_id": r.app_id, "created_at": r.created_at}
            for r in session.scalars(query)
        ]


# ---------------------------------------------------------------------- app keys
def add_app(engine: Engine, name: str) -> tuple[str, str] | Rejected:
    """Register a client app: its key id and secret (shown once to the operator)."""
    if not 1 <= len(name) <= MAX_APP_NAME or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        return Rejected(
            code="invalid_name", detail=f"an app name has 1-{MAX_APP_NAME} of a-z, 0-9 and '-', first a letter or digit"
        )
    app_id = "app_" + secrets.token_hex(8)
    secret = secrets.token_urlsafe(48)
    try:
        with Session(engine) as session, session.begin():
            session.add(AppKey(app_id=app_id, name=name, secret=secret, created_at=now_ms()))
    except IntegrityError:
        return Rejected(code="name_taken", detail=f"an app named {name!r} exists")
    return app_id, secret


def list_apps(engine: Engine) -> list[dict[str, object]]:
    with Session(engine) as session:
        rows = session.scalars(select(AppKey).order_by(AppKey.created_at)).all()
        return [
            {"app_id": r.app_id, "name": r.name, "created_at": r.created_at, "revoked_at": r.revoked_at}
            for r in rows
        ]


def revoke_app(engine: Engine, app_id: str) -> bool:
    """Its JWTs are refused from now on (its players' accounts and ratings stay)."""
    with Session(engine) as session, session.begin():
        row = session.get(AppKey, app_id)
        if row is None:
            return False
        if row.revoked_at is None:
            row.revoked_at = now_ms()
    return True


def _bad(detail: str) -> Rejected:
    return Rejected(code="bad_credentials", detail=detail)


def by_jwt(engine: Engine, token: str) -> Player | Rejected:
    """The player an app's JWT presents (created on first sight), or why it is refused."""
    try:
        unverified = jwt.decode(token, options={"verify_signature": False})
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        return _bad("not a JWT")
    if header.get("alg") != "HS256":
        return _bad("player JWTs are signed with HS256")
    issuer = unverified.get("iss")
    if not isinstance(issuer, str):
        return _bad("the JWT names no issuer (iss = your app's key id)")
    with Session(engine) as session:
        app = session.get(AppKey, issuer)
        if app is None or app.revoked_at is not None:
            return _bad("unknown or revoked app key")
        app_name, secret = app.name, app.secret
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            issuer=issuer,
            leeway=JWT_LEEWAY_S,
            options={"require": ["exp", "iat", "iss", "sub"], "verify_aud": False},
        )
    except jwt.PyJWTError as exc:
        return _bad(f"JWT refused: {exc}")
    subject = claims["sub"]
    if not isinstance(subject, str) or not 1 <= len(subject) <= MAX_SUBJECT:
        return _bad(f"sub is the app's user id, 1-{MAX_SUBJECT} characters")
    if float(claims["exp"]) - float(claims["iat"]) > MAX_JWT_LIFETIME_S:
        return _bad(f"a player JWT lives at most {MAX_JWT_LIFETIME_S} s (exp - iat)")
    return _app_player(engine, issuer, app_name, subject)


def _app_player(engine: Engine, app_id: str, app_name: str, subject: str) -> Player:
    query = select(Account).where(Account.app_id == app_id, Account.subject == subject)
    with Session(engine) as session:
        row = session.scalar(query)
        if row is not None:
            return Player(name=row.name, account_id=row.account_id, app_id=app_id, operator=row.role == OPERATOR)
    account_id, name = secrets.token_hex(16), f"{app_name}:{subject}"
    try:
        with Session(engine) as session, session.begin():
            session.add(
                Account(account_id=account_id, name=name, app_id=app_id, subject=subject, created_at=now_ms())
            )
    except IntegrityError:  # created by a concurrent request
        with Session(engine) as session:
            found = session.scalar(query)
        assert found is not None
        return Player(name=found.name, account_id=found.account_id, app_id=app_id, operator=found.role == OPERATOR)
    return Player(name=name, account_id=account_id, app_id=app_id)


def authenticate(engine: Engine, bearer: str) -> Player | Rejected:
    """An API token (``gh_...``) or an app's JWT."""
    if bearer.startswith(TOKEN_PREFIX):
        player = by_token(engine, bearer)
        return player if player is not None else _bad("unknown API token")
    if bearer.count(".") == 2:
        return by_jwt(engine, bearer)
    return _bad("send 'Authorization: Bearer <API token or app JWT>' (a seat token is not a player credential)")
