"""Domain errors. Every layer above the engine reports these and invents none of its own.

An error's details are masked when it is made (backend/core/card_data.py), keys too: whatever a message quotes of
what was sent (a name, an id, a field of an unknown name), no answer or log line ever carries a card from it.
"""

from __future__ import annotations

from typing import Any

from backend.core.card_data import mask_cards_in


class FrontdeskError(Exception):
    status = 500
    code = "internal_error"
    title = "Internal Error"
    retry_after: int | None = None  # seconds after which an answer about load invites the caller back (Retry-After)

    def __init__(self, details: Any = None) -> None:
        details = mask_cards_in(details)
        super().__init__(self.title if details is None else f"{self.title}: {details}")
        self.details = details

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "title": self.title}
        if self.details is not None:
            error["details"] = self.details
        return {"errors": error}


class BadRequest(FrontdeskError):
    status, code, title = 400, "bad_request", "Bad Request"


class Unauthorized(FrontdeskError):
    status, code, title = 401, "unauthorized", "Unauthorized"


class Forbidden(FrontdeskError):
    status, code, title = 403, "forbidden", "Forbidden"


class NotFound(FrontdeskError):
    status, code, title = 404, "not_found", "Not Found"


class ResourceNotFound(NotFound):
    """The service's other 404, on changing or deleting what is not there (taxes and tax sets, §10; property and group
    users, §11; photos, §12)."""

    code, title = "resource_not_found", "Resource Not Found"


class NotFoundAsSpelt(NotFound):
    """The service's `not_found` with its title as it spells it on some reads (reviews' reply and scores, §8;
    availability rules, §9)."""

    title = "Resouce Not Found"


class RequestTimeout(FrontdeskError):
    status, code, title = 408, "request_timeout", "Request Timeout"


class PayloadTooLarge(FrontdeskError):
    status, code, title = 413, "payload_too_large", "Payload Too Large"


class _TryLater(FrontdeskError):
    def __init__(self, retry_after: int, details: Any = None) -> None:
        super().__init__(details)
        self.retry_after = retry_after


class TooManyRequests(_TryLater):
    """Too many failed credentials from one client address, or card forms opened; the service's own code."""

    status, code, title = 429, "http_too_many_requests", "Too Many Requests"


class ServiceUnavailable(_TryLater):
    status, code, title = 503, "service_unavailable", "Service Unavailable"


class NotSupported(FrontdeskError):
    status, code, title = 422, "not_supported", "Not Supported"


class ValidationFailed(FrontdeskError):
    """422 with details `{"field": ["message", ...]}`, nested fields dotted."""

    status, code, title = 422, "validation_error", "Validation Error"

    details: dict[str, list[str]]

    @classmethod
    def one(cls, field: str, message: str) -> ValidationFailed:
        return cls({field: [message]})


class Errors:
    """Collects field errors so that every bad field is reported at once, not just the first."""

    def __init__(self) -> None:
        self.details: dict[str, list[str]] = {}

    def add(self, field: str, message: str) -> None:
        self.details.setdefault(field, []).append(message)

    def merge(self, details: dict[str, list[str]], prefix: str = "") -> None:
        for field, messages in details.items():
            for message in messages:
                self.add(f"{prefix}{field}", message)

    def __bool__(self) -> bool:
        return bool(self.details)

    def raise_if_any(self) -> None:
        if self.details:
            raise ValidationFailed(self.details)


class CannotStart(Exception):
    """A server that cannot start as configured (a port taken, the limits' Redis silent): one line for the
    operator, before anything is served."""
