"""Audit: a match's audit bundle and the public keys that sign match certificates.  Both are
msgspec contracts (``contracts.audit.AuditBundle``, ``contracts.certificate.KeySet``) encoded
as they are stored; their schemas in the OpenAPI description come from the same contracts
(``services.gateway.openapi``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from contracts.codecs import encode
from services.common.certificates import published_keys
from services.gateway.api.deps import gateway
from services.gateway.core import Gateway
from services.gateway.errors import errors

router = APIRouter(tags=["audit"])


@router.get(
    "/api/keys",
    summary="Public keys that sign match certificates (Ed25519, hex), with their validity",
    responses=errors(503),
)
async def keys(gw: Gateway = Depends(gateway)) -> Response:
    assert gw.nc is not None
    # no-cache: a client may keep the answer but asks again before using it, so a rotation
    # (docs/audit.md "Keys") is seen at once.
    return Response(
        encode(await published_keys(gw.nc.jetstream())),
        media_type="application/json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get(
    "/api/matches/{match_id}/export",
    summary="Audit bundle of a match",
    responses=errors(400, 404, 409, 503),
)
async def export(match_id: str, gw: Gateway = Depends(gateway)) -> Response:
    bundle = await gw.bundle(match_id)
    return Response(
        encode(bundle),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{match_id}.json"'},
    )
