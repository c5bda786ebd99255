"""Host calls: the `tools` object, the `task` function and `files`, each call sent to the host as JSON."""

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from pyguest.files import make_files


def make_host_calls(define):
    def install_host_calls(start, wait, names, with_task, with_fs=False):
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
            raise TypeError(
                f"{type(value).__name__} values cannot be sent to a tool; send str, numbers, lists or dicts"
            )

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
                    available = ", ".join(sorted(self._tools))
                    raise AttributeError(f"no tool named {name!r}; available: {available}") from None

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

            task.start = task_start  # type: ignore[attr-defined]
            define("task", task)
        if with_fs:
            define("files", make_files(start_call))

    return install_host_calls
