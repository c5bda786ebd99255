"""Tampered snapshot payloads: each must be refused with a ``SnapshotError`` that changes nothing."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass(frozen=True)
class SnapshotAttack:
    """A snapshot payload, taken from ``setup`` and then altered by ``tamper``, given to ``restore``.

    Attributes:
        id: a short unique name.
        description: what the attack tries.
        setup: cells run in the interpreter whose snapshot is taken.
        tamper: turns the genuine payload into the hostile one.
        refused: whether :meth:`Interpreter.restore` must refuse it with a ``SnapshotError``.
        follow: ``(code, expected)`` checks run after the restore (or its refusal), in the same interpreter.
    """

    id: str
    description: str
    tamper: Callable[[bytes], bytes]
    refused: bool
    setup: tuple[str, ...] = ("var kept = {n: 1, list: [1, 2, 3]}; function twice(x) { return 2 * x }",)
    follow: tuple[tuple[str, str], ...] = ()


def _flip_first(payload: bytes) -> bytes:
    # The JSON's opening brace. A bit flipped inside a string can leave valid JSON: catching those is the job of
    # the middleware's record checksum and HMAC, tested against its stored records.
    return bytes([payload[0] ^ 0x01]) + payload[1:]


def _with_json(change: Callable[[Any], Any]) -> Callable[[bytes], bytes]:
    def tamper(payload: bytes) -> bytes:
        return json.dumps(change(json.loads(payload))).encode()

    return tamper


def _function_entry(source: str) -> Callable[[bytes], bytes]:
    """A payload whose only global ``f`` is a function entry with the given source."""
    return lambda _: json.dumps({"v": 1, "g": ["f", [0]], "h": [["F", source, 0, "f", 0, "f"]], "s": []}).encode()


_UNTOUCHED = (("typeof kept", "value:undefined"), ("typeof twice", "value:undefined"))

SNAPSHOT_ATTACKS: tuple[SnapshotAttack, ...] = (
    SnapshotAttack(
        "genuine",
        "the untouched payload restores",
        lambda p: p,
        refused=False,
        follow=(("twice(kept.list.length)", "value:6"),),
    ),
    SnapshotAttack("flipped-byte", "one bit flipped in the structure", _flip_first, refused=True, follow=_UNTOUCHED),
    SnapshotAttack("truncated", "cut to half its length", lambda p: p[: len(p) // 2], refused=True, follow=_UNTOUCHED),
    SnapshotAttack("empty", "an empty payload", lambda _p: b"", refused=True, follow=_UNTOUCHED),
    SnapshotAttack("not-utf8", "bytes that are not UTF-8", lambda p: b"\xff\xfe" + p, refused=True, follow=_UNTOUCHED),
    SnapshotAttack("not-json", "text that is not JSON", lambda _p: b"while(true){}", refused=True, follow=_UNTOUCHED),
    SnapshotAttack(
        "future-version",
        "a payload of an unknown version",
        _with_json(lambda d: {**d, "v": 99}),
        refused=True,
        follow=_UNTOUCHED,
    ),
    SnapshotAttack(
        "dangling-reference",
        "a reference to an object that is not in the table",
        _with_json(lambda d: {**d, "g": ["x", [999]]}),
        refused=True,
        follow=_UNTOUCHED,
    ),
    # A source that is a call passes the codec's syntax check and runs when it is re-created, as class static
    # blocks do: guest code, inside the sandbox and its limits. Only a signed snapshot proves who wrote it.
    SnapshotAttack(
        "function-call-injection",
        "a function entry whose source is a call, not a function",
        _function_entry("(function () { globalThis.pwned = typeof Java })()"),
        refused=False,
        follow=(("f", "error:ReferenceError"), ("pwned", "value:undefined")),
    ),
    SnapshotAttack(
        "function-comma-injection",
        "a function source followed by a statement",
        _function_entry("function () {}, globalThis.pwned = 1"),
        refused=False,
        follow=(("typeof pwned", "value:undefined"), ("f", "error:ReferenceError")),
    ),
    SnapshotAttack(
        "class-static-loop",
        "a class whose static block loops when it is re-created",
        _function_entry("(class { static { while (true) {} } })"),
        refused=True,
    ),
    SnapshotAttack(
        "proto-key",
        "a shape that names __proto__ and constructor",
        _with_json(lambda _d: {"v": 1, "g": ["o", [0]], "h": [["o", 0, 1, 2]], "s": [[0, "__proto__", "constructor"]]}),
        refused=False,
        follow=(("({}).polluted", "value:undefined"),),
    ),
    SnapshotAttack(
        "oversized-claim",
        "a huge typed array claimed by a short entry",
        _with_json(
            lambda _d: {"v": 1, "g": ["t", [1]], "h": [["B", "", -1], ["T", "Uint8Array", 0, 0, 2**40]], "s": []}
        ),
        refused=True,
        follow=(("typeof t", "value:undefined"),),
    ),
)
