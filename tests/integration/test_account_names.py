"""Account names are unique without regard to case (issue 22): ``ANN`` and ``ann`` are one name,
for sign-ups and app players alike, and a person typing a name in any case finds the account; on
SQLite and on PostgreSQL (the unique ``accounts.name_key``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import jwt
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from contracts.envelope import Rejected
from services.common import accounts, db, serverkey
from services.common.db import Account
from tests.integration.ranked_support import throwaway_database

KEYS = serverkey.ServerKey.generate()


@pytest.fixture(params=["sqlite", pytest.param("pg", marks=pytest.mark.pg)])
def engine(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[Engine]:
    for url in throwaway_database(request.param, tmp_path, pg_url):
        found = db.open_database(url)
        db.upgrade(found)
        try:
            yield found
        finally:
            found.dispose()


def test_a_name_that_differs_only_by_case_is_taken(engine: Engine) -> None:
    made = accounts.sign_up(engine, "ANN", KEYS)
    assert not isinstance(made, Rejected)
    for other in ("ann", "Ann", "aNN"):
        refused = accounts.sign_up(engine, other, KEYS)
        assert isinstance(refused, Rejected) and refused.code == "name_taken", other
        assert "without regard to case" in refused.detail
    with Session(engine) as session:
        rows = session.execute(select(Account.name, Account.name_key)).all()
    assert [tuple(r) for r in rows] == [("ANN", "ann")]
    assert not isinstance(accounts.sign_up(engine, "ann-2", KEYS), Rejected)


def test_a_fullwidth_name_is_refused_by_the_charset_and_would_fold_to_the_same_key(engine: Engine) -> None:
    assert not isinstance(accounts.sign_up(engine, "ann", KEYS), Rejected)
    fullwidth = "\uff21nn"  # "Ａnn"
    refused = accounts.sign_up(engine, fullwidth, KEYS)
    assert isinstance(refused, Rejected) and refused.code == "invalid_name"
    assert accounts.name_key(fullwidth) == accounts.name_key("ANN") == "ann"
    assert accounts.name_key("Stra\u00dfe") == accounts.name_key("STRASSE")  # case folding, not lower()


def test_a_name_typed_in_another_case_finds_the_account(engine: Engine) -> None:
    assert not isinstance(accounts.sign_up(engine, "Olga", KEYS), Rejected)
    assert accounts.account_name(engine, "OLGA") == "Olga"
    assert accounts.account_name(engine, "nobody") is None
    assert accounts.set_role(engine, "olga", accounts.OPERATOR)
    assert accounts.is_operator(engine, "Olga") and accounts.is_operator(engine, "OLGA")
    assert not accounts.set_role(engine, "nobody", accounts.OPERATOR)


def app_jwt(app_id: str, secret: str, sub: str) -> str:
    now = int(time.time())
    return jwt.encode({"iss": app_id, "sub": sub, "iat": now, "exp": now + 300}, secret, algorithm="HS256")


def test_app_players_get_a_key_and_one_of_another_case_is_refused(engine: Engine) -> None:
    added = accounts.add_app(engine, "shop", KEYS)
    assert not isinstance(added, Rejected)
    app_id, secret = added
    assert secret is not None
    bob = accounts.by_jwt(engine, app_jwt(app_id, secret, "Bob"), KEYS)
    assert isinstance(bob, accounts.Player) and bob.name == "shop:Bob"
    again = accounts.by_jwt(engine, app_jwt(app_id, secret, "Bob"), KEYS)
    assert isinstance(again, accounts.Player) and again.account_id == bob.account_id
    other = accounts.by_jwt(engine, app_jwt(app_id, secret, "bob"), KEYS)
    assert isinstance(other, Rejected) and other.code == "bad_credentials" and "taken" in other.detail
    with Session(engine) as session:
        keys = session.scalars(select(Account.name_key).where(Account.app_id == app_id)).all()
    assert keys == ["shop:bob"]
