"""What staff report to a booking's channel: a no-show, an invalid card, a cancellation for an invalid card.

As the service's Reporting API (https://docs.channex.io/api-v.1-documentation/bookings-collection, "Reporting
API") these are Booking.com's reports, under Booking.com's rules; a booking of any other channel answers 422
`not_supported`. Times are the property's own.
- no_show (`waived_fees`: whether the property waives the no-show fee): from 00:00 of the arrival date for
  48 hours, for a booking neither cancelled nor overbooked. The booking stays as it is: what the channel
  makes of it comes back as a revision of its own, through its adapter, like any change.
- invalid_card: from the booking until midnight at the end of its arrival date, for a booking with a card,
  not cancelled.
- cancel_due_invalid_card: after an invalid_card report, once the guest has had the time the channel gives to
  send another card: 24 hours; for a booking made within 48 hours of its arrival, 12 hours or until 15:00 of
  the arrival date, whichever comes first, but at least 2 hours; for such a booking of 10 room nights or more,
  2 hours. It cancels the booking (a cancelled revision; its rooms come back as the property's settings say).
Each kind once per booking (a second is 422). Every report is kept on the booking, which shows them, and waits
in its channel's report feed (`GET /api/v1/inbound/:channel_id/reports`) until the channel's adapter has told
the channel and acknowledged it, as it does the property's chat replies in the outbox.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, cast
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, StrictBool
from pydantic_core import from_json

from backend.bookings.access import booking_row
from backend.bookings.store import (
    insert_report,
    is_channel_report,
    mark_report_delivered,
    report_feed_page,
    reported_kinds,
    reports_of_bookings,
    revision_attributes,
)
from backend.core.errors import NotFound, NotSupported, ValidationFailed
from backend.core.listing import ListQuery
from backend.core.validation import validate
from backend.identity.models import Actor
from storage import Row, Store, new_id

if TYPE_CHECKING:
    from backend.bookings.service import Bookings

REPORTING = ("BookingCom",)  # the channels that take reports, as with the service


class NoShowInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    waived_fees: StrictBool = False


class NoShowEnvelope(BaseModel):
    no_show_report: NoShowInput


class BookingReports:
    def __init__(self, store: Store, bookings: Bookings, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.bookings = bookings
        self.clock = clock

    # --- staff ---------------------------------------------------------------------------------

    def no_show(self, actor: Actor, booking_id: str, data: Any) -> dict[str, Any]:
        model = validate(NoShowInput, data)
        return self._report(actor, booking_id, "no_show", waived_fees=model.waived_fees)

    def invalid_card(self, actor: Actor, booking_id: str) -> dict[str, Any]:
        return self._report(actor, booking_id, "invalid_card")

    def cancel_due_invalid_card(self, actor: Actor, booking_id: str) -> dict[str, Any]:
        return self._report(actor, booking_id, "cancel_due_invalid_card")

    def _report(self, actor: Actor, booking_id: str, kind: str, waived_fees: bool | None = None) -> dict[str, Any]:
        with self.store.transaction() as conn:
            row = booking_row(self.store, actor, booking_id)
            if row["channel_code"] not in REPORTING:
                raise NotSupported("reports go to Booking.com only; this booking's channel takes none")
            booking = from_json(cast(str, revision_attributes(self.store, row["revision_id"])))  # a booking's revision
            reported = reported_kinds(self.store, booking_id)
            Rules(row, booking, reported, self.clock()).check(kind)
            report_id, now = new_id(), _stamp(self.clock())
            insert_report(conn, report_id, booking_id, row["channel_id"], kind, waived_fees, actor.user_id, now)
            status = self.bookings.cancel_taken(row)["status"] if kind == "cancel_due_invalid_card" else row["status"]
        self.bookings.events.publish("booking.changed", booking_id, status=status, property_id=row["property_id"],
                                     report=kind)
        return self.bookings.get(actor, booking_id)

    # --- the channel's adapter -----------------------------------------------------------------

    def feed(self, channel: Row, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The channel's reports its adapter has not acknowledged yet, oldest first."""
        rows, meta = report_feed_page(self.store, query, channel["id"])
        return [{**_as_report(r), "booking_id": r["booking_id"], "property_id": r["property_id"],
                 "unique_id": r["unique_id"], "ota_reservation_code": from_json(r["shown"])["reservation_id"]}
                for r in rows], meta

    def delivered(self, channel: Row, report_id: str) -> None:
        if not is_channel_report(self.store, report_id, channel["id"]):
            raise NotFound(f"report {report_id} is not one of this channel")
        with self.store.transaction() as conn:
            mark_report_delivered(conn, report_id, _stamp(self.clock()))
        self.bookings.events.publish("booking.reported", report_id)



