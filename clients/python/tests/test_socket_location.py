"""The Python copy of the socket-location rule passes the cases every copy passes
(Tests/Shared/socket-location-cases.json; protocol/PROTOCOL.md, section 2)."""

import asyncio
import json
import os
from typing import Any, Dict, List

import pytest

from dynd import AsyncClient, Client, InvalidSocketPath, socket_location

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
CASES_FILE = os.path.join(REPOSITORY, "Tests", "Shared", "socket-location-cases.json")


def load_cases() -> List[Dict[str, Any]]:
    with open(CASES_FILE, encoding="utf-8") as file:
        cases: List[Dict[str, Any]] = json.load(file)["cases"]
    return cases


CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_shared_socket_location_cases(case: Dict[str, Any]) -> None:
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(InvalidSocketPath) as caught:
            socket_location(case["socket"], case["environment"], case["uid"])
        assert caught.value.code == expect["error"]
    else:
        assert socket_location(case["socket"], case["environment"], case["uid"]) == (
            expect["path"],
            expect["directory"],
        )


def test_the_cases_cover_every_rule_and_error() -> None:
    found = [case["expect"] for case in CASES if "path" in case["expect"]]
    directories = [expect["directory"] for expect in found]
    assert None in directories  # rules 1 and 2: the user's path
    assert any(d is not None and d.startswith("/tmp/dynd-") for d in directories)  # rule 4
    assert any(d is not None and not d.startswith("/tmp/dynd-") for d in directories)  # rule 3
    errors = {case["expect"].get("error") for case in CASES}
    assert {"invalid_path", "path_too_long"} <= errors


def test_both_clients_refuse_an_impossible_path_before_connecting() -> None:
    with pytest.raises(InvalidSocketPath, match="at most 107 bytes"):
        Client("/" + "a" * 107)
    with pytest.raises(InvalidSocketPath, match="empty"):
        asyncio.run(AsyncClient.connect(""))
