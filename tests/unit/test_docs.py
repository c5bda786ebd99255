"""The docs name only what exists: every repository path, module, class and relative link in README.md and
docs/*.md is checked against the tree.

What is checked, and where a name must be found:

- a repository path (``python/...``, ``java/...``, ``tests/...``, ``bench/...``, ``scripts/...``, ``docs/...``,
  ``examples/...``, or ``langchain_graalvm/...``), in prose or code: a file or folder of the tree;
- a file name in backticks (```_runtime/_worker.py```, ```prelude.js```, ```guest/UnwindGuard.java```): a file of
  the tree whose path ends with it;
- a private module in backticks (```_adapter```, ```_runtime/```, ```agents._hostcalls```): a module or package
  under python/langchain_graalvm;
- a class-like name in backticks (```Sandbox```, ```HostCallQueue.poll```): a Java type under java/src (a file
  ``<Name>.java`` or a type declared in one), a Python class, a name of :data:`EXTERNAL` (the reason beside it),
  or a word of :data:`PROJECT_WORDS` that occurs in the sources; after a dot, a member named in its class's file;
- a relative markdown link: an existing file, and its ``#anchor`` a heading of the target.

A name the checker cannot place fails the test with the file and line it is on. To name something new, make it
exist; to name something of another project, add it to :data:`EXTERNAL` with the reason.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "python/langchain_graalvm"

# What the tree holds is the sources, not what a build or a tool leaves in it.
_SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "dist",
    "build",
}
# Built, not kept: a path under one of these is named as what a build makes.
GENERATED = {
    "java/target": "Maven's output (the runtime folder a checkout runs on, built by scripts/setup.sh)",
}
_REPO_ROOTS = ("python", "java", "tests", "bench", "scripts", "docs", "examples")


def _named(reason: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), reason)


# Class-like names of other projects that the docs may name, with the reason.
EXTERNAL: dict[str, str] = {
    **_named(
        "a JavaScript built-in",
        "Array ArrayBuffer AsyncDisposableStack DataView Date DisposableStack Error Function Iterator Map Math "
        "NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String Symbol SyntaxError "
        "SuppressedError TypeError Uint8Array WeakMap",
    ),
    **_named(
        "a Python built-in, standard-library name or value",
        "AssertionError CancelledError Counter Decimal False FileNotFoundError GeneratorExit IsADirectoryError "
        "KeyboardInterrupt Logger None NotADirectoryError OSError PermissionError RecursionError RuntimeError "
        "SystemExit TimeoutError True UnicodeDecodeError ValueError",
    ),
    **_named(
        "GraalVM, Truffle or GraalPy (org.graalvm.*, com.oracle.truffle.*, GraalPy's options)",
        "Context Engine Graal HostAccess IOAccess OptimizedDirectCallNode Polyglot PolyglotException "
        "SandboxPolicy Source Value DontWriteBytecodeFlag",
    ),
    **_named(
        "a Truffle engine option (engine.*)",
        "BackgroundCompilation CompilationFailureAction CompilerThreads Inlining LastTierCompilationThreshold "
        "MinInvokeThreshold Mode MultiTier SingleTierCompilationThreshold Splitting TraceCompilation "
        "TraceCompilationDetails",
    ),
    **_named(
        "the JDK (java.*, jdk.*, HotSpot)",
        "AOTLinkedClassBulkLoader AutoCloseable Java NoClassDefFoundError OutOfMemoryError ReentrantLock "
        "ReentrantReadWriteLock StackOverflowError StampedLock System ThreadMXBean ThrowableTracer TimSort",
    ),
    **_named(
        "LangChain, LangGraph or Deep Agents",
        "BaseTool Command DeltaChannel FilesystemBackend HITLRequest HumanInTheLoopMiddleware InjectedState "
        "InjectedStore InjectedToolCallId InterruptOnConfig PostgresSaver StateBackend StateSnapshot "
        "StructuredTool ToolApprovalRequest ToolCallRequest ToolMessage ToolRuntime",
    ),
    **_named("pydantic", "ValidationError"),
}

# CamelCase words that a block of plain text may hold and that are no classes: products and units.
PRODUCTS = (
    "CPython GraalJS GraalPy GraalVM HotSpot JPype JavaScript LangChain LangChain4j LangGraph MessagePack NumPy "
    "QuickJS TypeScript GiB KiB MiB"
).split()

# Names of this project that are not classes (an error type the model reads in an envelope, a guest global): each
# must occur as a word in the sources.
PROJECT_WORDS = (
    "ApprovalRequired Cancelled CodeTooDeep CodeTooLarge ConcurrentEval Deadlock HostError InternalError "
    "OutOfMemory PTCCallBudgetExceeded ReviewRuleError SandboxUnavailable Timeout ToolEditError ToolRejected"
).split()

# Private names of other projects that look like this package's private modules.
EXTERNAL_PRIVATE: dict[str, str] = {
    **_named(
        "CPython's or GraalPy's own internals",
        "_compile _find_and_load_unlocked _strptime",
    ),
}

_FILE_EXTS = "py|js|mjs|cjs|java|json|toml|sh|xml|md"
_FENCE = re.compile(r"^\s*(```|~~~)")
_SPAN = re.compile(r"`([^`\n]+)`")
_REPO_PATH = re.compile(
    r"(?<![\w/.~@$-])((?:python|java|tests|bench|scripts|docs|examples|langchain_graalvm)/[\w./-]*)"
)
_FILE_NAME = re.compile(rf"^(?:[\w.-]+/)*[\w-]+\.(?:{_FILE_EXTS})$")
_PRIVATE_MODULE = re.compile(r"^(?:(?:langchain_graalvm|agents|_[a-z]\w*)[./])*_[a-z][a-z0-9_]*(?:\.py|/)?$")
_CLASS = re.compile(
    r"^(?:([a-z]\w*)\.(?:[a-z]\w*\.)*)?"  # a package, whose first name is kept
    r"([A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]*)"  # the class: a capital, and a lower-case letter somewhere
    r"(?:[.#$]([A-Za-z_]\w*))?(?:\(\))?$"  # a member
)
# A class name qualified by a package is this project's only under one of its own packages (``guest.Engines``,
# ``worker.Wire``, ``langchain_graalvm.EvalOutcome``); ``logging.Logger`` or ``engine.Mode`` is another project's.
_OWN_PACKAGES = {"io", "guest", "hostcall", "internal", "langchain4j", "text", "worker", "langchain_graalvm"}
_CAMEL = re.compile(r"\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class Tree:
    """The files and folders of the repository, as paths relative to its root."""

    files: frozenset[str]
    dirs: frozenset[str]

    def has(self, path: str) -> bool:
        path = path.rstrip("/")
        return path in self.files or path in self.dirs

    def ends_with(self, name: str) -> bool:
        """Whether some file's path ends with ``name``, component by component."""
        name = name.rstrip("/")
        return any(p == name or p.endswith("/" + name) for p in self.files | self.dirs)


