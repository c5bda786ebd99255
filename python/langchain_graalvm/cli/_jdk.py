"""``langchain-graalvm install --jdk``: fetch GraalVM Community JDK 25, with its libgraal, into the package's cache.

The archive's address comes from a JVM index in coursier's format (``{os: {arch: {"jdk@graalvm-community":
{version: "tgz+https://..."}}}}``, the index cjdk reads too); its SHA-256 is the one pinned in
:mod:`langchain_graalvm._runtime._compiler` for the pinned JDK, else the ``<archive>.sha256`` file published next to
it. Nothing half-installed is ever used: the archive is downloaded into a hidden staging folder of the cache
(``.partial-<pid>-...``, which the finder never looks at), checked (length and SHA-256), extracted there, checked
again (a JDK 25), and only then renamed into place in one step. A staging folder left by a process that died is
removed by the next install.

cjdk 0.5.0 was not used for the download itself: its progress bar is not tqdm, and a process killed while fetching
leaves a ``fetching`` folder that makes every later fetch of the same archive wait five minutes and then fail.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import platform
import re
import shutil
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from .._runtime import _jvmfinder
from .._runtime._compiler import PINNED_JDK, PINNED_SHA256
from .._runtime._jvmfinder import JIT_JDK, inspect_jdk, jdks_dir, sweep_partials
from .._runtime._manifest import sha256_of
from .._settings import name_of, settings
from ..errors import FetchError, JvmError

INDEX_URL = "https://raw.githubusercontent.com/coursier/jvm-index/master/index.json"
INDEX_ENV = name_of("jdk_index")
VENDOR = "jdk@graalvm-community"
_CHUNK = 1 << 16


def platform_key() -> tuple[str, str]:
    """This machine as the index names it: (``linux`` / ``darwin`` / ``windows``, ``amd64`` / ``arm64``)."""
    system = {"win32": "windows"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "x64": "amd64", "aarch64": "arm64"}.get(machine, machine)
    return system, arch


def _open(url: str, timeout: float) -> Any:
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme != "https" and not (parsed.scheme == "http" and parsed.hostname in ("127.0.0.1", "localhost")):
        raise FetchError(f"refusing {url}: only https (or plain http to this machine) is used")
    try:
        return urllib.request.urlopen(url, timeout=timeout)  # noqa: S310 - the scheme is checked above
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"could not fetch {url}: {exc}") from exc


def archive_url(index_url: str, version: str, where: tuple[str, str], timeout: float) -> tuple[str, str]:
    """The archive kind (``tgz`` or ``zip``) and address of GraalVM Community JDK ``version`` for ``where``."""
    with _open(index_url, timeout) as response:
        try:
            index = json.loads(response.read())
            entry = index[where[0]][where[1]][VENDOR][version]
        except (ValueError, KeyError, TypeError) as exc:
            raise FetchError(
                f"the JDK index {index_url} lists no GraalVM Community JDK {version} for {where[0]}-{where[1]}"
            ) from exc
    kind, _, url = str(entry).partition("+")
    if kind not in ("tgz", "zip") or not url:
        raise FetchError(f"the JDK index {index_url} gives {entry!r}, not a tgz+ or zip+ address")
    return kind, url


def expected_sha256(url: str, pinned: str | None, timeout: float) -> str:
    """The pinned SHA-256, else the one in the ``.sha256`` file next to the archive."""
    if pinned:
        return pinned.lower()
    with _open(url + ".sha256", timeout) as response:
        text = response.read(4096).decode("ascii", errors="replace")
    match = re.match(r"\s*([0-9a-fA-F]{64})\b", text)
    if not match:
        raise FetchError(f"{url}.sha256 does not hold a SHA-256")
    return match.group(1).lower()


def _download(url: str, dest: Path, *, progress: bool, timeout: float) -> None:
    from tqdm import tqdm

    with _open(url, timeout) as response, dest.open("wb") as out:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        got = 0
        with tqdm(
            total=total, unit="B", unit_scale=True, unit_divisor=1024, desc="GraalVM JDK", disable=not progress,
            file=sys.stderr,
        ) as bar:
            while True:
                try:
                    chunk = response.read(_CHUNK)
                except (OSError, http.client.HTTPException) as exc:  # a reset connection, an IncompleteRead
                    raise FetchError(f"the download of {url} broke off after {got} bytes: {exc}") from exc
                if not chunk:
                    break
                out.write(chunk)
                got += len(chunk)
                bar.update(len(chunk))
    if total is not None and got != total:
        raise FetchError(f"the download of {url} broke off: {got} of {total} bytes")


def _extract(kind: str, archive: Path, into: Path) -> None:
    try:
        if kind == "tgz":
            with tarfile.open(archive, "r:gz") as tar:
                tar.extractall(into, filter="data")
        else:
            with zipfile.ZipFile(archive) as zipped:
                zipped.extractall(into)
    except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError) as exc:
        raise FetchError(f"the JDK archive could not be extracted: {exc}") from exc


def _home_in(folder: Path) -> Path | None:
    """The JDK home inside an extracted archive: one folder down (``Contents/Home`` in a macOS bundle)."""
    for top in sorted(folder.iterdir()):
        for home in (top, top / "Contents" / "Home"):
            if (home / "release").is_file():
                return home
    return None


def sweep_stale() -> None:
    """Removes staging folders whose process is gone (killed during a fetch)."""
    sweep_partials(jdks_dir())


def install_jdk(
    *,
    version: str = PINNED_JDK,
    index_url: str | None = None,
    sha256: str | None = None,
    progress: bool = True,
    timeout: float = 60.0,
) -> Path:
    """Fetches GraalVM Community JDK ``version`` into :func:`jdks_dir` unless it is there; returns its home.

    ``sha256``: the archive's digest; by default the pinned one for the pinned JDK on this platform, else the
    published ``.sha256`` file. Raises :class:`FetchError` with nothing left behind when any step fails.
    """
    target = jdks_dir() / f"graalvm-community-{version}"
    if inspect_jdk(target) is not None:
        return target
    jdks_dir().mkdir(parents=True, exist_ok=True)
    sweep_stale()
    where = platform_key()
    index_url = index_url or settings().jdk_index or INDEX_URL
    staging = jdks_dir() / f".partial-{os.getpid()}-{version}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        kind, url = archive_url(index_url, version, where, timeout)
        pinned = sha256 or (PINNED_SHA256.get(where) if version == PINNED_JDK else None)
        digest = expected_sha256(url, pinned, timeout)
        archive = staging / f"archive.{kind}"
        _download(url, archive, progress=progress, timeout=timeout)
        actual = sha256_of(archive)
        if actual != digest:
            raise FetchError(f"{url} has SHA-256 {actual}, expected {digest}: refusing to use it")
        _extract(kind, archive, staging / "x")
        archive.unlink()
        home = _home_in(staging / "x")
        jdk = inspect_jdk(home) if home else None
        if home is None or jdk is None or jdk.feature != JIT_JDK:
            raise FetchError(f"{url} does not hold a JDK {JIT_JDK} (no release file and lib/server/libjvm.so)")
        with contextlib.suppress(OSError):  # another install may have finished first: then its copy is used
            home.rename(target)
        if inspect_jdk(target) is None:
            raise FetchError(f"could not move the JDK into {target}")
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def install_command(*, index_url: str | None, progress: bool) -> int:
    """``install --jdk``: fetch the pinned JDK and say where it is and which compiler it brings."""
    from .._runtime._jvmfinder import libgraal_problem

    try:
        home = install_jdk(index_url=index_url, progress=progress)
    except FetchError as exc:
        print(f"error: GraalVM Community JDK {PINNED_JDK}: {exc}", file=sys.stderr)
        return 1
    jdk = inspect_jdk(home)
    problem = libgraal_problem(jdk) if jdk else "not a JDK"
    try:
        chosen: Any = _jvmfinder.find_jdk()
    except JvmError:
        chosen = None
    if chosen != jdk:
        where = chosen.home if chosen is not None else "no JDK"
        print(f"GraalVM Community JDK {PINNED_JDK} in {home}; the sandbox runs on {where} instead "
              "(the finder prefers it; LANGCHAIN_GRAALVM_JAVA_HOME, when set, always wins)")
        return 0
    if jdk is not None and problem is None:
        from .._runtime._launch import find_runtime_dir

        problem = libgraal_trial(jdk, find_runtime_dir())
    how = "libgraal" if problem is None else f"jargraal ({problem})"
    print(f"GraalVM Community JDK {PINNED_JDK} in {home}: the sandbox finds it and compiles guest code with {how}")
    return 0


def doctor_compiler_line(jdk: Any, runtime: Path, running: str) -> tuple[str, str, str, str | None]:
    """``doctor``'s line on the compiler that runs, what it means for a fresh process, and how to get libgraal."""
    from .._runtime._compiler import MEANING, choose

    note = choose(jdk, runtime).note
    detail = f"{running}: {MEANING.get(running, '')}" + (f" ({note})" if note else "")
    if running == "libgraal":
        return "ok", "compiler", detail, None
    fix = "`langchain-graalvm install --jdk` fetches GraalVM Community JDK 25, whose libgraal the sandbox then uses"
    return "info", "compiler", detail, fix if running == "jargraal" else None


