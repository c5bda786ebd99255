"""Rotating ``snapshot_signing_key`` without resetting threads: ``previous_signing_keys``."""

from __future__ import annotations

import logging

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, results_of, thread, turn

OLD, NEW = "the key before the rotation", "the key after it"


def _turn(saver: InMemorySaver, config: dict[str, object], *cells: str, **options: object) -> list[str]:
    middleware = CodeInterpreterMiddleware(**options)  # type: ignore[arg-type]
    try:
        return results_of(build_agent(middleware, checkpointer=saver).invoke(turn(*cells), config))
    finally:
        middleware.close()


def test_a_snapshot_signed_with_a_previous_key_is_restored_and_re_signed(caplog: pytest.LogCaptureFixture) -> None:
    saver, config = InMemorySaver(), thread()
    cell = "var kept = [1, 2]; class K { twice() { return kept.map((x) => x * 2) } }"
    _turn(saver, config, cell, snapshot_signing_key=OLD)
    caplog.set_level(logging.WARNING, "langchain_graalvm.middleware")
    # The rotated worker signs with the new key and still accepts the old one; this turn changes no global.
    assert _turn(saver, config, "new K().twice()", snapshot_signing_key=NEW, previous_signing_keys=[OLD]) == [
        "<result>[2, 4]</result>"
    ]
    assert not caplog.records
    # The snapshot was re-signed as that run started, so the old key can now be dropped.
    assert _turn(saver, config, "kept.length", snapshot_signing_key=NEW) == ["<result>2</result>"]
    assert not caplog.records


def test_without_the_previous_key_the_old_snapshot_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    saver, config = InMemorySaver(), thread()
    _turn(saver, config, "var kept = 1", snapshot_signing_key=OLD)
    caplog.set_level(logging.WARNING, "langchain_graalvm.middleware")
    assert _turn(saver, config, "typeof kept", snapshot_signing_key=NEW) == ['<result>undefined</result>']
    assert "HMAC verification failed" in caplog.text
    # A previous key is only accepted as such: it verifies, it never signs.
    assert _turn(saver, config, "var other = 2", snapshot_signing_key=NEW, previous_signing_keys=[OLD]) == [
        "<result>undefined</result>"
    ]
    assert _turn(saver, config, "typeof other", snapshot_signing_key=OLD) == ['<result>undefined</result>']


def test_previous_keys_need_a_signing_key_and_a_list() -> None:
    with pytest.raises(ValueError, match="needs `snapshot_signing_key`"):
        CodeInterpreterMiddleware(previous_signing_keys=[OLD])
    with pytest.raises(ValueError, match="a list of keys"):
        CodeInterpreterMiddleware(snapshot_signing_key=NEW, previous_signing_keys=OLD)  # type: ignore[arg-type]
