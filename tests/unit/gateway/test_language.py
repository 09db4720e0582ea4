"""The language of a route that answers in words (services/gateway/core.language): ?lang when given
(en or ru, anything else 422 unsupported_language), else the Accept-Language header's first choice
(Russian: ru; anything else: en)."""

from __future__ import annotations

import pytest

from services.gateway.core import accepted_language, language
from services.gateway.edge import ApiError


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ru", "ru"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("RU-ru", "ru"),
        ("en-US,en;q=0.9,ru;q=0.8", "en"),
        ("de;q=0.3, ru;q=0.7", "ru"),
        ("ru;q=0, en;q=0.1", "en"),
        ("ru;q=0", "en"),
        ("*", "en"),
        ("rus", "en"),
        ("ru;q=bad, en", "en"),
        (";;,", "en"),
    ],
)
def test_accept_language_first_choice(header: str | None, lang: str) -> None:
    assert accepted_language(header) == lang


def test_lang_wins_over_the_header_and_a_bad_lang_is_refused() -> None:
    assert language("en", "ru-RU") == "en"
    assert language("ru", "en") == "ru"
    assert language(None, "ru-RU") == "ru"
    assert language("", "ru") == "ru"
    with pytest.raises(ApiError) as refused:
        language("de", "ru")
    assert refused.value.status == 422 and refused.value.code == "unsupported_language"
