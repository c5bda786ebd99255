"""The REPL runner: one cell at a time in the model's namespace, its value rendered, its errors described."""

import _ast

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in the assembled module's globals when run (python_guest.py)
    from pyguest.captured import _compile, _eval, _exec, _isinstance, _len, _repr, _str, _type, only_ast
    from pyguest.snapshot_format import residue_text


java_stack = "\n\nJava stack trace:"
# How a line that starts a top-level def or class begins (a superset: "defaults = 1" matches too).
_def_starts = ("def", "class", "async", "@", "\f")


def may_define(code):
    """Whether a line of the cell may start a top-level def or class, which record_defs reads from the AST; a cell
    without one needs no AST. Plain string methods: importing re would cost every new context its import."""
    if code.startswith(_def_starts):
        return True
    for start in _def_starts:
        if "\n" + start in code:
            return True
    return False


def only_comments(text):
    """Whether the lines of text hold no statement: blank lines and comments only, which compile to nothing."""
    for line in text.split("\n"):
        rest = line.lstrip(" \t\f")
        if rest and rest[0] != "#" and rest != "\r":
            return False
    return "\x00" not in text  # compile() refuses a null byte anywhere, comments included


def make_runner(ns, sources, defs, residues, state):
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

    def split_last_line(code, filename):
        """The cell compiled as (statements, final expression) from its text, when its last line is a top-level
        expression; None when it cannot tell, and the AST decides.

        GraalPy compiles source text about three times faster than an AST, and a model's cell mostly ends in an
        expression on a line of its own. That line is the final expression statement when it starts at column 0
        and compiles alone as an expression, and the lines before it compile alone as statements: the text before
        it then ends no bracket, string, continuation or block that the line could belong to. Lines are split at
        "\n" only, the tokenizer's own line ends ("\r" aside: such a cell goes to the AST). Lines before it that
        hold only comments (a model's cell often opens with one) are not compiled at all.
        """
        text = code.rstrip(" \t\r\n")
        cut = text.rfind("\n") + 1
        last = text[cut:]
        if not last or last[0] in " \t\f#" or "\r" in code.replace("\r\n", "\n"):
            return None
        head = code[:cut]
        try:
            # Padded so that the expression keeps its own line number in tracebacks.
            final = _compile("\n" * head.count("\n") + last, filename, "eval")
            body = None if only_comments(head) else _compile(head, filename, "exec")
        except (SyntaxError, ValueError):
            return None
        return body, final

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
        tree = None
        split = split_last_line(code, filename)
        body, final = split if split is not None else (None, None)
        try:
            if split is None:
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
                if tree is None and may_define(code):
                    tree = _compile(code, filename, "exec", only_ast)
                if tree is not None:
                    record_defs(tree, filename, lines)
            return ["ok", *render(value, budget)]
        except BaseException as e:  # noqa: BLE001 - everything the model raises is reported, not propagated
            return ["error", *describe(e)]

    return run
