"""The built-ins the guest runner uses, captured when the host evaluates python_guest.py, before any model code runs,
so a model that replaces builtins.len or builtins.repr cannot change how results and snapshots are made."""


_type, _repr, _len, _str, _isinstance = type, repr, len, str, isinstance
_exec, _compile = exec, compile
only_ast = 0x400  # ast.PyCF_ONLY_AST
