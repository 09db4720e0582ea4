"""The gateway serves the web client's files compressed when asked (services/gateway/assets.py):
every file of web/ fetched with and without ``Accept-Encoding: gzip`` decodes to the same bytes,
the file's own; the gzip answer says so (Content-Encoding) and is smaller on the wire; both vary
on Accept-Encoding and carry an ETag of their own that a revalidation answers with 304."""

from __future__ import annotations

import gzip
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
# every file the page loads: index.html at /, the rest under /web/
FILES = [("/", WEB / "index.html")] + [
    (f"/web/{p.relative_to(WEB).as_posix()}", p)
    for p in sorted(WEB.rglob("*"))
    if p.is_file() and p.suffix in (".js", ".css", ".html")
]


def wire(client: httpx.Client, path: str, encoding: str, **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as it came on the wire (not decoded)."""
    with client.stream("GET", path, headers={"Accept-Encoding": encoding, **headers}) as r:
        return r, b"".join(r.iter_raw())


@pytest.mark.parametrize(("path", "file"), FILES, ids=[p for p, _ in FILES])
def test_a_web_file_decodes_to_the_same_bytes_with_and_without_gzip(
    client: httpx.Client, path: str, file: Path
) -> None:
    own = file.read_bytes()
    plain, plain_body = wire(client, path, "identity")
    packed, packed_body = wire(client, path, "gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers and plain_body == own
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed_body) == own
    assert len(packed_body) < len(own)
    for r, body in ((plain, plain_body), (packed, packed_body)):
        assert r.headers["vary"] == "Accept-Encoding"
        assert int(r.headers["content-length"]) == len(body)
        assert r.headers["cache-control"] == "no-cache"
    assert plain.headers["content-type"] == packed.headers["content-type"]
    assert plain.headers["etag"] != packed.headers["etag"]  # two byte sequences, two validators

    # a revalidation with the ETag of what was sent: 304, no body; the other form's ETag: 200
    for encoding, got in (("identity", plain), ("gzip", packed)):
        again, body = wire(client, path, encoding, **{"If-None-Match": got.headers["etag"]})
        assert again.status_code == 304 and body == b""
        assert again.headers["etag"] == got.headers["etag"] and again.headers["vary"] == "Accept-Encoding"
    crossed, body = wire(client, path, "identity", **{"If-None-Match": packed.headers["etag"]})
    assert crossed.status_code == 200 and body == own


@pytest.mark.parametrize(
    ("accept", "packed"),
    [
        ("gzip", True),
        ("GZIP;q=0.5", True),
        ("x-gzip", True),
        ("*", True),
        ("br, *;q=0.1", True),
        ("gzip;q=0", False),
        ("gzip;q=0, *", False),
        ("*;q=0", False),
        ("br", False),
        ("identity", False),
        ("", False),
    ],
)
def test_gzip_only_when_the_accept_encoding_admits_it(
    client: httpx.Client, accept: str, packed: bool
) -> None:
    own = (WEB / "app.js").read_bytes()
    r, body = wire(client, "/web/app.js", accept)
    assert r.status_code == 200
    assert (r.headers.get("content-encoding") == "gzip") is packed
    assert (gzip.decompress(body) if packed else body) == own
    assert r.headers["content-type"].startswith("text/javascript")


def test_head_and_what_is_not_a_web_file(client: httpx.Client) -> None:
    got = client.head("/web/style.css", headers={"Accept-Encoding": "gzip"})
    assert got.status_code == 200 and got.content == b""
    assert got.headers["content-encoding"] == "gzip" and int(got.headers["content-length"]) > 0
    assert got.headers["content-type"].startswith("text/css")
    for path in (
        "/web/missing.js",
        "/web/",
        "/web/games",
        "/web/../pyproject.toml",
        "/web/%2e%2e/pyproject.toml",
    ):
        assert client.get(path).status_code == 404, path
    assert client.post("/web/app.js").status_code == 405