_TRIAL = (
    "from langchain_graalvm import Interpreter, runtime_info\n"
    "print(Interpreter(prestart=False).eval('6 * 7').text, runtime_info()['compiler'])\n"
)


# How long a libgraal trial start may take (a first start on a loaded machine can take minutes).
TRIAL_SECONDS = 600


def libgraal_trial(jdk: Any, runtime: Path) -> str | None:
    """Starts a child process on ``jdk``'s libgraal, once per library, when it is the compiler this process would
    use; records the verdict (see :func:`langchain_graalvm._runtime._compiler.trial_failure`). Returns why it
    failed, or None (passed, or not needed)."""
    import subprocess

    from .._runtime import _compiler

    if _compiler.choose(jdk, runtime).name != "libgraal" or _compiler.trial_marker(jdk).is_file():
        return _compiler.trial_failure(jdk) if jdk.libgraal else None
    marker = _compiler.trial_marker(jdk)
    marker.parent.mkdir(parents=True, exist_ok=True)
    # HotSpot's crash report, if the library kills the child, goes beside the verdict.
    options = " ".join([*settings().jvm_options, f"-XX:ErrorFile={marker}.hs_err_%p.log"])
    env = {
        **os.environ,
        "LANGCHAIN_GRAALVM_JVM_OPTIONS": options,
        _compiler.TRIAL_ENV: "1",
        "LANGCHAIN_GRAALVM_JAVA_HOME": str(jdk.home),
        "LANGCHAIN_GRAALVM_BACKGROUND_START": "0",
        "LANGCHAIN_GRAALVM_FAST_START": "0",
    }
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _TRIAL], capture_output=True, text=True, env=env, timeout=TRIAL_SECONDS, check=False
        )
        passed = proc.returncode == 0 and "<result>42</result> libgraal" in proc.stdout
        said = (proc.stdout + proc.stderr).strip().splitlines()
        how = f"exit code {proc.returncode}" if proc.returncode >= 0 else f"signal {-proc.returncode}"
        fatal = next((line.strip("# ") for line in said if "fatal error:" in line or "Error:" in line), None)
        verdict = "ok" if passed else f"{how}: {fatal or ' / '.join(said[-3:])[-300:]}"
    except subprocess.TimeoutExpired:
        # A start that is only slow (a loaded machine) says nothing against the library: no verdict is kept, so
        # the next `install` or `doctor` tries again, and until then the JDK's libgraal is taken at its word.
        return f"the trial start did not finish in {TRIAL_SECONDS} s (not recorded: the next run tries again)"
    marker.write_text(verdict + "\n")
    return None if verdict == "ok" else verdict