@functools.cache
def tree() -> Tree:
    files: set[str] = set()
    dirs: set[str] = set()
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in _SKIPPED_DIRS or part.endswith(".egg-info") for part in rel.parts):
            continue
        if rel.as_posix().startswith(tuple(GENERATED)):
            continue
        (dirs if path.is_dir() else files).add(rel.as_posix())
    return Tree(frozenset(files), frozenset(dirs))


@functools.cache
def java_types() -> dict[str, Path]:
    """Every Java type of the project (top-level by file name, nested by declaration) and the file it is in."""
    types: dict[str, Path] = {}
    for path in sorted((ROOT / "java/src").rglob("*.java")):
        types.setdefault(path.stem, path)
        for name in re.findall(r"\b(?:class|interface|record|enum)\s+([A-Z]\w*)", path.read_text("utf-8")):
            types.setdefault(name, path)
    return types


@functools.cache
def python_classes() -> dict[str, Path]:
    """Every Python class of the package and the tests, and the file it is in."""
    classes: dict[str, Path] = {}
    for root in ("python", "tests"):
        for path in sorted((ROOT / root).rglob("*.py")):
            for name in re.findall(r"^\s*class\s+(\w+)", path.read_text("utf-8"), re.MULTILINE):
                classes.setdefault(name, path)
    return classes


