"""The gateway's HTTP routers, one module per resource (docs/architecture.md "The gateway's
parts"): ``matches`` (matches, their commands, views, rules, replays and the match WebSocket),
``queue`` (quick match, seeks, open tables), ``accounts``, ``disputes``, ``ratings``
(leaderboards, player pages, finished matches), ``games`` (the catalogue), ``audit`` (bundles,
certificate keys) and ``ops`` (health).  Handlers are module-level functions; what they need
comes from :mod:`services.gateway.api.deps` through FastAPI ``Depends``; their replies are the
``response_model``s of :mod:`contracts.api`; they raise the typed errors of
:mod:`services.gateway.errors`, which maps them to statuses."""
