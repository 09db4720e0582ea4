"""A synchronous HTTP transport for tests that drive the gateway hard: it honours the gateway's
rate limits as docs/api.md "Limits" asks of clients (the async ``gamehall.client`` does the same)."""

from __future__ import annotations

import time

import httpx


class PatientTransport(httpx.HTTPTransport):
    """On ``429`` wait ``Retry-After`` (the body's ``retry_after`` when finer) and send again."""

    ATTEMPTS = 50

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        for _ in range(self.ATTEMPTS):
            if response.status_code != 429:
                return response
            response.read()
            try:
                wait = float(response.json().get("retry_after") or response.headers.get("retry-after", 1))
            except ValueError:
                wait = 1.0
            response.close()
            time.sleep(min(max(wait, 0.01), 5.0))
            response = super().handle_request(request)
        return response
