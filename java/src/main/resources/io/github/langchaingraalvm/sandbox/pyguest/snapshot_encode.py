"""Snapshot encoding: the model's globals as a pickle-free Python literal (format in snapshot_format.py)."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from typing import Any

    from pyguest.captured import _isinstance, _len, _str, _type
    from pyguest.snapshot_format import Unserializable


def make_encoder(ns, initial, sources, defs, residues, state):
    def model_names():
        return [n for n in ns if n not in initial]

    def encode_all(max_bytes):
        import binascii

        # Only modules the model imported can have made such values; importing them here would cost seconds.
        datetime: Any = sys.modules.get("datetime")
        decimal = sys.modules.get("decimal")
        decimal_type = getattr(decimal, "Decimal", None)
        dt_types = (
            (datetime.datetime, datetime.date, datetime.time, datetime.timedelta, datetime.timezone)
            if datetime is not None
            else ()
        )

        table: list[Any] = []
        memo: dict[int, int] = {}  # id -> index
        open_immutables: set[int] = set()
        fn: list[list[Any]] = []
        fn_index: dict[tuple[str, int], int] = {}

        def ref_of(value):
            mod: Any = getattr(value, "__module__", None)
            qual: Any = getattr(value, "__qualname__", None)
            if _type(mod) is not _str or _type(qual) is not _str or mod == "__main__" or "<" in qual:
                return None
            target = sys.modules.get(mod)
            for part in qual.split("."):
                target = getattr(target, part, None)
            return ["r", mod, qual] if target is value else None

        def enc(v):
            t: Any = _type(v)
            if v is None or t is bool or t is _str:
                return v
            if t is int:
                return v if -(2**53) < v < 2**53 else ["i", _str(v)]
            if t is float:
                if v != v:
                    return ["f", "nan"]
                if v in (float("inf"), float("-inf")):
                    return ["f", "inf" if v > 0 else "-inf"]
                return v
            if t is complex:
                return ["c", enc(v.real), enc(v.imag)]
            if t is decimal_type and decimal_type is not None:
                return ["dec", _str(v)]
            if not dt_types or t not in dt_types[:4]:
                pass
            elif t is datetime.datetime or t is datetime.time:
                if v.tzinfo is not None and _type(v.tzinfo) is not datetime.timezone:
                    raise Unserializable(f"{t.__name__} with tzinfo {_type(v.tzinfo).__name__}")
                return ["dt" if t is datetime.datetime else "time", v.isoformat()]
            elif t is datetime.date:
                return ["date", v.isoformat()]
            else:
                return ["td", v.days, v.seconds, v.microseconds]
            if t is _type(sys):
                if sys.modules.get(v.__name__) is v:
                    return ["m", v.__name__]  # type: ignore[union-attr]
                raise Unserializable("module")
            known = defs.get(id(v))
            if known is not None and known[0] is v:
                key = (known[1], known[2])
                if key not in fn_index:
                    fn_index[key] = _len(fn)
                    fn.append([known[1], known[2], known[3], known[4]])
                return ["F", fn_index[key]]
            if t in (list, tuple, dict, set, frozenset, bytes, bytearray):
                i = memo.get(id(v))
                if i is not None:
                    if i in open_immutables:
                        raise Unserializable(f"recursive {t.__name__}")
                    return [i]
                i = _len(table)
                memo[id(v)] = i
                keep.append(v)
                table.append(None)
                if t is bytes or t is bytearray:
                    table[i] = ["b" if t is bytes else "B", binascii.b2a_base64(v, newline=False).decode("ascii")]
                    return [i]
                immutable = t in (tuple, frozenset)
                if immutable:
                    open_immutables.add(i)
                if t is dict:
                    entry = ["d"]
                    for k, x in v.items():
                        entry.append(enc(k))
                        entry.append(enc(x))
                else:
                    tag = {list: "l", tuple: "t", set: "s", frozenset: "S"}[t]
                    entry = [tag] + [enc(x) for x in v]
                open_immutables.discard(i)
                table[i] = entry
                return [i]
            ref = ref_of(v)
            if ref is not None:
                return ref
            raise Unserializable(t.__name__)

        keep = []  # keeps encoded objects alive, so no id is reused while encoding
        out = []
        saved_residues = {}
        for name in model_names():
            value = ns[name]
            mark = (_len(table), _len(fn), dict(fn_index), dict(memo))
            try:
                encoded = enc(value)
            except (Unserializable, RecursionError) as e:
                # Roll back what the failed value added, and keep the name as a residue.
                del table[mark[0] :]
                del fn[mark[1] :]
                fn_index.clear()
                fn_index.update(mark[2])
                memo.clear()
                memo.update(mark[3])
                open_immutables.clear()
                type_name = _type(value).__name__
                if _isinstance(e, Unserializable) and e.args and e.args[0] != type_name:
                    type_name = f"{type_name} containing {e.args[0]}"
                if _isinstance(e, RecursionError):
                    type_name = f"{type_name} nested too deeply"
                saved_residues[name] = type_name
                continue
            out.append(name)
            out.append(encoded)
        for name, type_name in residues.items():
            if name not in ns:
                saved_residues[name] = type_name
        used_files = {f[0] for f in fn}
        payload = {
            "py": 1,
            "cells": state["cells"],
            "src": {f: [[n + 1, sources[f][n]] for n in _lines_used(f, fn)] for f in used_files if f in sources},
            "fn": fn,
            "g": out,
            "h": table,
            "res": saved_residues,
        }
        # ASCII keeps lone surrogates (valid in a Python str, not in UTF-8) as \\uXXXX escapes.
        text = ascii(payload)
        if max_bytes > 0 and _len(text) > max_bytes:
            raise ValueError("snapshot exceeds maxBytes")
        return text

    def _lines_used(filename, fn):
        used: set[int] = set()
        for f in fn:
            if f[0] == filename:
                count = f[3].count("\n") + (0 if f[3].endswith("\n") else 1)
                used.update(range(f[1] - 1, f[1] - 1 + count))
        return sorted(n for n in used if n < _len(sources[filename]))

    return encode_all, model_names
