"""The inbox's search over every message (`filter[search]`), over real HTTP on both stores: the words of any message
of a thread, not only its last, found whatever their case or accents, the threads ranked by their best message,
each with that message's words around the ones searched for (`search_snippet`, matches in <mark>…</mark>); never
another group's thread, and never an error for what a user types."""

from __future__ import annotations

import pytest

from backend.chat.store import THREAD_SEARCH, rare_words
from backend.core.listing import ListQuery
from backend.core.store import rarest_part
from storage import new_id
from tests.chat.test_chat_api import Desk
from tests.conftest import CONTACT
from tests.shopping.shop import booking, check, day


@pytest.fixture
def desk(user, live):
    return Desk(user, live)


def search(desk: Desk, text: str, **params) -> dict:
    return check(desk.client.get("/api/v1/message_threads", params={"filter[search]": text, **params}))


def another_thread(desk: Desk, nights_from: int, text: str) -> str:
    body = booking(desk.shop, day(nights_from), day(nights_from + 1), property_id=desk.shop.property_id)
    booking_id = check(desk.adapter.post(f"{desk.inbound}/bookings", json=body), 201)["data"]["id"]
    return check(desk.adapter.post(f"{desk.inbound}/messages", json={"message": {
        "booking_id": booking_id, "message": text}}))["data"]["relationships"]["message_thread"]["data"]["id"]


def test_a_word_of_an_older_message_is_found_and_shown_marked(desk):
    desk.guest_says("Could we have a baby cot in the room, please?")
    desk.guest_says("We arrive late, around midnight.")  # the thread's last message now
    thread_id = desk.thread_id()
    body = search(desk, "COT")
    assert [t["id"] for t in body["data"]] == [thread_id]
    snippet = body["data"][0]["attributes"]["search_snippet"]
    assert "<mark>cot</mark>" in snippet and "room" in snippet  # the older message's words
    assert body["meta"]["total"] == 1
    plain = check(desk.client.get("/api/v1/message_threads"))["data"][0]["attributes"]
    assert "search_snippet" not in plain  # only a search's rows carry one


def test_case_and_accents_fold_and_the_last_word_is_a_start(desk):
    desk.guest_says("Le petit-déjeuner est-il inclus? Merci, Zoë")
    desk.guest_says("ok")
    thread_id = desk.thread_id()
    for text in ("DEJEUNER", "déjeuner", "zoe", "Zoë", "petit dej", "inclu"):
        assert [t["id"] for t in search(desk, text)["data"]] == [thread_id], text
    snippet = search(desk, "zoe")["data"][0]["attributes"]["search_snippet"]
    assert "<mark>Zoë</mark>" in snippet
    assert search(desk, "dejeuner lunch")["data"] == []  # every word is needed


def test_threads_are_ranked_by_their_best_message(desk):
    once = another_thread(desk, 10, "Is there a towel in the room? We also need soap and a hairdryer.")
    often = another_thread(desk, 14, "Towel, towel: the towel is missing")  # the newest thread
    assert [t["id"] for t in search(desk, "towel")["data"]] == [often, once]
    unrelated = another_thread(desk, 18, "Parking?")
    assert unrelated not in {t["id"] for t in search(desk, "towel")["data"]}


def test_another_groups_thread_is_never_found(desk, make_user, live):
    desk.guest_says("The secret word is xylophone")
    stranger = Desk(make_user(), live)
    stranger.guest_says("Hello")
    assert search(stranger, "xylophone")["data"] == []
    assert len(search(desk, "xylophone")["data"]) == 1


@pytest.mark.parametrize("text", ['"', '""', "*", "a*", "NEAR(a b)", "cot NEAR cot", "AND", "OR NOT", "^cot",
                                  "col:cot", "cot & !x", "(cot", "'", "-cot", "cot:*", "\\", "?!", "     "])
def test_what_a_user_types_never_breaks_the_search(desk, text):
    desk.guest_says("A baby cot and NEAR the window, AND quiet")
    found = search(desk, text)
    assert isinstance(found["data"], list)


