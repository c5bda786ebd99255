"""How interpreter snapshots are kept in graph state: versioned records on a ``DeltaChannel``, and their signature.

A thread-mode agent keeps its interpreter's globals between turns as a snapshot payload (UTF-8 JSON from
:meth:`Interpreter.snapshot`). Writing the whole payload into every checkpoint would copy it once per superstep,
so the payload lives on a LangGraph ``DeltaChannel``: each turn that changed the globals writes one record, and
:func:`replay_records` folds the records back into the full payload when a checkpoint is loaded.

A record is a plain tuple, so every checkpoint serializer stores it without custom types:

    (RECORD_FORMAT, "full",  crc32(payload), body)    body: the payload, zlib-compressed when large
    (RECORD_FORMAT, "delta", crc32(payload), body)    body: a Zstandard patch (:mod:`._delta`) from the previous payload
    None                                              clears the snapshot

``kind`` carries a ``+z`` suffix when the body is zlib-compressed. Deltas are tried first and kept when they are
less than half the payload; they cost about 2.5 ms on a 0.5 MB payload (bsdiff: 0.4 to 0.9 s). A record of an
unknown format, a delta that does not fit its base, or a checksum mismatch folds to :data:`UNREADABLE`; the
middleware then warns and starts fresh, and the next full record heals the chain.
"""

from __future__ import annotations

import hmac
import logging
import zlib
from collections.abc import Mapping, Sequence
from hashlib import blake2b, sha256
from typing import Any

from ..errors import OptionsError
from ._delta import apply_delta, make_delta

logger = logging.getLogger("langchain_graalvm.middleware")

SLOT_KEY = "_graalvm_slot_id"
SNAPSHOT_KEY = "_graalvm_snapshot"
SIGNATURE_KEY = "_graalvm_snapshot_hmac"

RECORD_FORMAT = "langchain-graalvm/snapshot/1"
UNREADABLE = b"\x00langchain-graalvm: unreadable snapshot chain\x00"
"""What the records fold to when they cannot be replayed; never a valid payload."""

_FULL = "full"
_DELTA = "delta"
_ZLIB = "+z"
_COMPRESS_FROM = 2048  # bodies at least this large are zlib-compressed (level 1: ~1 ms per 0.5 MB, ~10x smaller)
_SIGNATURE_DOMAIN = b"langchain-graalvm/snapshot-hmac/v1"

CLEARED: dict[str, Any] = {SNAPSHOT_KEY: None, SIGNATURE_KEY: None}
"""The state update that forgets a snapshot and its signature."""

Record = tuple[str, str, int, bytes]


def signing_key(key: str | bytes | None) -> bytes | None:
    """The signing key as bytes (UTF-8 for str); None when signing is off. An empty key is rejected."""
    if key is None:
        return None
    material = key.encode("utf-8") if isinstance(key, str) else bytes(key)
    if not material:
        raise OptionsError("`snapshot_signing_key` must be a non-empty str or bytes.")
    return material


def sign(key: bytes, slot_id: str, payload: bytes) -> bytes:
    """HMAC-SHA256 over a domain prefix, the length-prefixed slot id and the payload."""
    slot = slot_id.encode("utf-8")
    message = b"".join((_SIGNATURE_DOMAIN, len(slot).to_bytes(8, "big"), slot, payload))
    return hmac.new(key, message, sha256).digest()


def signature_matches(key: bytes, slot_id: str, payload: bytes, tag: object) -> bool:
    """Whether ``tag`` signs ``payload`` for ``slot_id`` (constant-time)."""
    return isinstance(tag, (bytes, bytearray)) and hmac.compare_digest(sign(key, slot_id, payload), bytes(tag))


def _body(kind: str, data: bytes) -> tuple[str, bytes]:
    if len(data) >= _COMPRESS_FROM:
        packed = zlib.compress(data, 1)
        if len(packed) < len(data):
            return kind + _ZLIB, packed
    return kind, data


def encode_record(payload: bytes, prior: bytes) -> Record:
    """The record that turns the materialized ``prior`` (``b""`` when none) into ``payload``."""
    crc = zlib.crc32(payload)
    if prior and prior != UNREADABLE:
        delta = make_delta(prior, payload)
        if len(delta) * 2 < len(payload):
            kind, body = _body(_DELTA, delta)
            return (RECORD_FORMAT, kind, crc, body)
    kind, body = _body(_FULL, payload)
    return (RECORD_FORMAT, kind, crc, body)


