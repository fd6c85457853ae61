"""How big a request body each route takes: one table, enforced while the body streams in (backend/http/guard.py).

A route that is not in the table takes DEFAULT_BYTES. Bodies over LARGE_BYTES also need one of the process's
few large-body slots (`LargeBodies`), so that a handful of big parses, not hundreds, share its memory.
"""

from __future__ import annotations

import asyncio

from backend.core.config import Config, MiB

KiB = 1024
DEFAULT_BYTES = MiB  # a property with all its content, a rate plan, a message: tens of KB at most
# A booking is a few KB; ten rooms, each with a year of nightly prices, are 92 KB. 512 KiB leaves room for the
# rare huge one and channels' verbose `meta`, and keeps what hostile callers make the server parse small.
BOOKING_BYTES = 512 * KiB
ARI_BYTES = 10_000_000  # the service's own limit for ARI writes (reference/channex-api.md §2)
# A channel names its properties and mapped rate plans, with no cap on their number: 10 MB holds some 100,000 plans
# (their mappings' settings included) and is what bounds it.
CHANNEL_BYTES = 10_000_000
EMPTY_BYTES = KiB  # calls the service documents without a body: a client's `{}` at most
CARD_BYTES = 4 * KiB  # one card from the card form: a few hundred bytes
# A note or a saved reply: at most 10,000 characters, which JSON escapes may make 60,000 bytes; a thread PUT back
# as read carries its last message.
TEXT_BYTES = 64 * KiB
MULTIPART_BYTES = 64 * KiB  # a multipart body's boundaries and part headers around its file, with room to spare
LARGE_BYTES = MiB
LARGE_SLOTS = 2  # requests with a body over LARGE_BYTES in progress at once, per process
SLOT_WAIT = 5.0  # seconds a large body waits for a slot before it is answered 503


def body_limits(config: Config) -> dict[str, int]:
    """The most each route reads, by its path template."""
    return {
        "/api/v1/meta/{channel_name}/{property_id}/push_booking": BOOKING_BYTES,
        "/api/v1/bookings": BOOKING_BYTES,
        "/api/v1/bookings/{booking_id}/invalid_card": EMPTY_BYTES,
        "/api/v1/bookings/{booking_id}/cancel_due_invalid_card": EMPTY_BYTES,
        "/api/v1/inbound/{channel_id}/bookings": BOOKING_BYTES,
        "/api/v1/channels": CHANNEL_BYTES,
        "/api/v1/channels/{channel_id}": CHANNEL_BYTES,
        "/api/v1/availability": ARI_BYTES,
        "/api/v1/restrictions": ARI_BYTES,
        "/api/v1/attachments": config.max_body_bytes,
        "/api/v1/inbound/{channel_id}/attachments": config.max_body_bytes,
        "/api/v1/photos/upload": config.attachment_max_bytes + MULTIPART_BYTES,  # a photo as big as an attachment
        "/api/v1/tokenize": config.tokenise_max_bytes,
        "/api/v1/capture_form/cards": CARD_BYTES,
        "/api/v1/message_threads/{thread_id}": TEXT_BYTES,
        "/api/v1/message_threads/{thread_id}/notes": TEXT_BYTES,
        "/api/v1/message_templates": TEXT_BYTES,
        "/api/v1/message_templates/{template_id}": TEXT_BYTES,
        # A reply or a host's review of a guest: at most 5,000 characters a text; a review from a channel, three
        # texts of at most 10,000 and its scores.
        "/api/v1/reviews/{review_id}/reply": TEXT_BYTES,
        "/api/v1/reviews/{review_id}/guest_review": TEXT_BYTES,
        "/api/v1/inbound/{channel_id}/reviews": BOOKING_BYTES,
        "/api/v1/inbound/{channel_id}/reviews/{review_id}/{kind}/ack": EMPTY_BYTES,
        "/api/v1/inbound/{channel_id}/reviews/{review_id}/{kind}/fail": TEXT_BYTES,
    }


class LargeBodies:
    """The large-body slots of one process, shared by its listeners (one event loop)."""

    def __init__(self, slots: int = LARGE_SLOTS, wait: float = SLOT_WAIT) -> None:
        self.slots = asyncio.Semaphore(slots)
        self.wait = wait

    async def take(self) -> bool:
        """Whether a slot came free within `wait` seconds; the caller releases it once answered."""
        try:
            async with asyncio.timeout(self.wait):
                await self.slots.acquire()
        except TimeoutError:
            return False
        return True

    def release(self) -> None:
        self.slots.release()
