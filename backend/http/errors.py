"""Every failure leaves as the error shape `{"errors": {"code", "title", "details"?}}` — never a stack trace.
An exception that no handler here takes is the guard's (backend/http/guard.py): a 500, logged by type only."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from backend.core.errors import BadRequest, FrontdeskError, NotFound, ValidationFailed

HTTP_CODES = {405: ("method_not_allowed", "Method Not Allowed"),
              413: ("payload_too_large", "Payload Too Large"), 429: ("http_too_many_requests", "Too Many Requests")}


def error_response(error: FrontdeskError) -> JSONResponse:
    headers = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(FrontdeskError)
    async def domain_error(_: Request, exc: FrontdeskError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def request_invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            return error_response(BadRequest(["the body is not valid JSON"]))
        details: dict[str, list[str]] = {}
        for e in exc.errors():
            details.setdefault(".".join(str(p) for p in e["loc"][1:]) or "base", []).append(e["msg"])
        return error_response(ValidationFailed(details))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return error_response(NotFound("no such route"))
        code, title = HTTP_CODES.get(exc.status_code, ("bad_request", "Bad Request"))
        allowed = _allowed(request) if exc.status_code == 405 else None
        headers = {"Allow": allowed} if allowed else getattr(exc, "headers", None)
        return JSONResponse({"errors": {"code": code, "title": title}}, status_code=exc.status_code, headers=headers)


def _allowed(request: Request) -> str:
    """Every method of the requested path: Starlette's 405 names only those of the first route that matched
    it (GET, where the path also takes PUT and DELETE). The app's own routes (its document, its docs) are
    searched with the routers' operations, which the app may hold only inside an included router."""
    methods: set[str] = set()
    for route in [*request.app.router.routes, *request.app.state.operations]:
        if route.matches(request.scope)[0] is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods))
