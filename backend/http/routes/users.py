"""Property users and group users (reference §11.2): invite, list, read, change a role, withdraw. Errors in the
envelope of §2; the 400s keep Frontdesk's dict of field -> messages where the service gives a bare string."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.identity.models import GroupUserEnvelope, InviteEnvelope, PropertyUserEnvelope

router = APIRouter(prefix="/api/v1", tags=["users"])
Invite = Depends(envelope("invite"))
PropertyUser = Depends(envelope("property_user"))
GroupUser = Depends(envelope("group_user"))


def member_entity(kind: str, m: dict[str, Any]) -> dict[str, Any]:
    holder = f"{kind}_id"
    return entity(f"{kind}_user", {k: v for k, v in m.items() if k != "user"},
                  {kind: {"data": {"id": m[holder], "type": kind}}, "user": {"data": m["user"]}})


@router.get("/property_users", openapi_extra=list_params("property_id", "user_id", "role", "email"))
async def list_property_users(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """The users given the properties you reach (`filter[property_id]` for one), by email."""
    items, meta = engine.property_users.list(actor, query)
    return many([member_entity("property", m) for m in items], meta)


@router.post("/property_users", status_code=201, openapi_extra=body_doc(InviteEnvelope))
def invite_property_user(engine: EngineDep, actor: ActorDep, data: Any = Invite) -> FastJSON:
    """An owner gives a property to a user by address (made if unknown; its token by `frontdesk tokens add`)."""
    return one(member_entity("property", engine.property_users.invite(actor, data)), 201)


@router.get("/property_users/{member_id}")
async def get_property_user(member_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(member_entity("property", engine.property_users.get(actor, member_id)))


@router.put("/property_users/{member_id}", openapi_extra=body_doc(PropertyUserEnvelope))
def update_property_user(member_id: str, engine: EngineDep, actor: ActorDep, data: Any = PropertyUser) -> FastJSON:
    """Only `role` and `overrides` change; an owner's call."""
    return one(member_entity("property", engine.property_users.update(actor, member_id, data)))


@router.delete("/property_users/{member_id}")
def withdraw_property_user(member_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The user loses the property at their next request; not yourself, nor the last owner (400)."""
    engine.property_users.withdraw(actor, member_id)
    return success()


@router.get("/group_users", openapi_extra=list_params("group_id", "user_id", "role", "email"))
async def list_group_users(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """The users of your groups (`filter[group_id]` for one), by email."""
    items, meta = engine.group_users.list(actor, query)
    return many([member_entity("group", m) for m in items], meta)


@router.post("/group_users", status_code=201, openapi_extra=body_doc(InviteEnvelope))
def invite_group_user(engine: EngineDep, actor: ActorDep, data: Any = Invite) -> FastJSON:
    """An owner gives a group, and so every property in it, to a user by address."""
    return one(member_entity("group", engine.group_users.invite(actor, data)), 201)


@router.get("/group_users/{member_id}")
async def get_group_user(member_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(member_entity("group", engine.group_users.get(actor, member_id)))


@router.put("/group_users/{member_id}", openapi_extra=body_doc(GroupUserEnvelope))
def update_group_user(member_id: str, engine: EngineDep, actor: ActorDep, data: Any = GroupUser) -> FastJSON:
    return one(member_entity("group", engine.group_users.update(actor, member_id, data)))


@router.delete("/group_users/{member_id}")
def withdraw_group_user(member_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.group_users.withdraw(actor, member_id)
    return success()