@functools.cache
def python_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted((ROOT / PACKAGE).rglob("*.py")))


@functools.cache
def source_text() -> str:
    parts = [p.read_text("utf-8") for p in sorted((ROOT / PACKAGE).rglob("*.py"))]
    parts += [
        p.read_text("utf-8")
        for p in sorted((ROOT / "java/src/main").rglob("*"))
        if p.is_file() and p.suffix in {".java", ".js", ".py"}
    ]
    return "\n".join(parts)


def _strip(token: str) -> str:
    return token.rstrip(".,:;)")


def _is_generated(path: str) -> bool:
    return path.startswith(tuple(GENERATED))


def check_path(path: str) -> str | None:
    """Why a repository path in the text names nothing, or None when it exists."""
    path = _strip(path)
    if path.startswith("langchain_graalvm/"):
        path = "python/" + path
    if path.rstrip("/") in _REPO_ROOTS or _is_generated(path) or "..." in path:
        return None
    return None if tree().has(path) else f"path {path!r} is not in the tree"


def check_span(span: str) -> str | None:
    """Why a backticked name names nothing of this project or of the external ones, or None."""
    span = span.strip()
    if _FILE_NAME.match(span) and not _REPO_PATH.match(span):
        return None if tree().ends_with(span) else f"file {span!r} is not in the tree"
    if _PRIVATE_MODULE.match(span):
        return _check_module(span)
    match = _CLASS.match(span)
    if match and (match.group(1) is None or match.group(1) in _OWN_PACKAGES):
        return _check_class(match.group(2), match.group(3))
    return None


def _check_module(span: str) -> str | None:
    if span in EXTERNAL_PRIVATE:
        return None
    name = span.removesuffix(".py").rstrip("/").removeprefix("langchain_graalvm.").removeprefix("langchain_graalvm/")
    rel = name.replace(".", "/")
    package = tree()
    candidates = [f"{rel}.py", rel]
    base = PACKAGE + "/"
    if any(
        p.startswith(base) and (p[len(base) :] in candidates or p.endswith(tuple("/" + c for c in candidates)))
        for p in package.files | package.dirs
    ):
        return None
    # A bare private name may also be a function or a state key of the package (`_store_snapshot`,
    # `_graalvm_snapshot`); a path (`_runtime/_nothing.py`) or a dotted name must be a module.
    if re.fullmatch(r"_[a-z][a-z0-9_]*", span) and re.search(rf"\b{span}\b", python_text()):
        return None
    return f"{span!r} is neither a module under {PACKAGE} nor a name in its sources"


def _check_class(name: str, member: str | None) -> str | None:
    if name in EXTERNAL:
        return None
    if name in PROJECT_WORDS:
        return None if re.search(rf"\b{name}\b", source_text()) else f"{name!r} occurs nowhere in the sources"
    where = java_types().get(name) or python_classes().get(name)
    if where is None:
        return f"class {name!r} is neither in java/src nor in the Python sources (nor in EXTERNAL)"
    if member is not None and not re.search(rf"\b{re.escape(member)}\b", where.read_text("utf-8")):
        return f"{name}.{member}: {member!r} is not in {where.relative_to(ROOT)}"
    return None


@functools.cache
def anchors(doc: Path) -> frozenset[str]:
    """The anchors GitHub makes of a document's headings."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    in_fence = False
    for line in doc.read_text("utf-8").splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        heading = _HEADING.match(line)
        if in_fence or heading is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(2).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(found)


def check_link(doc: Path, target: str) -> str | None:
    """Why a relative link of ``doc`` leads nowhere, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return None  # https:, mailto: and the like
    path, _, anchor = target.partition("#")
    dest = (doc.parent / path).resolve() if path else doc
    if not dest.exists():
        return f"link {target!r} leads to no file"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"link {target!r}: {dest.name} has no heading with that anchor"
    return None


