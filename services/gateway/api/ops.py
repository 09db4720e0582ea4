"""Operations on the public port: liveness and readiness (the Prometheus ``/metrics`` is on the
operators' own port)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from contracts.api import Health, Readiness
from services.common.health import Check, nats_checks, not_yet, readiness, record, referee_answers
from services.gateway.api.deps import PLAIN, gateway
from services.gateway.core import Gateway

router = APIRouter(tags=["ops"])


def readiness_checks(gw: Gateway) -> dict[str, Check]:
    """The gateway's readiness checks: NATS connected, the streams answer, a referee answers
    (``/readyz`` and the sampled ``gamehall_ready_check`` gauges)."""
    if gw.nc is None:
        return {"nats": not_yet("not connected to NATS")}
    return {**nats_checks(gw.nc), "referee": referee_answers(gw.nc)}


@router.get(
    "/healthz", summary="Liveness: the gateway process answers", response_model=Health, response_class=PLAIN
)
async def healthz() -> Health:
    return Health(ok=True)


@router.get(
    "/readyz",
    summary="Readiness: NATS connected, streams reachable, a referee answering",
    response_model=Readiness,
    responses={503: {"description": "not ready; `checks` names what fails"}},
)
async def readyz(gw: Gateway = Depends(gateway)) -> Response:
    ready, checks = await readiness(readiness_checks(gw))
    record(checks)
    # which start of the stack this gateway belongs to (`gamehall up` checks it is its own)
    instance = {"instance": gw.settings.instance} if gw.settings.instance else {}
    if ready:
        return JSONResponse({"ready": True, "checks": checks, **instance})
    return JSONResponse(
        {
            "code": "unavailable",
            "detail": "the gateway is not ready",
            "retry_after": 1,
            "checks": checks,
            **instance,
        },
        status_code=503,
        headers={"Retry-After": "1"},
    )
