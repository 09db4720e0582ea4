"""The web client's files (``web/``), served compressed.

Each file is read and gzip-compressed once (level 9) and kept in memory with its ETag; a later
request only compares the file's size and modification time with the kept ones, so an edited
file is read again and a deployment's new files are served at once.  What a client gets:

- ``Accept-Encoding`` that admits gzip (``gzip``, or ``*``, with a q-value above 0): the gzip
  bytes with ``Content-Encoding: gzip``; otherwise the file's own bytes.  Files that do not get
  smaller (images, tiny files) always go as they are.
- ``Vary: Accept-Encoding`` on every answer, so no cache hands the gzip bytes to a client that did
  not ask for them; an ETag per representation (``"<hash>"`` and ``"<hash>-gzip"``: two byte
  sequences, two strong validators) and ``Last-Modified``.
- ``Cache-Control: no-cache``: a browser keeps the files and asks again each load with
  ``If-None-Match``, answered ``304 Not Modified`` without a body while the file is the same.
  The modules import each other by fixed names (``./i18n.js``), so a stale copy of one beside a
  fresh copy of another must never run together.

Only ``GET`` and ``HEAD``; a path that leaves the folder, names a folder or a missing file is
404.  Ranges are not served: every answer is the whole file (HTTP lets a server ignore Range)."""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import mimetypes
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.responses import Response

__all__ = ["Answer", "Asset", "WebAssets", "accepts_gzip"]

# What a browser needs to read them (a module script must have a JavaScript type).
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".map": "application/json",
}
# Text compresses; images and fonts are compressed already.
COMPRESSIBLE = {".js", ".mjs", ".css", ".html", ".json", ".svg", ".txt", ".map"}
MIN_COMPRESS = 256  # below this the gzip header and a round of inflate cost more than they save


@dataclass(frozen=True, slots=True)
class Answer:
    """What to send: a status, the headers, the body."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as served: its bytes, their gzip form (None when gzip would not make it smaller)
    and the validators."""

    raw: bytes
    gzipped: bytes | None
    etag: str  # quoted, of the raw bytes; the gzip form's is etag with "-gzip" before the quote
    last_modified: str
    media_type: str
    stamp: tuple[int, int]  # (st_size, st_mtime_ns) when read

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gzip"'


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` value admits gzip: named (or ``x-gzip``) with q > 0, or
    ``*`` with q > 0 and gzip not refused by name."""
    named: float | None = None
    star: float | None = None
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        token = token.strip().lower()
        if token in ("gzip", "x-gzip"):
            named = q if named is None else max(named, q)
        elif token == "*":
            star = q
    if named is not None:
        return named > 0
    return star is not None and star > 0


def _read(path: Path, stamp: tuple[int, int], mtime: float) -> Asset:
    raw = path.read_bytes()
    suffix = path.suffix.lower()
    packed: bytes | None = None
    if suffix in COMPRESSIBLE and len(raw) >= MIN_COMPRESS:
        packed = gzip.compress(raw, 9, mtime=0)
        if len(packed) >= len(raw):
            packed = None
    media = TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Asset(
        raw=raw,
        gzipped=packed,
        etag=f'"{hashlib.sha256(raw).hexdigest()[:20]}"',
        last_modified=email.utils.formatdate(mtime, usegmt=True),
        media_type=media,
        stamp=stamp,
    )


class WebAssets:
    """The files under ``directory``: ``lookup`` for the route of one file, and an ASGI app for a
    mount (``/web``: the path under the mount)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory.resolve()
        self._kept: dict[Path, Asset] = {}
        self._lock = threading.Lock()

    def lookup(self, rel: str) -> Asset | None:
        """The file at ``rel`` under the folder (read and compressed again if it changed), or None
        when there is no such file inside it."""
        path = (self.directory / rel.lstrip("/")).resolve()
        if path != self.directory and self.directory not in path.parents:
            return None
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            return None
        if not path.is_file():
            return None
        stamp = (st.st_size, st.st_mtime_ns)
        kept = self._kept.get(path)
        if kept is not None and kept.stamp == stamp:
            return kept
        try:
            asset = _read(path, stamp, st.st_mtime)
        except OSError:
            return None
        with self._lock:
            self._kept[path] = asset
        return asset

    def answer(self, asset: Asset | None, method: str, headers: dict[bytes, bytes]) -> Answer:
        """The answer to a request for ``asset`` (404 if None): ``headers`` are the request's,
        with lower-case names."""
        if asset is None:
            return _plain(404, b"Not Found")
        if method not in ("GET", "HEAD"):
            return _plain(405, b"Method Not Allowed", [(b"allow", b"GET, HEAD")])
        packed = asset.gzipped is not None and accepts_gzip(
            headers.get(b"accept-encoding", b"").decode("latin-1")
        )
        body = asset.gzipped if packed and asset.gzipped is not None else asset.raw
        etag = asset.gzip_etag if packed else asset.etag
        common = [
            (b"etag", etag.encode()),
            (b"last-modified", asset.last_modified.encode()),
            (b"cache-control", b"no-cache"),
            (b"vary", b"Accept-Encoding"),
        ]
        wanted = headers.get(b"if-none-match")
        if wanted is not None and _matches(wanted.decode("latin-1"), etag):
            return Answer(304, common, b"")
        out = [
            (b"content-type", asset.media_type.encode()),
            (b"content-length", str(len(body)).encode()),
            *common,
        ]
        if packed:
            out.append((b"content-encoding", b"gzip"))
        return Answer(200, out, b"" if method == "HEAD" else body)

    def response(self, rel: str, scope: Any) -> Response:
        """The file ``rel`` as a Starlette response to the request in ``scope`` (a route's)."""
        got = self.answer(self.lookup(rel), scope.get("method", "GET"), _headers(scope))
        reply = Response(got.body, status_code=got.status)
        reply.raw_headers = got.headers  # exactly these (content-length included)
        return reply

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        # under a mount, the path past the mount's prefix
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        got = self.answer(self.lookup(path), scope.get("method", "GET"), _headers(scope))
        await send({"type": "http.response.start", "status": got.status, "headers": got.headers})
        await send({"type": "http.response.body", "body": got.body})


def _matches(header: str, etag: str) -> bool:
    """``If-None-Match`` (a list, ``*``, weak forms) names ``etag`` (weak comparison, RFC 9110)."""
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def _plain(status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None) -> Answer:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    return Answer(status, [*headers, *(extra or [])], body)


def _headers(scope: Any) -> dict[bytes, bytes]:
    return {k.lower(): v for k, v in scope.get("headers", [])}
