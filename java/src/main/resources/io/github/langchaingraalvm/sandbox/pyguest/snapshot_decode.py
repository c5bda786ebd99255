"""Snapshot decoding: validates a payload completely, then restores modules, def/class statements and data."""

import _ast
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from typing import Any

    from pyguest.captured import _compile, _exec, _len, _str, _type, only_ast
    from pyguest.snapshot_format import Unserializable


def bad(why):
    raise ValueError(f"invalid snapshot: {why}")

def import_module(name):
    __import__(name)
    return sys.modules[name]

def literal(node):
    t = _type(node)
    if t is _ast.Constant:
        v = node.value
        if v is None or _type(v) in (bool, int, float, _str):
            return v
    elif t is _ast.List:
        return [literal(e) for e in node.elts]
    elif t is _ast.Dict:
        out = {}
        for k, v in zip(node.keys, node.values, strict=False):
            if _type(k) is not _ast.Constant or _type(k.value) is not _str:
                bad("not a Python snapshot: a dict key is not a string")
            out[k.value] = literal(v)
        return out
    elif t is _ast.UnaryOp and _type(node.op) is _ast.USub and _type(node.operand) is _ast.Constant:
        if _type(node.operand.value) in (int, float):
            return -node.operand.value
    bad(f"not a Python snapshot: unexpected {t.__name__}")


