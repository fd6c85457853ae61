"""The static pages Frontdesk serves to browsers — the web chat (backend/http/routes/embed.py) and the card form
(backend/http/routes/card_form.py) — and the one strict policy their files are served under.

Each page is static (HTML, one script, one stylesheet, in web/) and talks to its own listener only."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources

from fastapi import Response

from backend.core.errors import NotFound

WEB = resources.files("backend.http") / "web"
NOBODY = "'none'"


def page_file(body: bytes, media_type: str, frame_ancestors: str, *, img_src: str | None = None) -> Response:
    """A file of a page: its own script, its own stylesheet and its own listener, nothing else (images only from
    `img_src`, when given); framed only by `frame_ancestors` (nobody when empty); no referrer, so the token in the
    page's address never leaves in a Referer header."""
    images = f"img-src {img_src}; " if img_src else ""
    return Response(body, media_type=media_type, headers={
        "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                    f"{images}base-uri 'none'; form-action 'none'; "
                                    f"frame-ancestors {frame_ancestors or NOBODY}"),
        "Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


def asset_file(name: str, assets: Mapping[str, str], page: str, frame_ancestors: str, *,
               img_src: str | None = None) -> Response:
    """One of a page's own files (`assets`: name → media type), under the page's policy; any other name a 404."""
    if name not in assets:
        raise NotFound(f"{page} has no file {name}")
    return page_file((WEB / name).read_bytes(), assets[name], frame_ancestors, img_src=img_src)
