"""Public keys of client apps (docs/api.md "Players and credentials"): an app that signs its
players' JWTs with EdDSA (Ed25519) or ES256 (P-256) registers its public keys, as a JWKS-style
list, and the server holds no signing secret for it at all.

Pure checks of what an operator hands in (a JWKS document or a PEM public key), and the
verification keys the gateway loads from the stored list (cached: :func:`verification_key`
runs for every request with an app's JWT).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from typing import Any

import jwt
from jwt.algorithms import ECAlgorithm, OKPAlgorithm

HS256 = "HS256"
EDDSA = "EdDSA"
ES256 = "ES256"
ALGORITHMS = (HS256, EDDSA, ES256)
# The key type and curve of each public-key algorithm (RFC 8037, RFC 7518).
CURVES = {EDDSA: ("OKP", "Ed25519"), ES256: ("EC", "P-256")}
MAX_KEYS = 16  # public keys of one app (old and new during a rotation)
MAX_KID = 64
# The members a stored public key keeps (RFC 7638's and RFC 7517's public ones).
PUBLIC_MEMBERS = ("kty", "crv", "x", "y", "kid", "alg", "use")


class KeyProblem(ValueError):
    """What an operator handed in is not a usable public key list; the message says why."""


def algorithm_of(jwk: dict[str, Any]) -> str:
    for algorithm, (kty, crv) in CURVES.items():
        if jwk.get("kty") == kty and jwk.get("crv") == crv:
            return algorithm
    raise KeyProblem(
        f"a key is kty OKP with crv Ed25519 (EdDSA) or kty EC with crv P-256 (ES256), not "
        f"kty {jwk.get('kty')!r} crv {jwk.get('crv')!r}"
    )


def thumbprint(jwk: dict[str, Any]) -> str:
    """The key's RFC 7638 thumbprint (base64url SHA-256 of its required members): its kid when it
    names none."""
    required = ("crv", "kty", "x") if jwk["kty"] == "OKP" else ("crv", "kty", "x", "y")
    canonical = json.dumps({k: jwk[k] for k in required}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).decode().rstrip("=")


def parse_jwks(text: str | bytes) -> list[dict[str, Any]]:
    """The keys of a JWKS document (``{"keys": [...]}``) or of a single JWK."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise KeyProblem(f"not JSON: {exc}") from None
    if isinstance(doc, dict) and "keys" in doc:
        doc = doc["keys"]
    elif isinstance(doc, dict):
        doc = [doc]
    if not isinstance(doc, list) or not all(isinstance(k, dict) for k in doc):
        raise KeyProblem('a JWKS document is {"keys": [{"kty": ..., "crv": ..., "x": ..., "kid": ...}, ...]}')
    return doc


def pem_to_jwk(pem: bytes) -> dict[str, Any]:
    """A PEM public key (Ed25519 or P-256) as a JWK."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    try:
        key = load_pem_public_key(pem)
    except ValueError:
        raise KeyProblem("not a PEM public key (-----BEGIN PUBLIC KEY-----; never send a private key)") from None
    if isinstance(key, ed25519.Ed25519PublicKey):
        return dict(OKPAlgorithm.to_jwk(key, as_dict=True))
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return dict(ECAlgorithm.to_jwk(key, as_dict=True))
    raise KeyProblem("a public key is Ed25519 (EdDSA) or P-256 (ES256)")


def check_public_keys(keys: list[dict[str, Any]], algorithm: str | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The algorithm and the public keys to store: every key of one algorithm (``algorithm``, or
    the keys' own), public only, each with a distinct kid (its thumbprint when it names none)."""
    if not keys:
        raise KeyProblem("no public key given")
    if len(keys) > MAX_KEYS:
        raise KeyProblem(f"at most {MAX_KEYS} public keys per app")
    if algorithm is not None and algorithm not in CURVES:
        raise KeyProblem(f"public keys sign with {' or '.join(CURVES)}, not {algorithm!r}")
    found = {algorithm_of(k) for k in keys}
    if len(found) > 1:
        raise KeyProblem(f"an app signs with one algorithm; these keys are {' and '.join(sorted(found))}")
    (own,) = found
    if algorithm is not None and own != algorithm:
        raise KeyProblem(f"the keys are {own} keys, not {algorithm}")
    clean: list[dict[str, Any]] = []
    for jwk in keys:
        if "d" in jwk:
            raise KeyProblem("that is a private key: register the public key only (no 'd')")
        if jwk.get("use", "sig") != "sig":
            raise KeyProblem(f"a key's use is sig, not {jwk.get('use')!r}")
        if jwk.get("alg", own) != own:
            raise KeyProblem(f"a key says alg {jwk.get('alg')!r}, but the app signs with {own}")
        kept = {k: jwk[k] for k in PUBLIC_MEMBERS if k in jwk}
        if not all(isinstance(v, str) for v in kept.values()):
            raise KeyProblem("a key's members are strings")
        try:
            _load(own, kept.get("x", ""), kept.get("y", ""))
        except (jwt.PyJWTError, ValueError, KeyError) as exc:
            raise KeyProblem(f"not a valid {own} public key: {exc}") from None
        kept.setdefault("kid", thumbprint(kept))
        if not 1 <= len(kept["kid"]) <= MAX_KID or not kept["kid"].isprintable() or not kept["kid"].isascii():
            raise KeyProblem(f"a kid has 1-{MAX_KID} printable ASCII characters")
        clean.append(kept)
    kids = [k["kid"] for k in clean]
    if len(set(kids)) != len(kids):
        raise KeyProblem("two keys have one kid")
    return own, clean


@functools.lru_cache(maxsize=4096)
def _load(algorithm: str, x: str, y: str) -> Any:
    kty, crv = CURVES[algorithm]
    jwk = {"kty": kty, "crv": crv, "x": x, **({"y": y} if kty == "EC" else {})}
    return jwt.PyJWK(jwk, algorithm=algorithm).key


def verification_key(algorithm: str, public_keys: list[dict[str, Any]] | None, kid: object) -> Any:
    """The public key that verifies a JWT with header ``kid`` (the only key when the app has one
    and the JWT names none); a :class:`KeyProblem` says why there is none."""
    if algorithm not in CURVES or not public_keys:
        raise KeyProblem("the app has no public keys")
    if kid is None:
        if len(public_keys) != 1:
            raise KeyProblem("the app has several public keys: name one with the JWT header's kid")
        jwk = public_keys[0]
    else:
        found = [k for k in public_keys if k.get("kid") == kid]
        if not found:
            raise KeyProblem("no public key of the app has the JWT's kid")
        jwk = found[0]
    try:
        return _load(algorithm, jwk.get("x", ""), jwk.get("y", ""))
    except (jwt.PyJWTError, ValueError, KeyError) as exc:
        raise KeyProblem(f"the app's public key does not load: {exc}") from None
