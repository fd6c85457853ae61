"""Engine errors in the words staff read: labels and plain words, never the API's names or HTTP's titles."""

from __future__ import annotations

from backend.core.errors import ValidationFailed
from backend.vault.capture import BadGateway
from console.kit.labels import describe, title_for


def test_a_failed_capture_says_what_went_wrong_in_plain_words() -> None:
    error = BadGateway(["the target did not answer"])
    assert title_for(error) == "The other server's answer could not be used"
    assert describe(error) == "The other server's answer could not be used: the target did not answer"


def test_filter_operators_and_setting_names_read_as_labels() -> None:
    error = ValidationFailed({"filter[arrival_date][gte]": ["must be a date"],
                              "departure_date": ["is beyond the property's state_length (2028-04-06)"]})
    assert describe(error) == ("Arrival date from must be a date; "
                               "Departure date is beyond the property's “Inventory days” (2028-04-06)")


def test_placeholders_read_as_they_are_typed() -> None:
    """`{guest_name}` is what staff type in a saved reply: an error names it so, never as a label."""
    from backend.chat.placeholders import unknown_text

    error = ValidationFailed({"message": [unknown_text(["guest_nme"]) + " (not guest_name alone)"]})
    shown = describe(error)
    assert "{guest_nme}" in shown and "{guest_name}" in shown and "{booking_id}" in shown
    assert "“" not in shown.split("(")[0]  # no label among the placeholders
    assert shown.endswith("(not “Guest name” alone)")  # a bare API name still reads as its label
