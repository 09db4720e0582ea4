"""Player identity (issue 9): accounts with an API token, app keys and the JWTs apps sign.

Two ways to be a player (docs/api.md "Players and credentials"):

- **Sign up** (``POST /api/accounts {"name"}``): the answer holds an opaque API token
  (``gh_...``) once; only its keyed hash is stored (HMAC-SHA256 under the server key,
  :mod:`services.common.serverkey`).  ``Authorization: Bearer gh_...``.
- **A client app's user**: an operator registers the app (``gamehall apps add NAME``: a key id
  and a secret, stored sealed; or the app's public keys, :mod:`services.common.appkeys`); the
  app signs a short-lived JWT for each of its users (HS256 with the secret, or EdDSA/ES256 with
  its private key; ``iss`` = the key id, ``sub`` = the app's user id, ``exp`` required, at most
  :data:`MAX_JWT_LIFETIME_S` after ``iat``; ``aud`` exactly when the app registered one).  The
  gateway verifies it and maps ``(app, sub)`` to an account named ``<app name>:<sub>`` (created on
  first sight, when ``sub`` is of :data:`SUBJECT_RE` and the name at most :data:`MAX_NAME` long).

Blocking SQL: the gateway calls these through ``asyncio.to_thread``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass

import jwt
from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from contracts.envelope import Rejected
from services.common import appkeys
from services.common.db import Account, AppKey
from services.common.serverkey import ServerKey, ServerKeyError, is_sealed, sealed_with

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
NAME_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._-])?\Z")
# An app user's id (JWT ``sub``): ASCII letters and digits, then also '.', '_', '-', '@' and ':'
# (emails, UUIDs, ``tenant:id``); no space, control character or anything outside ASCII.  The
# player name ``<app>:<sub>`` has at most MAX_NAME characters.
SUBJECT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:-]*\Z")
APP_ID_RE = re.compile(r"^[\x21-\x7e]{1,64}\Z")  # what a key id may be (printable ASCII)


@dataclass(frozen=True)
class Player:
    """An authenticated player: the name matches and ratings use, and how it signed in."""

    name: str
    account_id: str
    app_id: str | None = None
    operator: bool = False  # the account's role is "operator" (rules on disputes)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def token_hash(token: str, keys: ServerKey) -> str:
    """What ``accounts.token_hash`` stores of an API token: HMAC-SHA256 under the server key."""
    return keys.token_hash(token)


def legacy_token_hash(token: str) -> str:
    """The bare sha256 that accounts made before the server key store (still accepted, once)."""
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """What makes a player name unique (``accounts.name_key``): the NFKC-normalised, case-folded
    name, so ``ANN``, ``Ann`` and ``ann`` are one name (a sign-up name is ASCII, NAME_RE, so a
    fullwidth ``Ａnn`` is refused before it gets here; NFKC would fold it to ``ann`` anyway)."""
    return unicodedata.normalize("NFKC", name).casefold()


TAKEN = "that player name is taken (names are unique without regard to case); pick another"


def name_problem(name: str) -> str | None:
    if not 1 <= len(name) <= MAX_NAME:
        return f"a player name has 1-{MAX_NAME} characters"
    if not NAME_RE.match(name) or "  " in name:
        return "a player name holds letters, digits, single spaces, '-', '_' and '.', first a letter or digit"
    return None


def sign_up(engine: Engine, name: str, keys: ServerKey) -> tuple[Player, str] | Rejected:
    """A new account and its API token (the only time the token is seen)."""
    problem = name_problem(name)
    if problem:
        return Rejected(code="invalid_name", detail=problem)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    account_id = secrets.token_hex(16)
    try:
        with Session(engine) as session, session.begin():
            session.add(
                Account(
                    account_id=account_id,
                    name=name,
                    name_key=name_key(name),
                    token_hash=token_hash(token, keys),
                    created_at=now_ms(),
                )
            )
    except IntegrityError:
        return Rejected(code="name_taken", detail=TAKEN)
    return Player(name=name, account_id=account_id), token


def by_token(engine: Engine, token: str, keys: ServerKey) -> Player | None:
    """The account of an API token.  An account made before tokens were hashed with the server
    key is found by its bare sha256 once, and its hash replaced by the keyed one."""
    keyed, legacy = token_hash(token, keys), legacy_token_hash(token)
    with Session(engine) as session:  # one query, for a known token and an unknown one alike
        row = session.scalar(select(Account).where(Account.token_hash.in_((keyed, legacy))))
        if row is None:
            return None
        player = Player(name=row.name, account_id=row.account_id, operator=row.role == OPERATOR)
        stale = row.token_hash == legacy
    if stale:
        with Session(engine) as session, session.begin():
            session.execute(
                update(Account)
                .where(Account.account_id == player.account_id, Account.token_hash == legacy)
                .values(token_hash=keyed)
            )
    return player


# ---------------------------------------------------------------------- roles
def find_by_name(session: Session, name: str) -> Account | None:
    """The account a person means by ``name``: the one of exactly that name, else the one whose
    name is the same without regard to case (``name_key``)."""
    row = session.scalar(select(Account).where(Account.name == name))
    if row is None:
        row = session.scalar(select(Account).where(Account.name_key == name_key(name)))
    return row


def set_role(engine: Engine, name: str, role: str) -> bool:
    """Give the account ``name`` (:func:`find_by_name`) the role ``role`` (``player`` or
    ``operator``); False if unknown."""
    if role not in ROLES:
        raise ValueError(f"a role is one of {ROLES}")
    with Session(engine) as session, session.begin():
        row = find_by_name(session, name)
        if row is None:
            return False
        row.role = role
    return True


def account_name(engine: Engine, name: str) -> str | None:
    """The exact name of the account a person means by ``name`` (:func:`find_by_name`), or None."""
    with Session(engine) as session:
        row = find_by_name(session, name)
        return None if row is None else row.name


def is_operator(engine: Engine, name: str) -> bool:
    with Session(engine) as session:
        row = find_by_name(session, name)
        return row is not None and row.role == OPERATOR


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
MAX_AUDIENCE = 200


def _audience_problem(audience: str | None) -> Rejected | None:
    if audience is not None and (
        not 1 <= len(audience) <= MAX_AUDIENCE or not audience.isascii() or not audience.isprintable()
    ):
        return Rejected(code="invalid_audience", detail=f"an audience has 1-{MAX_AUDIENCE} printable ASCII characters")
    return None


def add_app(
    engine: Engine,
    name: str,
    keys: ServerKey,
    public_keys: list[dict[str, object]] | None = None,
    algorithm: str | None = None,
    audience: str | None = None,
) -> tuple[str, str | None] | Rejected:
    """Register a client app: its key id and, for HS256 (the default), its secret (shown once to
    the operator, stored sealed with the server key).  With ``public_keys`` (a JWKS-style list)
    the app signs with EdDSA or ES256 and the server keeps no secret for it (None).  ``audience``:
    its JWTs must carry exactly that ``aud``; without, they must carry none."""
    if not 1 <= len(name) <= MAX_APP_NAME or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        return Rejected(
            code="invalid_name", detail=f"an app name has 1-{MAX_APP_NAME} of a-z, 0-9 and '-', first a letter or digit"
        )
    problem = _audience_problem(audience)
    if problem:
        return problem
    if algorithm is not None and algorithm not in appkeys.ALGORITHMS:
        return Rejected(code="invalid_keys", detail=f"an app signs with {', '.join(appkeys.ALGORITHMS)}, not {algorithm!r}")
    app_id = "app_" + secrets.token_hex(8)
    secret: str | None = None
    stored_keys: list[dict[str, object]] | None = None
    if public_keys is None:
        if algorithm not in (None, appkeys.HS256):
            return Rejected(code="invalid_keys", detail=f"an {algorithm} app registers its public keys")
        algorithm = appkeys.HS256
        secret = secrets.token_urlsafe(48)
    else:
        try:
            algorithm, stored_keys = appkeys.check_public_keys(public_keys, algorithm)
        except appkeys.KeyProblem as exc:
            return Rejected(code="invalid_keys", detail=str(exc))
    try:
        with Session(engine) as session, session.begin():
            session.add(
                AppKey(
                    app_id=app_id,
                    name=name,
                    secret=None if secret is None else keys.seal(secret),
                    algorithm=algorithm,
                    public_keys=stored_keys,
                    audience=audience,
                    created_at=now_ms(),
                )
            )
    except IntegrityError:
        return Rejected(code="name_taken", detail=f"an app named {name!r} exists")
    return app_id, secret


def set_app_keys(engine: Engine, app_id: str, public_keys: list[dict[str, object]]) -> list[str] | Rejected:
    """Replace the public keys of an EdDSA or ES256 app (a rotation: list the new key with the old
    one until the app signs with the new one only); the kids now registered."""
    with Session(engine) as session, session.begin():
        row = session.get(AppKey, app_id)
        if row is None:
            return Rejected(code="unknown_app", detail=f"no app {app_id!r}")
        if row.algorithm not in appkeys.CURVES:
            return Rejected(code="invalid_keys", detail=f"app {row.name} signs with {row.algorithm} (a secret), not public keys")
        try:
            _, stored = appkeys.check_public_keys(public_keys, row.algorithm)
        except appkeys.KeyProblem as exc:
            return Rejected(code="invalid_keys", detail=str(exc))
        row.public_keys = stored
        return [k["kid"] for k in stored]


def seal_stored_secrets(engine: Engine, keys: ServerKey) -> int:
    """Seal the app secrets an older version stored in clear (idempotent; a secret changed
    meanwhile is left for the next call); how many were sealed.  A :class:`ServerKeyError` when
    the database's secrets are sealed with another server key (a process given the wrong
    ``GAMEHALL_SERVER_KEY``): nothing is sealed with this one then."""
    sealed = 0
    with Session(engine) as session:
        rows = [
            (app_id, secret)
            for app_id, secret in session.execute(select(AppKey.app_id, AppKey.secret).where(AppKey.secret.is_not(None)))
            if secret is not None
        ]
    others = sorted({sealed_with(s) for _, s in rows if is_sealed(s)} - {keys.key_id})
    if others:
        raise ServerKeyError(
            f"this database's app secrets are sealed with server key {', '.join(others)}, but this process's key "
            f"is {keys.key_id}: set GAMEHALL_SERVER_KEY to the key file the gateway uses"
        )
    for app_id, secret in rows:
        if is_sealed(secret):
            continue
        with Session(engine) as session, session.begin():
            done = session.execute(
                update(AppKey).where(AppKey.app_id == app_id, AppKey.secret == secret).values(secret=keys.seal(secret))
            )
            sealed += done.rowcount or 0  # type: ignore[attr-defined]
    return sealed


def list_apps(engine: Engine) -> list[dict[str, object]]:
    with Session(engine) as session:
        rows = session.scalars(select(AppKey).order_by(AppKey.created_at)).all()
        return [
            {
                "app_id": r.app_id,
                "name": r.name,
                "algorithm": r.algorithm,
                "kids": [k.get("kid") for k in r.public_keys or ()],
                "audience": r.audience,
                "created_at": r.created_at,
                "revoked_at": r.revoked_at,
            }
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


def subject_problem(app_name: str, subject: object) -> str | None:
    """Why ``subject`` may not make a new player ``<app_name>:<subject>`` (None: it may)."""
    if not isinstance(subject, str) or not SUBJECT_RE.match(subject):
        return (
            "sub is the app's user id: ASCII letters and digits, then also '.', '_', '-', '@' and ':' "
            "(no space, control or non-ASCII character)"
        )
    if len(app_name) + 1 + len(subject) > MAX_NAME:
        return (
            f"the player name {app_name}:<sub> has at most {MAX_NAME} characters, so sub at most "
            f"{MAX_NAME - len(app_name) - 1} for this app"
        )
    return None


def _app_secret(keys: ServerKey, engine: Engine, app_id: str, stored: str | None) -> str | None:
    """The HS256 secret of an app; one stored in clear by an older version is sealed now."""
    if stored is None:
        return None
    if is_sealed(stored):
        return keys.unseal(stored)
    with Session(engine) as session, session.begin():
        session.execute(update(AppKey).where(AppKey.app_id == app_id, AppKey.secret == stored).values(secret=keys.seal(stored)))
    return stored


def by_jwt(engine: Engine, token: str, keys: ServerKey) -> Player | Rejected:
    """The player an app's JWT presents (created on first sight), or why it is refused."""
    try:
        unverified = jwt.decode(token, options={"verify_signature": False})
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        return _bad("not a JWT")
    alg = header.get("alg")
    if alg not in appkeys.ALGORITHMS:
        return _bad(f"player JWTs are signed with {', '.join(appkeys.ALGORITHMS)} (the app's own), not {alg!r}")
    issuer = unverified.get("iss")
    if not isinstance(issuer, str):
        return _bad("the JWT names no issuer (iss = your app's key id)")
    if not APP_ID_RE.match(issuer):  # checked before the query: NUL is an error on PostgreSQL
        return _bad("unknown or revoked app key")
    with Session(engine) as session:
        app = session.get(AppKey, issuer)
        if app is None or app.revoked_at is not None:
            return _bad("unknown or revoked app key")
        app_name, algorithm, stored, public_keys, audience = (
            app.name, app.algorithm, app.secret, app.public_keys, app.audience
        )
    if alg != algorithm:
        return _bad(f"app {app_name} signs its JWTs with {algorithm}, not {alg}")
    try:
        if algorithm == appkeys.HS256:
            key: object = _app_secret(keys, engine, issuer, stored)
            if key is None:
                return _bad(f"app {app_name} has no secret")
        else:
            key = appkeys.verification_key(algorithm, public_keys, header.get("kid"))
    except appkeys.KeyProblem as exc:
        return _bad(str(exc))
    except ServerKeyError as exc:
        raise RuntimeError(f"the secret of app {app_name} does not open: {exc}") from exc
    required = ["exp", "iat", "iss", "sub", *(["aud"] if audience else [])]
    try:
        claims = jwt.decode(
            token,
            key,  # type: ignore[arg-type]
            algorithms=[algorithm],
            issuer=issuer,
            audience=audience,
            leeway=JWT_LEEWAY_S,
            options={"require": required, "verify_aud": audience is not None},
        )
    except jwt.InvalidAudienceError:
        return _bad(f"the JWT's aud is not {audience!r}, the audience app {app_name} registered")
    except jwt.PyJWTError as exc:
        return _bad(f"JWT refused: {exc}")
    if audience is None and claims.get("aud") is not None:
        return _bad(f"app {app_name} registered no audience, so its JWTs carry no aud")
    subject = claims["sub"]
    # Checked before any query: NUL is an error on PostgreSQL, and a name is shown to everyone.
    if not isinstance(subject, str) or not 1 <= len(subject) <= MAX_SUBJECT or not subject.isascii() or not subject.isprintable():
        return _bad(f"sub is the app's user id, 1-{MAX_SUBJECT} printable ASCII characters")
    if float(claims["exp"]) - float(claims["iat"]) > MAX_JWT_LIFETIME_S:
        return _bad(f"a player JWT lives at most {MAX_JWT_LIFETIME_S} s (exp - iat)")
    return _app_player(engine, issuer, app_name, subject)