def _unpack(write: object) -> tuple[str, int, bytes] | None:
    if isinstance(write, (tuple, list)) and len(write) == 4:  # noqa: PLR2004 - the record's arity
        fmt, kind, crc, body = write
        if fmt == RECORD_FORMAT and isinstance(kind, str) and isinstance(crc, int) and isinstance(body, bytes):
            return kind, crc, body
    return None


def _fold(base: bytes, kind: str, body: bytes) -> bytes:
    if kind.endswith(_ZLIB):
        kind, body = kind[: -len(_ZLIB)], zlib.decompress(body)
    if kind == _FULL:
        return body
    if kind == _DELTA:
        return apply_delta(base, body)
    raise ValueError(f"unknown record kind {kind!r}")


def replay_records(state: bytes | None, writes: Sequence[object]) -> bytes:
    """``DeltaChannel`` reducer: folds records, oldest first, onto the materialized payload ``state``.

    Deterministic and batching-invariant: folding ``xs`` then ``ys`` equals folding ``xs + ys``, because each step
    depends only on the running payload, and the checksum of the last record checks the payload it produced.
    """
    base = bytes(state) if isinstance(state, (bytes, bytearray)) else b""
    expected: int | None = None
    for write in writes:
        if write is None:
            base, expected = b"", None
            continue
        record = _unpack(write)
        if record is None:
            base, expected = UNREADABLE, None
            continue
        kind, crc, body = record
        if base == UNREADABLE and not kind.startswith(_FULL):
            continue
        try:
            base, expected = _fold(base, kind, body), crc
        except (ValueError, zlib.error):
            base, expected = UNREADABLE, None
    if expected is not None and zlib.crc32(base) != expected:
        return UNREADABLE
    return base


def payload_digest(payload: bytes) -> bytes:
    """A short digest that tells snapshot payloads apart (not a signature)."""
    return blake2b(payload, digest_size=16).digest()


def stored_payload(state: Mapping[str, Any]) -> bytes:
    """The materialized snapshot payload in ``state`` (``b""`` when there is none)."""
    payload = state.get(SNAPSHOT_KEY)
    return bytes(payload) if isinstance(payload, (bytes, bytearray)) else b""


def check_stored(
    state: Mapping[str, Any], slot_id: str, key: bytes | None, previous: Sequence[bytes] = ()
) -> tuple[bytes | None, bool]:
    """The payload to restore for ``slot_id``, and whether the stored snapshot must be cleared.

    Logs a warning for a snapshot that is refused: an unreadable record chain, or (with a key) a missing signature
    or one made with neither ``key`` nor one of the ``previous`` keys. A refused snapshot is never restored.
    """
    payload = stored_payload(state)
    if not payload:
        return None, False
    if payload == UNREADABLE:
        logger.warning("Discarding GraalVM snapshot for slot_id=%s: its stored records could not be replayed.", slot_id)
        return None, True
    tag = state.get(SIGNATURE_KEY)
    if key is not None and not any(signature_matches(k, slot_id, payload, tag) for k in (key, *previous)):
        logger.warning(
            "Rejecting GraalVM snapshot for slot_id=%s: HMAC verification failed (missing or tampered signature). "
            "Snapshot will not be restored.",
            slot_id,
        )
        return None, True
    return payload, False


def resigned(state: Mapping[str, Any], slot_id: str, key: bytes, payload: bytes) -> dict[str, Any] | None:
    """The update that signs the stored ``payload`` with ``key`` when its signature was made with another key."""
    if signature_matches(key, slot_id, payload, state.get(SIGNATURE_KEY)):
        return None
    return {SIGNATURE_KEY: sign(key, slot_id, payload)}


def snapshot_update(payload: bytes, prior: bytes, slot_id: str, key: bytes | None) -> dict[str, Any] | None:
    """The state update that stores ``payload``; None when the stored snapshot already is ``payload``."""
    if payload == prior:
        return None
    update: dict[str, Any] = {SNAPSHOT_KEY: encode_record(payload, prior)}
    if key is not None:
        update[SIGNATURE_KEY] = sign(key, slot_id, payload)
    return update
