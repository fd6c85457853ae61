"""Pagination, filters and options of the property list."""

from __future__ import annotations

import pytest

from tests.conftest import property_body


@pytest.fixture
def portfolio(user):
    titles = [f"Hotel {i:02d}" for i in range(1, 24)] + ["Seaside Lodge", "Mountain Lodge"]
    ids = {}
    for title in titles:
        data = user.client.post("/api/v1/properties", json=property_body(title=title, is_active=title != "Hotel 05"))
        ids[title] = data.json()["data"]["id"]
    return user, ids


def test_default_page_is_10_with_meta(portfolio):
    user, _ = portfolio

    body = user.client.get("/api/v1/properties").json()

    assert len(body["data"]) == 10
    assert body["meta"] == {"page": 1, "limit": 10, "total": 25}


def test_pages_walk_the_whole_list_once(portfolio):
    user, ids = portfolio
    seen = []
    for page in (1, 2, 3):
        body = user.client.get("/api/v1/properties", params={"pagination[page]": page, "pagination[limit]": 10}).json()
        seen += [p["attributes"]["title"] for p in body["data"]]

    assert sorted(seen) == sorted(ids) and len(seen) == len(set(seen))
    past = user.client.get("/api/v1/properties", params={"pagination[page]": 4}).json()
    assert past["data"] == [] and past["meta"]["total"] == 25


def test_title_filters(portfolio):
    user, ids = portfolio

    exact = user.client.get("/api/v1/properties", params={"filter[title]": "Seaside Lodge"}).json()
    contains = user.client.get("/api/v1/properties", params={"filter[title][has]": "lodge"}).json()

    assert [p["id"] for p in exact["data"]] == [ids["Seaside Lodge"]]
    assert {p["attributes"]["title"] for p in contains["data"]} == {"Seaside Lodge", "Mountain Lodge"}


def test_has_treats_wildcards_literally(portfolio):
    user, _ = portfolio

    assert user.client.get("/api/v1/properties", params={"filter[title][has]": "%"}).json()["data"] == []


def test_id_and_is_active_filters(portfolio):
    user, ids = portfolio

    by_ids = user.client.get("/api/v1/properties",
                             params={"filter[id]": f"{ids['Hotel 01']},{ids['Hotel 02']}"}).json()
    inactive = user.client.get("/api/v1/properties", params={"filter[is_active]": "false"}).json()
    active = user.client.get("/api/v1/properties", params={"filter[is_active]": "true"}).json()

    assert {p["attributes"]["title"] for p in by_ids["data"]} == {"Hotel 01", "Hotel 02"}
    assert [p["attributes"]["title"] for p in inactive["data"]] == ["Hotel 05"]
    assert active["meta"]["total"] == 24


def test_filters_combine_and_order(portfolio):
    user, _ = portfolio

    body = user.client.get("/api/v1/properties", params={
        "filter[title][has]": "Hotel 1", "filter[is_active]": "true", "order[title]": "desc"}).json()

    assert [p["attributes"]["title"] for p in body["data"]][:3] == ["Hotel 19", "Hotel 18", "Hotel 17"]


@pytest.mark.parametrize("params,key", [
    ({"pagination[page]": "0"}, "pagination[page]"),
    ({"pagination[page]": "two"}, "pagination[page]"),
    ({"pagination[page]": "²"}, "pagination[page]"),
    ({"pagination[limit]": "٣"}, "pagination[limit]"),
    ({"pagination[page]": "9" * 5000}, "pagination[page]"),
    ({"pagination[limit]": "101"}, "pagination[limit]"),
    ({"filter[colour]": "blue"}, "filter[colour]"),
    ({"filter[title][like]": "x"}, "filter[title][like]"),
    ({"filter[is_active]": "maybe"}, "filter[is_active]"),
    ({"order[title]": "sideways"}, "order[title]"),
    ({"order[colour]": "asc"}, "order[colour]"),
])
def test_bad_list_arguments_are_422(user, params, key):
    response = user.client.get("/api/v1/properties", params=params)

    assert response.status_code == 422
    assert key in response.json()["errors"]["details"]


def test_options_lists_everything_without_pagination(portfolio):
    user, ids = portfolio

    body = user.client.get("/api/v1/properties/options").json()

    assert len(body["data"]) == 25 and "meta" not in body
    first = body["data"][0]
    assert first["type"] == "properties"
    assert set(first["attributes"]) == {"id", "title", "currency", "is_active", "group_ids"}


@pytest.mark.parametrize("term,expected", [
    ("lod", {"Seaside Lodge", "Mountain Lodge"}),
    ("LODGE", {"Seaside Lodge", "Mountain Lodge"}),
    ("e L", {"Seaside Lodge"}),
    ("ge", {"Seaside Lodge", "Mountain Lodge"}),
    ('"Lodge', set()),
    ("100%", set()),
    ("_od", set()),
])
def test_has_matches_literal_substrings(portfolio, term, expected):
    user, _ = portfolio

    body = user.client.get("/api/v1/properties", params={"filter[title][has]": term,
                                                          "pagination[limit]": 100}).json()

    assert {p["attributes"]["title"] for p in body["data"]} == expected


def test_search_follows_renames_and_deletes(portfolio):
    user, ids = portfolio
    user.client.put(f"/api/v1/properties/{ids['Seaside Lodge']}", json={"property": {"title": "Harbour 100% View"}})
    user.client.delete(f"/api/v1/properties/{ids['Mountain Lodge']}")

    lodges = user.client.get("/api/v1/properties", params={"filter[title][has]": "Lodge"}).json()
    renamed = user.client.get("/api/v1/properties", params={"filter[title][has]": "100% v"}).json()

    assert lodges["data"] == [] and lodges["meta"]["total"] == 0
    assert [p["id"] for p in renamed["data"]] == [ids["Seaside Lodge"]]


def test_total_counts_every_match_beyond_the_page(portfolio):
    user, _ = portfolio

    body = user.client.get("/api/v1/properties", params={"filter[title][has]": "Hotel", "pagination[page]": 2}).json()

    assert len(body["data"]) == 10 and body["meta"]["total"] == 23