def _app_player(engine: Engine, app_id: str, app_name: str, subject: str) -> Player | Rejected:
    query = select(Account).where(Account.app_id == app_id, Account.subject == subject)
    with Session(engine) as session:
        row = session.scalar(query)
        if row is not None:
            return Player(name=row.name, account_id=row.account_id, app_id=app_id, operator=row.role == OPERATOR)
    # A new player only (one made before these rules keeps signing in).
    problem = subject_problem(app_name, subject)
    if problem:
        return _bad(problem)
    account_id, name = secrets.token_hex(16), f"{app_name}:{subject}"
    try:
        with Session(engine) as session, session.begin():
            session.add(
                Account(
                    account_id=account_id,
                    name=name,
                    name_key=name_key(name),
                    app_id=app_id,
                    subject=subject,
                    created_at=now_ms(),
                )
            )
    except IntegrityError:
        with Session(engine) as session:
            found = session.scalar(query)
        if found is None:  # another player holds the name without regard to case (``app:Bob``, ``app:bob``)
            return _bad(f"the player name {name} is taken (names are unique without regard to case)")
        # created by a concurrent request
        return Player(name=found.name, account_id=found.account_id, app_id=app_id, operator=found.role == OPERATOR)
    return Player(name=name, account_id=account_id, app_id=app_id)


def authenticate(engine: Engine, bearer: str, keys: ServerKey) -> Player | Rejected:
    """An API token (``gh_...``) or an app's JWT."""
    if bearer.startswith(TOKEN_PREFIX):
        player = by_token(engine, bearer, keys)
        return player if player is not None else _bad("unknown API token")
    if bearer.count(".") == 2:
        return by_jwt(engine, bearer, keys)
    return _bad("send 'Authorization: Bearer <API token or app JWT>' (a seat token is not a player credential)")