def reports_of(store: Store, booking_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The reports of each booking, oldest first."""
    found: dict[str, list[dict[str, Any]]] = {booking_id: [] for booking_id in booking_ids}
    for row in reports_of_bookings(store, booking_ids):
        found[row["booking_id"]].append(_as_report(row))
    return found


def _as_report(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "report": row["kind"],
            "waived_fees": None if row["waived_fees"] is None else bool(row["waived_fees"]),
            "inserted_at": row["inserted_at"], "delivered_at": row["delivered_at"]}


class NotYet(ValidationFailed):
    """A report refused for its date: the same 422 for HTTP clients; staff read `sentence`, a plain line, not a
    form's "some fields need fixing" (nothing they typed is wrong)."""

    def __init__(self, field: str, message: str, sentence: str) -> None:
        super().__init__({field: [message]})
        self.sentence = sentence


class Rules:
    """Whether a report may be made now: Booking.com's rules, in the property's time."""

    def __init__(self, row: Row, booking: dict[str, Any], reported: dict[str, str], now: datetime) -> None:
        self.row, self.booking, self.reported = row, booking, reported
        self.zone = ZoneInfo(row["timezone"]) if row["timezone"] else UTC
        self.now = now.astimezone(self.zone)
        self.arrival = datetime.combine(date.fromisoformat(row["arrival_date"]), time(), self.zone)

    def check(self, kind: str) -> None:
        # Each message reads after its field's name ("Arrival date allows a no-show ..."), as the console shows it.
        if kind in self.reported:
            raise ValidationFailed.one(kind, f"was already reported ({self.reported[kind]} UTC)")
        if self.row["status"] == "cancelled":
            raise ValidationFailed.one("status", "is cancelled")
        getattr(self, f"_{kind}")()

    def _no_show(self) -> None:
        if self.row["is_overbooked"]:
            raise ValidationFailed.one("is_overbooked", "bookings can't be reported as a no-show")
        if not self.arrival <= self.now < self.arrival + timedelta(hours=48):
            early = self.now < self.arrival
            raise NotYet("arrival_date", f"({self.row['arrival_date']}) allows a no-show from its 00:00 for 48 hours",
                         "A no-show can be marked from the arrival day on" if early else
                         "A no-show can be marked for 48 hours from the arrival day's start: that time has passed")

    def _invalid_card(self) -> None:
        if not self.booking.get("guarantee"):
            raise ValidationFailed.one("guarantee", "holds no card to report")
        if self.now >= self.arrival + timedelta(days=1):
            raise ValidationFailed.one("arrival_date", f"({self.row['arrival_date']}) has passed: an invalid card is "
                                                       "reported until the end of it")

    def _cancel_due_invalid_card(self) -> None:
        if "invalid_card" not in self.reported:
            raise ValidationFailed.one("invalid_card", "must be reported first, and the guest given time to send "
                                                       "another card")
        until = self.grace_end(_utc(self.reported["invalid_card"]))
        if self.now < until:
            raise ValidationFailed.one("invalid_card", "was reported: the guest may send another card until "
                                                       f"{until.strftime('%Y-%m-%d %H:%M')} (property time)")

    def grace_end(self, reported: datetime) -> datetime:
        """When the guest's time to send another card is over (in the property's time)."""
        reported = reported.astimezone(self.zone)
        if _utc(self.row["inserted_at"]) < self.arrival - timedelta(hours=48):
            return reported + timedelta(hours=24)
        if self._room_nights() >= 10:
            return reported + timedelta(hours=2)
        afternoon = self.arrival + timedelta(hours=15)
        return max(min(reported + timedelta(hours=12), afternoon), reported + timedelta(hours=2))

    def _room_nights(self) -> int:
        nights = (date.fromisoformat(self.row["departure_date"]) - date.fromisoformat(self.row["arrival_date"])).days
        return nights * len(self.booking["rooms"])


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")


def _utc(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp).replace(tzinfo=UTC)
