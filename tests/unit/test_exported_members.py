"""The public API: ``langchain_graalvm.__all__`` is exactly this list, and every name in it imports."""

from __future__ import annotations

import langchain_graalvm
import langchain_graalvm.middleware

PUBLIC = [
    "AuditRecord",
    "CodeInterpreterMiddleware",
    "EvalOutcome",
    "EvalOutputEvent",
    "FetchError",
    "FilesAccess",
    "GraalVMError",
    "GuestUnavailableError",
    "Interpreter",
    "InterpreterClosedError",
    "InterpreterOptions",
    "JvmError",
    "JvmUnusableError",
    "OptionsError",
    "SnapshotError",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
    "runtime_info",
]


def test_all_is_the_public_api() -> None:
    assert langchain_graalvm.__all__ == PUBLIC


def test_every_public_name_imports() -> None:
    for name in langchain_graalvm.__all__:
        assert getattr(langchain_graalvm, name) is not None, name


def test_public_exceptions_share_one_root() -> None:
    for name in PUBLIC:
        member = getattr(langchain_graalvm, name)
        if isinstance(member, type) and issubclass(member, BaseException):
            assert issubclass(member, langchain_graalvm.GraalVMError), name


def test_middleware_public_path_is_the_agents_middleware() -> None:
    from langchain_graalvm.agents.middleware import CodeInterpreterMiddleware

    assert langchain_graalvm.middleware.__all__ == ["CodeInterpreterMiddleware", "GraalVMInterpreterState"]
    assert langchain_graalvm.CodeInterpreterMiddleware is CodeInterpreterMiddleware


def test_a_bad_option_is_an_options_error_and_still_a_value_error() -> None:
    import pytest

    from langchain_graalvm import InterpreterOptions, OptionsError

    with pytest.raises(OptionsError, match="timeout must be > 0 seconds") as caught:
        InterpreterOptions(timeout=0)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, langchain_graalvm.GraalVMError)