def test_a_search_too_long_is_refused(desk):
    assert check(desk.client.get("/api/v1/message_threads", params={"filter[search]": "x" * 201}), 422)
    assert check(desk.client.get("/api/v1/message_threads", params={"filter[search]": "x", "order[nope]": "asc"}),
                 422)  # a search keeps its own order, but an unknown field is still refused


def test_a_search_keeps_the_other_filters(desk):
    desk.guest_says("Where is the sauna?")
    thread_id = desk.thread_id()
    assert [t["id"] for t in search(desk, "sauna", **{"filter[is_closed]": "false"})["data"]] == [thread_id]
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/close"))
    assert search(desk, "sauna", **{"filter[is_closed]": "false"})["data"] == []
    assert [t["id"] for t in search(desk, "sauna", **{"filter[is_closed]": "true"})["data"]] == [thread_id]


def test_a_search_too_common_to_rank_comes_newest_match_first_with_a_bounded_total(desk, monkeypatch):
    """Past RANKED matching messages (500; 2 here) a search is not weighed: its threads come newest match first,
    read only as far as the page and one thread more, the total saying so (`total_at_least`)."""
    often = another_thread(desk, 10, "Lantern, lantern: the lantern is broken")  # the best match, the oldest
    others = [another_thread(desk, 12 + 2 * n, f"A lantern please ({n})") for n in range(4)]
    ranked = search(desk, "lantern")
    assert ranked["meta"]["order_by"] == "relevance" and ranked["data"][0]["id"] == often
    assert ranked["meta"]["total"] == 5 and "total_at_least" not in ranked["meta"]
    monkeypatch.setattr("backend.chat.store.RANKED", 2)
    first = search(desk, "lantern", **{"pagination[limit]": "1"})
    assert first["meta"]["order_by"] == "last_match"
    assert [t["id"] for t in first["data"]] == [others[-1]]
    assert first["meta"]["total_at_least"] is True and 1 <= first["meta"]["total"] < 5  # more than that
    assert "<mark>lantern</mark>" in first["data"][0]["attributes"]["search_snippet"]
    every = [t["id"] for page in (1, 2, 3) for t in search(desk, "lantern", **{
        "pagination[limit]": "2", "pagination[page]": str(page)})["data"]]
    assert every == [*reversed(others), often]
    last = search(desk, "lantern", **{"pagination[limit]": "2", "pagination[page]": "3"})["meta"]
    assert (last["total"], last.get("total_at_least", False)) == (5, False)  # read to the end: the whole count


def test_the_last_word_is_completed_from_the_index_however_many_words_it_starts(desk, monkeypatch):
    """On SQLite the last word stands for the index's words it starts, ORed (COMPLETIONS at most; past that, and on
    PostgreSQL, the index's own query of a start): either way the same threads are found."""
    one = another_thread(desk, 10, " ".join(f"zebra{n}" for n in range(20)))
    other = another_thread(desk, 14, "A zebra19 and a quagga")
    for text, found in (("zebr", {one, other}), ("zebra1", {one, other}), ("zebra19 quag", {other}),
                        ("zebra7", {one}), ("zebra190", set()), ("quagga zebra2", set())):
        assert {t["id"] for t in search(desk, text)["data"]} == found, text
    monkeypatch.setattr("backend.chat.store.COMPLETIONS", 1)
    assert {t["id"] for t in search(desk, "zebra1")["data"]} == {one, other}
    assert {t["id"] for t in search(desk, "quagga zebr")["data"]} == {other}  # the start taken for common, unread


