"""The REPL runner's guest half: the host evaluates each cell in the model's module (Context.eval, as a source named
"cell N"), then hands the value to finish() or what the cell raised to fail(), which render and describe it."""

import _ast

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from pyguest.captured import _compile, _isinstance, _len, _repr, _str, _type, only_ast
    from pyguest.snapshot_format import residue_text


java_stack = "\n\nJava stack trace:"


def make_runner(main, sources, defs, residues, state):
    ns = main.__dict__

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
        if _type(message) is _str:
            message = message.split(java_stack, 1)[0]  # GraalPy appends the Java stack to some errors' text
        return [name, message, stack_of(e.__traceback__)]

    def record_defs(tree, filename, lines):
        for node in tree.body:
            if _type(node) in (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                source = "".join(lines[first - 1 : node.end_lineno])
                obj = ns.get(node.name)
                # Only what the statement made (possibly decorated), not a value the name was rebound to later.
                if callable(obj) and getattr(obj, "__name__", None) == node.name:
                    defs[id(obj)] = (obj, filename, first, node.name, source)

    def enter(n, code):
        """Keeps the lines of cell n for tracebacks; returns its file name."""
        filename = f"cell {n}"
        sources[filename] = code.splitlines(True)
        if n > state["cells"]:
            state["cells"] = n
        return filename

    def keep_defs(code, filename):
        """Records the top-level defs and classes of a cell that ran (or began to), for snapshots."""
        try:
            tree = _compile(code, filename, "exec", only_ast)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        record_defs(tree, filename, sources[filename])

    # finish() runs after every cell, most often in GraalPy's interpreter (a young process compiles it late): it
    # calls no function of its own, and gives the host one string to read.
    def finish(n, code, value, budget, defines):
        """The outcome of cell n, which ran and gave `value` (the module itself when it gave none): its rendering,
        cut to `budget` characters, after "+" when it was cut and "=" when not. `defines`: whether a line of the
        cell may start a top-level def or class (the host's PythonGuest.mayDefine), which keep_defs then records."""
        filename = f"cell {n}"
        sources[filename] = code.splitlines(True)
        if n > state["cells"]:
            state["cells"] = n
        if defines:
            keep_defs(code, filename)
        text = _repr(None if value is main else value)
        if _type(text) is not _str:
            text = _str(text)
        return ("+" if _len(text) > budget else "=") + text[:budget]

    def fail(n, code, e, defines):
        """The outcome of cell n, which did not parse or raised `e`: ["error", type, message, stack]."""
        filename = enter(n, code)
        if defines and not (_isinstance(e, SyntaxError) and e.filename == filename):
            keep_defs(code, filename)
        return ["error", *describe(e)]

    return finish, fail