def make_decoder(ns, sources, defs, residues, state):
    def decode_all(text):
        import binascii

        try:
            tree = _compile(text, "<snapshot>", "eval", only_ast)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
            bad(f"not a Python snapshot ({_type(e).__name__})")
        try:
            root = literal(tree.body)
        except RecursionError:
            bad("not a Python snapshot (nested too deeply)")
        if _type(root) is not dict:
            bad("not a snapshot object")
        if "py" not in root:
            bad("not a Python snapshot (was it taken from a JavaScript interpreter?)")
        if root.get("py") != 1:
            bad(f"unsupported version {root.get('py')!r}")
        for key, kind in (("fn", list), ("g", list), ("h", list), ("res", dict), ("src", dict), ("cells", int)):
            if _type(root.get(key)) is not kind:
                bad(f"field {key!r} is missing or not a {kind.__name__}")
        g, h, fn, res = root["g"], root["h"], root["fn"], root["res"]
        if _len(g) % 2:
            bad("odd globals list")
        for f in fn:
            if not (_type(f) is list and _len(f) == 4 and _type(f[0]) is _str and _type(f[1]) is int
                    and _type(f[2]) is _str and _type(f[3]) is _str and f[1] > 0):
                bad("malformed function entry")
            # Only a single top-level def or class statement of the recorded name is ever executed.
            try:
                tree = _compile(f[3], f[0], "exec", only_ast)
            except (SyntaxError, ValueError):
                bad(f"function source of {f[2]!r} does not parse")
            if (_len(tree.body) != 1 or _type(tree.body[0]) not in (_ast.FunctionDef, _ast.AsyncFunctionDef,
                                                                     _ast.ClassDef) or tree.body[0].name != f[2]):
                bad(f"function source of {f[2]!r} is not a single def or class statement")
        for name, type_name in res.items():
            if _type(type_name) is not _str or not name.isidentifier():
                bad("malformed residue")

        def decoder(functions, importing):
            done: dict[int, Any] = {}
            building = set()

            def dec(v):
                t = _type(v)
                if v is None or t in (bool, int, float, _str):
                    return v
                if t is not list or not v:
                    bad("malformed value")
                head = v[0]
                if _type(head) is int:
                    if _len(v) != 1 or not 0 <= head < _len(h):
                        bad("bad reference")
                    return entry(head)
                if head == "i" and _len(v) == 2 and _type(v[1]) is _str:
                    return int(v[1])
                if head == "f" and _len(v) == 2 and v[1] in ("nan", "inf", "-inf"):
                    return float(v[1])
                if head == "c" and _len(v) == 3:
                    return complex(dec(v[1]), dec(v[2]))
                if head == "dec" and _len(v) == 2 and _type(v[1]) is _str:
                    return import_module("decimal").Decimal(v[1])
                if head in ("dt", "date", "time") and _len(v) == 2 and _type(v[1]) is _str:
                    datetime = import_module("datetime")
                    cls = {"dt": datetime.datetime, "date": datetime.date, "time": datetime.time}[head]
                    return cls.fromisoformat(v[1])
                if head == "td" and _len(v) == 4 and all(_type(x) is int for x in v[1:]):
                    return import_module("datetime").timedelta(days=v[1], seconds=v[2], microseconds=v[3])
                if head == "m" and _len(v) == 2 and _type(v[1]) is _str:
                    return importing(v[1], None)
                if head == "r" and _len(v) == 3 and _type(v[1]) is _str and _type(v[2]) is _str:
                    return importing(v[1], v[2])
                if head == "F" and _len(v) == 2 and _type(v[1]) is int and 0 <= v[1] < _len(fn):
                    return functions(v[1])
                bad(f"unknown value tag {head!r}")

            def entry(i):
                if i in done:
                    return done[i]
                e = h[i]
                if _type(e) is not list or not e or e[0] not in ("l", "t", "d", "s", "S", "b", "B"):
                    bad("malformed table entry")
                tag = e[0]
                if tag in ("b", "B"):
                    if _len(e) != 2 or _type(e[1]) is not _str:
                        bad("malformed bytes")
                    raw = binascii.a2b_base64(e[1], strict_mode=True)
                    done[i] = raw if tag == "b" else bytearray(raw)
                    return done[i]
                if tag in ("t", "S"):
                    if i in building:
                        bad("recursive immutable container")
                    building.add(i)
                    items = [dec(x) for x in e[1:]]
                    building.discard(i)
                    done[i] = tuple(items) if tag == "t" else frozenset(items)
                    return done[i]
                out: Any
                if tag == "l":
                    out = done[i] = []
                    out.extend(dec(x) for x in e[1:])
                elif tag == "s":
                    out = done[i] = set()
                    out.update(dec(x) for x in e[1:])
                else:
                    if _len(e) % 2 != 1:
                        bad("odd dict entry")
                    out = done[i] = {}
                    for k in range(1, _len(e), 2):
                        out[dec(e[k])] = dec(e[k + 1])
                return out

            return dec

        # Validation pass: decode everything without importing or running anything.
        try:
            check = decoder(lambda _i: None, lambda _m, _q: None)
            for k in range(0, _len(g), 2):
                if _type(g[k]) is not _str or not g[k].isidentifier():
                    bad("malformed global name")
                check(g[k + 1])
        except ValueError:
            raise
        except Exception as e:  # noqa: BLE001 - TypeError from unhashable keys and the like
            bad(f"{_type(e).__name__}: {e}")

        # Apply: modules and references, then the saved def/class statements in order, then the data.
        def importing(mod, qual):
            target = import_module(mod)
            if qual is not None:
                for part in qual.split("."):
                    target = getattr(target, part)
            return target

        plain = decoder(lambda _i: None, importing)
        restored = []
        for k in range(0, _len(g), 2):
            v = g[k + 1]
            if _type(v) is list and v and v[0] in ("m", "r"):
                try:
                    ns[g[k]] = plain(v)
                except Exception:  # noqa: BLE001 - a module this GraalPy lacks: a residue
                    residues[g[k]] = "module" if v[0] == "m" else "reference"
        state["cells"] = max(state["cells"], root["cells"])
        for filename, numbered in root["src"].items():
            lines = list(sources.get(filename, []))
            for pair in numbered:
                if _type(pair) is list and _len(pair) == 2 and _type(pair[0]) is int and _type(pair[1]) is _str:
                    while _len(lines) < pair[0]:
                        lines.append("\n")
                    lines[pair[0] - 1] = pair[1]
            sources[filename] = lines
        made = {}
        failed = {}
        for i, (filename, line, name, source) in enumerate(fn):
            sources.setdefault(filename, [])
            try:
                code = _compile("\n" * (line - 1) + source, filename, "exec")
                _exec(code, ns)
                obj = ns.get(name)
                made[i] = obj
                defs[id(obj)] = (obj, filename, line, name, source)
            except BaseException as e:  # noqa: BLE001 - a def whose decorator fails becomes a residue
                what = "class" if source.lstrip().startswith("class") else "function"
                failed[i] = f"{what} ({_type(e).__name__}: {e})"

        def functions(i):
            if i in failed:
                raise Unserializable(failed[i])
            return made[i]

        full = decoder(functions, importing)
        for k in range(0, _len(g), 2):
            name, v = g[k], g[k + 1]
            if _type(v) is list and v and v[0] in ("m", "r"):
                if name in ns:
                    restored.append(name)
                continue
            try:
                ns[name] = full(v)
                residues.pop(name, None)
                restored.append(name)
            except Unserializable as e:
                ns.pop(name, None)
                residues[name] = e.args[0]
        for name, type_name in res.items():
            if name not in ns:
                residues[name] = type_name
        return restored

    return decode_all
