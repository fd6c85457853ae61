"""The service's Photos collection (reference §12): a property's and its room types' photos, the same rows as their
`content.photos`, and the upload whose url a photo may show."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from backend.core.errors import BadRequest, ValidationFailed
from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.inventory.models import PhotoEnvelope

router = APIRouter(prefix="/api/v1/photos", tags=["photos"])
Photo = Depends(envelope("photo"))
UPLOAD_DOC = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["photo"], "properties": {"photo": {"type": "string", "format": "binary"}}}}}}}
UPLOADED: dict[int | str, dict[str, Any]] = {
    200: {"description": "The url to give a photo (`url` of POST /photos or of an item of content.photos)",
          "content": {"application/json": {"schema": {
              "type": "object", "required": ["url"], "properties": {"url": {"type": "string"}}}}}}}


def photo_entity(p: dict[str, Any]) -> dict[str, Any]:
    return entity("photo", p)


@router.get("", openapi_extra=list_params("property_id", "room_type_id", "kind"))
async def list_photos(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Photos of the account's properties, each property's own then each room type's, in place order."""
    items, meta = engine.inventory.photos.list(actor, query)
    return many([photo_entity(p) for p in items], meta)


@router.post("", status_code=201, openapi_extra=body_doc(PhotoEnvelope))
def create_photo(engine: EngineDep, actor: ActorDep, data: Any = Photo) -> FastJSON:
    """`position` 0 is the cover; a taken one pushes that photo and those after it down; none: last."""
    return one(photo_entity(engine.inventory.photos.create(actor, data)), 201)


@router.post("/upload", responses=UPLOADED, openapi_extra=UPLOAD_DOC)
async def upload_photo(request: Request, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """A PNG, JPEG, GIF or WebP image in the multipart field `photo` (its bytes say which), at most the attachments'
    size (413 beyond). Kept and served by Frontdesk at the url answered; an upload that no photo shows within a day
    is deleted."""
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise BadRequest(["the body must be multipart/form-data with the image in the field photo"])
    async with request.form(max_files=1, max_fields=8) as form:
        photo = form.get("photo")
        if not isinstance(photo, UploadFile):
            raise ValidationFailed.one("photo", "can't be blank: send the image as the file of the field photo")
        data = await photo.read(engine.media.upload_max_bytes + 1)
    return FastJSON({"url": await run_in_threadpool(engine.media.upload, data)})


@router.get("/{photo_id}")
async def get_photo(photo_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(photo_entity(engine.inventory.photos.get(actor, photo_id)))


@router.put("/{photo_id}", openapi_extra=body_doc(PhotoEnvelope))
def update_photo(photo_id: str, engine: EngineDep, actor: ActorDep, data: Any = Photo) -> FastJSON:
    """Only the fields sent change; a new `position` moves it there, a new `room_type_id` (or null) to that list."""
    return one(photo_entity(engine.inventory.photos.update(actor, photo_id, data)))


@router.delete("/{photo_id}")
def delete_photo(photo_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The photos after it move up one place."""
    engine.inventory.photos.delete(actor, photo_id)
    return success()