def problems(doc: Path, text: str | None = None) -> list[str]:
    """Every name in ``doc`` (or in ``text``, read as if it were ``doc``) that names nothing."""
    text = doc.read_text("utf-8") if text is None else text
    rel = doc.relative_to(ROOT) if doc.is_relative_to(ROOT) else doc
    found: list[str] = []
    fence: str | None = None  # the open fence's language; None outside one
    for number, line in enumerate(text.splitlines(), 1):
        issues: list[str | None] = []
        opening = _FENCE.match(line)
        if opening:
            fence = line.strip().lstrip("`~").strip() if fence is None else None
            continue
        issues += [check_path(m) for m in _REPO_PATH.findall(line)]
        if fence is None:
            issues += [check_span(m) for m in _SPAN.findall(line)]
            issues += [check_link(doc, m) for m in _LINK.findall(line)]
        elif fence in ("", "text"):
            # A block of plain text is a tree or a list of classes: its CamelCase words are names.
            words = set(_CAMEL.findall(line)) - set(PRODUCTS)
            issues += [_check_class(word, None) for word in sorted(words)]
        found += [f"{rel}:{number}: {issue}" for issue in issues if issue is not None]
    return found


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_docs_name_only_what_exists(doc: Path) -> None:
    found = problems(doc)
    assert not found, "the docs name what does not exist:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("`Envelope`, `PlainText`", "class 'PlainText'", id="a-class-that-does-not-exist"),
        pytest.param("`Sandbox.noSuchMethod`", "'noSuchMethod' is not in", id="a-member-its-class-lacks"),
        pytest.param("`_runtime/_nothing.py`", "file '_runtime/_nothing.py'", id="a-module-file"),
        pytest.param("`_nothing`", "'_nothing' is neither a module", id="a-private-module"),
        pytest.param("`agents/_nothing`", "'agents/_nothing' is neither a module", id="a-private-module-path"),
        pytest.param(
            "see python/langchain_graalvm/nothing.py.",
            "path 'python/langchain_graalvm/nothing.py'",
            id="a-repository-path",
        ),
        pytest.param("[x](nothing.md)", "link 'nothing.md' leads to no file", id="a-link"),
        pytest.param("[x](install.md#no-such-heading)", "has no heading", id="an-anchor"),
        pytest.param("`NoSuchErrorType`", "class 'NoSuchErrorType'", id="an-unknown-word"),
        pytest.param("```\n  Envelope, PlainText   the envelope\n```", "class 'PlainText'", id="a-class-in-a-tree"),
    ],
)
def test_checker_reports_what_does_not_exist(line: str, expected: str) -> None:
    found = problems(ROOT / "docs/architecture.md", line)
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("`Sandbox.newInterpreter`, `HostCallQueue`, `guest.Engines`", id="java-types-and-members"),
        pytest.param("`Interpreter.eval`, `EvalOutcome`", id="python-classes"),
        pytest.param("`_runtime/_adapter.py`, `_adapter`, `agents/_hostcalls.py`, `_runtime/`", id="modules"),
        pytest.param("`prelude/host_calls.js`, `guest/UnwindGuard.java`, `pyproject.toml`", id="files"),
        pytest.param("`Context`, `Promise.all`, `Timeout`, java/target/runtime", id="external-and-generated"),
        pytest.param("[install](install.md#the-graal-compiler-libgraal-or-jargraal)", id="a-link-with-anchor"),
    ],
)
def test_checker_accepts_what_exists(line: str) -> None:
    assert problems(ROOT / "docs/architecture.md", line) == []


def test_the_readme_is_a_start_page() -> None:
    """The README's first lines set up and test; install comes in its first screen; the figures live in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 100, f"README.md has {len(lines)} lines; move detail into docs/"
    assert lines[3].startswith("bash scripts/demo.sh") and lines[4].startswith("bash scripts/test.sh"), lines[:6]
    install = next(i for i, line in enumerate(lines) if line.startswith("## Install"))
    assert install < 30 and any("pip install" in line for line in lines[install : install + 8]), install
