"""A ruleset's texts live in its package and join the shared catalogue once."""

from __future__ import annotations

import pytest

from bank.rulesets.ultime import text as ultime_text
from bank.unit import text


def test_the_ultime_texts_are_the_ultime_packages_and_are_said() -> None:
    assert "menu.jail" in ultime_text.MESSAGES and "menu.jail" not in text._SHARED
    assert text.say("fr", "menu.jail") == "Prison"
    assert text.say("en", "idle.2") == "Tap a card"  # a shared one


def test_a_message_id_is_defined_once() -> None:
    text.register_messages(ultime_text.MESSAGES)  # again: nothing changes
    with pytest.raises(ValueError, match=r"defined twice: menu\.jail"):
        text.register_messages({"menu.jail": {"fr": "Geôle", "en": "Gaol"}})
