# Trusted host side of a Python guest context. The host evaluates this file once per fresh GraalPy context, before
# any untrusted code runs, calls setup() and keeps the returned object to itself. The model's code runs in a module
# of its own (installed as __main__), so these names are not among its globals.
#
# run(code, budget) executes one REPL cell the way a notebook does: the cell is parsed with the compiler's AST
# flag, a final expression statement is split off and evaluated for the cell's value, everything else is executed
# in the model's globals. Cells are compiled under the file name "cell N", so tracebacks carry the model's own
# line numbers. The result is a list: ["ok", repr_text, incomplete] or ["error", type, message, stack].
#
# Snapshots (format "py" version 1), pickle-free: the payload is an ASCII Python literal made only of dicts with
# string keys, lists, strings, numbers, True, False and None. It is written with ascii() and read back by walking
# the compiler's AST of it (no eval, nothing but those literal nodes accepted), because importing the json package
# in a fresh GraalPy context costs a second or more per turn.
#   {"py":1,"cells":N,"src":{file:[[line,text],...]},"fn":[[file,line,name,source],...],
#    "g":[name,V,name,V,...],"h":[entry,...],"res":{name:type}}
# A value V is one of:
#   null, true, false, a string, a number (ints below 2**53, finite floats as JSON floats)
#   [id]                         reference to entry h[id] (shared references and cycles survive)
#   ["i","123..."]               a larger int       ["f","nan"|"inf"|"-inf"]  a float JSON cannot spell
#   ["c",re,im]                  complex            ["dec","1.10"]              decimal.Decimal
#   ["dt",iso] ["date",iso] ["time",iso] ["td",days,seconds,microseconds]      datetime values (naive or UTC offset)
#   ["m","json"]                 a module, imported again on restore
#   ["r","math","sqrt"]          an object importable as module.qualname (from math import sqrt)
#   ["F",index]                  a function or class made by the top-level def/class statement fn[index]
# Entries: ["l",V...] list  ["t",V...] tuple  ["d",k,v,k,v...] dict  ["s",V...] set  ["S",V...] frozenset
#          ["b",base64] bytes  ["B",base64] bytearray
# Functions and classes are saved as the source of the top-level statement that made them (decorators included)
# and executed again on restore, at their original line numbers, after the saved modules are imported. Any other
# value (instances of the model's classes, lambdas, generators, files, ...) is a residue: the name is left unbound
# and reading it raises NameError("Value for 'NAME' was not restored because it is not serializable (type: TYPE).").
# A residue that is still unbound is saved again as a residue. Nothing is ever unpickled.