def test_a_rare_word_with_a_common_one_is_read_and_ranked_by_the_rare_one(desk, monkeypatch, live):
    """A word at most RANKED messages hold (2 here, 500 in use) typed with one more hold decides what is read
    (`rare_words`: on PostgreSQL GIN by the rare word, each message tested for all; on SQLite bm25 of the rare word
    alone): the same threads are found, ranked, their total exact, whichever way is read."""
    best = another_thread(desk, 10, "Wombat, wombat: a quokka near the wombat")
    other = another_thread(desk, 14, "A wombat and a quokka")
    for n in range(3):
        another_thread(desk, 18 + 2 * n, f"A quokka only ({n})")
    monkeypatch.setattr("backend.chat.store.RANKED", 2)
    engine = live[0]
    terms = engine.chat.word_queries("wombat quok")
    if engine.store.dialect.name == "sqlite":  # counted; PostgreSQL's planner guesses from its statistics
        assert rare_words(engine.store, terms) == terms[0]
    for driven in (False, True):
        if driven:  # the rare word's read whatever the planner guesses
            monkeypatch.setattr("backend.chat.store.rare_words", lambda store, terms: terms[0])
        body = search(desk, "wombat quok")
        assert [t["id"] for t in body["data"]] == [best, other], driven
        assert body["meta"]["order_by"] == "relevance" and body["meta"]["total"] == 2
        assert "total_at_least" not in body["meta"]
        snippet = body["data"][1]["attributes"]["search_snippet"]
        assert "<mark>wombat</mark>" in snippet and "<mark>quokka</mark>" in snippet  # every word marked
    assert rare_words(engine.store, engine.chat.word_queries("wombat")) is None  # one word: nothing to choose


def test_a_title_search_narrowed_to_its_rarest_word_still_needs_the_whole_text(desk, monkeypatch):
    """On PostgreSQL a text whose words are rare but one is found along the trigram index by its rarest word
    (`rarest_part`), each thread found tested for the whole text as typed: forced here on both stores, with texts no
    message holds the words of ("711" is no word of them)."""
    wanted = another_thread(desk, 10, "Room 4711 for Ms Quibble")
    another_thread(desk, 14, "Room 4711 for Mr Quibble")
    another_thread(desk, 18, "Ms Quibble, room 4711")
    monkeypatch.setattr("backend.chat.store.rarest_part", lambda store, search, text: "711")
    for text in ("711 for Ms Qu", "711 FOR MS"):
        assert [t["id"] for t in search(desk, text)["data"]] == [wanted], text


def test_a_guests_name_is_found_along_its_rarest_word_on_postgresql(engine):
    """Threads of `Guest 00000 Smith`…, the thread search's trigrams of "Guest" in every one: on PostgreSQL, after
    ANALYZE, the search of one guest's name is made along the index by its number alone (the planner's estimates:
    `rarest_part`), on SQLite as typed (FTS5 reads a phrase's rarest trigram first). One thread found either way."""
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Names", "currency": "EUR", **CONTACT})["id"]
    engine.applications.install(operator, {"property_id": prop, "application_code": "chat"})
    channel = engine.channels.create(operator, {"title": "Booking.com", "channel_code": "BookingCom",
                                                "property_ids": [prop]})["id"]
    at = "2026-01-01T00:00:00.000000"
    with engine.store.transaction() as conn:
        conn.executemany("INSERT INTO message_threads (id, property_id, channel_id, provider, title, message_count, "
                         "unread_count, last_message_received_at, inserted_at, updated_at) "
                         "VALUES (?, ?, ?, 'BookingCom', ?, 0, 0, ?, ?, ?)",
                         [(new_id(), prop, channel, f"Guest {n:05d} Smith", at, at, at) for n in range(300)])
    with engine.store.transaction() as conn:
        conn.execute("ANALYZE")
    postgres = engine.store.dialect.name == "postgresql"
    assert rarest_part(engine.store, THREAD_SEARCH[engine.store.dialect.name], "Guest 00042 ") == (
        "00042" if postgres else None)
    query = ListQuery.from_params([("filter[search][has]", "Guest 00042 ")])
    rows, meta = engine.chat.threads(operator, query)
    assert [row["title"] for row in rows] == ["Guest 00042 Smith"] and meta["total"] == 1
