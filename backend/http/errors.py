"""Every failure leaves as the error shape `{"errors": {"code", "title", "details"?}}` — never a stack trace."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from backend.errors import BadRequest, FrontdeskError, NotFound, ValidationFailed

log = logging.getLogger("frontdesk.http")

HTTP_CODES = {405: ("method_not_allowed", "Method Not Allowed"),
              413: ("payload_too_large", "Payload Too Large"), 429: ("too_many_requests", "Too Many Requests")}


def error_response(error: FrontdeskError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status)


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
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return error_response(NotFound("no such route"))
        code, title = HTTP_CODES.get(exc.status_code, ("bad_request", "Bad Request"))
        return JSONResponse({"errors": {"code": code, "title": title}}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Only the exception's type is logged: its text or traceback might quote request data.
        log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
        return JSONResponse({"errors": {"code": "internal_error", "title": "Internal Error"}}, status_code=500)