def setup(emit, capture, frozen_clock, epoch_ms):
    import _ast
    import builtins
    import sys

    _type, _repr, _len, _str, _isinstance = type, repr, len, str, isinstance
    _exec, _eval, _compile = exec, eval, compile
    only_ast = 0x400  # ast.PyCF_ONLY_AST

    class Console:
        """sys.stdout and sys.stderr: every write goes to the host at once, so both streams keep their order."""

        encoding = "utf-8"
        errors = "strict"

        def write(self, text):
            if _type(text) is not _str:
                raise TypeError(f"write() argument must be str, not {_type(text).__name__}")
            if text and capture:
                emit(text)
            return _len(text)

        def writelines(self, lines):
            for line in lines:
                self.write(line)

        def flush(self):
            pass

        def isatty(self):
            return False

        def writable(self):
            return True

        def readable(self):
            return False

        def fileno(self):
            raise OSError("the console has no file descriptor")

    console = Console()
    sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = console

    if frozen_clock:
        import time

        seconds = epoch_ms / 1000.0
        nanos = epoch_ms * 1_000_000
        real_localtime, real_gmtime, real_ctime, real_asctime = time.localtime, time.gmtime, time.ctime, time.asctime
        real_strftime = time.strftime
        time.time = lambda: seconds
        time.time_ns = lambda: nanos
        time.localtime = lambda secs=None: real_gmtime(seconds if secs is None else secs)
        time.gmtime = lambda secs=None: real_gmtime(seconds if secs is None else secs)
        time.ctime = lambda secs=None: real_asctime(real_gmtime(seconds if secs is None else secs))
        time.asctime = lambda t=None: real_asctime(real_gmtime(seconds) if t is None else t)
        time.strftime = lambda fmt, t=None: real_strftime(fmt, real_gmtime(seconds) if t is None else t)
        del real_localtime, real_ctime

    module = _type(sys)("__main__")
    ns = module.__dict__
    ns["__builtins__"] = builtins
    sys.modules["__main__"] = module
    initial = set(ns)  # names that are not the model's: never snapshotted

    sources = {}  # file name -> list of source lines, for tracebacks
    defs = {}  # id(object bound by a top-level def/class) -> (object, file, line, name, source)
    residues = {}  # unbound name -> type, from a restored snapshot
    state = {"cells": 0}

    def line_of(filename, lineno):
        lines = sources.get(filename)
        if lines is None or not 0 < lineno <= _len(lines):
            return None
        return lines[lineno - 1].strip()

    def stack_of(tb):
        frames = []
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename in sources:
                frames.append((code.co_filename, tb.tb_lineno, code.co_name))
            tb = tb.tb_next
        out = []
        previous, repeats = None, 0
        for frame in frames:
            if frame == previous:
                repeats += 1
                if repeats > 3:
                    continue
            else:
                if repeats > 3:
                    out.append(f"  [Previous line repeated {repeats - 3} more times]")
                previous, repeats = frame, 1
            filename, lineno, name = frame
            out.append(f'  File "{filename}", line {lineno}' + ("" if name == "<module>" else f", in {name}"))
            text = line_of(filename, lineno)
            if text:
                out.append("    " + text)
        if repeats > 3:
            out.append(f"  [Previous line repeated {repeats - 3} more times]")
        return "\n".join(out)

    def syntax_message(e):
        message = e.msg if _isinstance(e, SyntaxError) and e.msg else _str(e)
        if _isinstance(e, SyntaxError) and e.lineno:
            where = f"line {e.lineno}" + (f", column {e.offset}" if e.offset else "")
            text = (e.text or "").rstrip("\n")
            return f"{message} ({where})" + (f"\n    {text.strip()}" if text.strip() else "")
        return message

    def describe(e):
        name = _type(e).__name__
        if _type(e) is NameError:
            missing = getattr(e, "name", None)
            if missing is None and e.args and _type(e.args[0]) is _str and e.args[0].startswith("name '"):
                missing = e.args[0].split("'")[1]
            if missing in residues and missing not in ns:
                return [name, residue_text(missing, residues[missing]), stack_of(e.__traceback__)]
        if _isinstance(e, SyntaxError) and not _isinstance(e, (IndentationError,)) and e.filename in sources:
            return [name, syntax_message(e), ""]
        if _isinstance(e, SyntaxError):
            return [name, syntax_message(e), stack_of(e.__traceback__)]
        try:
            message = _str(e)
        except BaseException:  # noqa: BLE001 - a broken __str__ of the model's own exception class
            message = f"<{name} whose str() failed>"
        return [name, message, stack_of(e.__traceback__)]

    def render(value, budget):
        text = _repr(value)
        if _type(text) is not _str:
            text = _str(text)
        return [text[:budget], _len(text) > budget]

    def record_defs(tree, filename, lines):
        for node in tree.body:
            if _type(node) in (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                source = "".join(lines[first - 1 : node.end_lineno])
                obj = ns.get(node.name)
                # Only what the statement made (possibly decorated), not a value the name was rebound to later.
                if callable(obj) and getattr(obj, "__name__", None) == node.name:
                    defs[id(obj)] = (obj, filename, first, node.name, source)

    def run(code, budget):
        if not code.strip():
            return ["ok", "None", False]  # builds nothing and is not counted, so warming a context is invisible
        state["cells"] += 1
        filename = f"cell {state['cells']}"
        lines = code.splitlines(True)
        sources[filename] = lines
        tree = body = None
        try:
            # A cell that is one expression compiles directly; anything else goes through the AST.
            final = _compile(code, filename, "eval")
        except (SyntaxError, ValueError):
            final = None
        try:
            if final is None:
                tree = _compile(code, filename, "exec", only_ast)
                last = None
                if tree.body and _type(tree.body[-1]) is _ast.Expr:
                    last = _ast.Expression(tree.body.pop().value)
                body = _compile(tree, filename, "exec")
                final = _compile(last, filename, "eval") if last is not None else None
        except (SyntaxError, ValueError) as e:
            return ["error", _type(e).__name__, syntax_message(e), ""]
        try:
            try:
                if body is not None:
                    _exec(body, ns)
                value = _eval(final, ns) if final is not None else None
            finally:
                if tree is not None:
                    record_defs(tree, filename, lines)
            return ["ok"] + render(value, budget)
        except BaseException as e:  # noqa: BLE001 - everything the model raises is reported, not propagated
            return ["error"] + describe(e)

    # ---------------------------------------------------------------- snapshots
    def residue_text(name, type_name):
        return f"Value for '{name}' was not restored because it is not serializable (type: {type_name})."

    class Unserializable(Exception):
        pass

    def model_names():
        return [n for n in ns if n not in initial]

    def encode_all(max_bytes):
        import binascii

        # Only modules the model imported can have made such values; importing them here would cost seconds.
        datetime = sys.modules.get("datetime")
        decimal = sys.modules.get("decimal")
        decimal_type = getattr(decimal, "Decimal", None)
        dt_types = (
            (datetime.datetime, datetime.date, datetime.time, datetime.timedelta, datetime.timezone)
            if datetime is not None
            else ()
        )

        table = []
        memo = {}  # id -> index
        open_immutables = set()
        fn = []
        fn_index = {}

        def ref_of(value):
            mod = getattr(value, "__module__", None)
            qual = getattr(value, "__qualname__", None)
            if _type(mod) is not _str or _type(qual) is not _str or mod == "__main__" or "<" in qual:
                return None
            target = sys.modules.get(mod)
            for part in qual.split("."):
                target = getattr(target, part, None)
            return ["r", mod, qual] if target is value else None

        def enc(v):
            t = _type(v)
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
                    return ["m", v.__name__]
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
        used = set()
        for f in fn:
            if f[0] == filename:
                count = f[3].count("\n") + (0 if f[3].endswith("\n") else 1)
                used.update(range(f[1] - 1, f[1] - 1 + count))
        return sorted(n for n in used if n < _len(sources[filename]))

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
            for k, v in zip(node.keys, node.values):
                if _type(k) is not _ast.Constant or _type(k.value) is not _str:
                    bad("not a Python snapshot: a dict key is not a string")
                out[k.value] = literal(v)
            return out
        elif t is _ast.UnaryOp and _type(node.op) is _ast.USub and _type(node.operand) is _ast.Constant:
            if _type(node.operand.value) in (int, float):
                return -node.operand.value
        bad(f"not a Python snapshot: unexpected {t.__name__}")

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
            done = {}
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
            check = decoder(lambda i: None, lambda m, q: None)
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

        plain = decoder(lambda i: None, importing)
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
                kind = "class" if source.lstrip().startswith("class") else "function"
                failed[i] = f"{kind} ({_type(e).__name__}: {e})"

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

    class Api:
        pass

    def define(name, value):
        """Binds a host value (a polyglot proxy, e.g. a future `tools` object or `task` function) as a global."""
        ns[name] = value
        initial.add(name)

    def install_bridges(start, wait, names, with_task, with_fs=False):
        """Defines `tools` (one function per name, keyword arguments), `task` and `files`, calling the host through
        start(kind, name, input_json) and wait(call_id). Values cross as JSON, imported on the first call."""
        import builtins

        fs_errors = {
            "ENOENT": FileNotFoundError,
            "EACCES": PermissionError,
            "EISDIR": IsADirectoryError,
            "ENOTDIR": NotADirectoryError,
            "EINVAL": ValueError,
        }

        class ToolCallError(Exception):
            """A host call failed with an error type that is not a Python builtin."""

        def error_of(type_name, message):
            base = getattr(builtins, type_name, None)
            if isinstance(base, type) and issubclass(base, Exception):
                return base(message)
            return type(type_name, (ToolCallError,), {})(message)

        def untag(obj):
            if len(obj) == 1:
                ((key, value),) = obj.items()
                if key == "\u0000bigint":
                    return int(value)
                if key == "\u0000number":
                    return float(value.replace("Infinity", "inf"))
                if key == "\u0000bytes":
                    return bytes(value)
            return obj

        def plain(value):
            if isinstance(value, (bytes, bytearray)):
                return {"\u0000bytes": list(value)}
            raise TypeError(f"{type(value).__name__} values cannot be sent to a tool; send str, numbers, lists or dicts")

        class Pending:
            """A host call in flight: `.result()` waits for it (and raises its error)."""

            __slots__ = ("_id", "_label", "_outcome")

            def __init__(self, call_id, label):
                self._id = call_id
                self._label = label
                self._outcome = None

            def result(self):
                if self._outcome is None:
                    self._outcome = str(wait(self._id))
                kind, text = self._outcome[0], self._outcome[1:]
                if kind == "T":
                    raise TimeoutError(text)
                if kind == "C":
                    raise RuntimeError(text)
                import json

                value = json.loads(text, object_hook=untag)
                if kind == "1":
                    return value
                code = value.get("code")
                if isinstance(code, str):
                    raise fs_errors.get(code, OSError)(str(value.get("message", "")))
                raise error_of(str(value.get("type", "RuntimeError")), str(value.get("message", "")))

            def __repr__(self):
                return f"<pending {self._label} call>"

        def start_call(kind, name, label, args, kwargs):
            import json

            if args:
                if len(args) != 1 or kwargs:
                    raise TypeError(f"{label}() takes keyword arguments (or one positional value)")
                kwargs = {"input": args[0]}
            text = json.dumps(kwargs, default=plain)
            ticket = start(kind, name, text)
            if isinstance(ticket, str):
                type_name, _, message = ticket.partition("\u0000")
                raise error_of(type_name, message)
            return Pending(int(ticket), label)

        class Tool:
            __slots__ = ("_name",)

            def __init__(self, name):
                self._name = name

            def __call__(self, *args, **kwargs):
                return start_call("tool", self._name, "tools." + self._name, args, kwargs).result()

            def start(self, *args, **kwargs):
                """Starts the call and returns at once; pass the results to tools.gather(...)."""
                return start_call("tool", self._name, "tools." + self._name, args, kwargs)

            def __repr__(self):
                return f"<tool {self._name}>"

        class Tools:
            __slots__ = ("_tools",)

            def __init__(self, tools):
                object.__setattr__(self, "_tools", tools)

            def __getattr__(self, name):
                try:
                    return object.__getattribute__(self, "_tools")[name]
                except KeyError:
                    raise AttributeError(f"no tool named {name!r}; available: {', '.join(sorted(self._tools))}") from None

            def __setattr__(self, name, value):
                raise AttributeError("tools is read-only")

            def __dir__(self):
                return sorted(self._tools)

            def gather(self, *pending):
                """Waits for calls started with .start(...) and returns their results in order."""
                return [p.result() for p in pending]

            def __repr__(self):
                return f"<tools: {', '.join(sorted(self._tools))}>"

        if names is not None:
            listed = [n for n in str(names).split(",") if n]
            define("tools", Tools({n: Tool(n) for n in listed}))
        if with_task:

            def task(description, subagent_type, label=None):
                """Dispatches a subagent and returns its final answer."""
                return task_start(description, subagent_type, label).result()

            def task_start(description, subagent_type, label=None):
                spec = {"description": description, "subagentType": subagent_type}
                if label is not None:
                    spec["label"] = label
                return start_call("task", "task", "task", (), spec)

            task.start = task_start
            define("task", task)
        if with_fs:
            define("files", make_files(start_call))

    def make_files(start_call):
        """The `files` object: the agent's files through the host's checks (prefixes, mode, byte budget)."""

        def fs(op, label, **spec):
            return start_call("fs", op, "files." + label, (), spec).result()

        def need_path(label, path):
            if not isinstance(path, str):
                raise TypeError(f"files.{label}() takes a path string such as '/data/input.json'")
            return path

        class Files:
            __slots__ = ()

            def read_text(self, path):
                """The file's exact text (UTF-8)."""
                return fs("readFile", "read_text", path=need_path("read_text", path), encoding="utf8")

            def read_bytes(self, path):
                """The file's bytes."""
                return fs("readFile", "read_bytes", path=need_path("read_bytes", path), encoding=None)

            def write(self, path, data):
                """Writes str (as UTF-8) or bytes to the file, replacing it."""
                if isinstance(data, bytearray):
                    data = bytes(data)
                if not isinstance(data, (str, bytes)):
                    raise TypeError("files.write() takes str or bytes")
                fs("writeFile", "write", path=need_path("write", path), data=data)

            def listdir(self, path="/"):
                """The names in a directory."""
                return fs("readdir", "listdir", path=need_path("listdir", path))

            def stat(self, path):
                """{'size': int, 'is_file': bool, 'is_dir': bool}."""
                raw = fs("stat", "stat", path=need_path("stat", path))
                return {"size": raw["size"], "is_file": raw["isFile"], "is_dir": raw["isDirectory"]}

            def remove(self, path, recursive=False):
                """Removes a file (a directory only with recursive=True)."""
                fs("rm", "remove", path=need_path("remove", path), recursive=bool(recursive))

            def glob(self, pattern, path=None):
                """Absolute paths of the files matching `pattern` (`**` descends)."""
                if not isinstance(pattern, str):
                    raise TypeError("files.glob() takes a pattern string such as '/data/**/*.csv'")
                return fs("glob", "glob", pattern=pattern, path=path)

            def __setattr__(self, name, value):
                raise AttributeError("files is read-only")

            def __repr__(self):
                return "<the agent's files: read_text, read_bytes, write, listdir, stat, remove, glob>"

        return Files()

    api = Api()
    api.define = define
    api.install_bridges = install_bridges
    api.run = run
    api.snapshot = encode_all
    api.restore = decode_all
    api.names = model_names
    return api
