"""The ``fs`` bridge: paths out of the allowed prefixes, out of the agent's files, onto the host."""

from __future__ import annotations

import json

from ._model import BRIDGE_ABUSE, EXHAUSTION, HOST_ESCAPE, Attack, make

FILES_PREFIXES = ("/data/",)
"""The corpus of :data:`FILES_ATTACKS` runs with ``files=FilesAccess("read", prefixes=FILES_PREFIXES)``."""

FILES_SEED = {"/data/seed.txt": "seed", "/secret.txt": "top secret"}
"""The agent's files each :data:`FILES_ATTACKS` case starts with (``/secret.txt`` lies outside the prefixes)."""

BRIDGE_ABUSE, HOST_ESCAPE = BRIDGE_ABUSE, HOST_ESCAPE
_REFUSED = ".then((v) => String(v).includes('secret') ? 'LEAKED' : 'read', () => 'refused')"


def _read(path: str) -> str:
    return f"await fs.readFile({json.dumps(path)}, 'utf8'){_REFUSED}"


FILES_ATTACKS: tuple[Attack, ...] = (
    make("fs-etc-passwd", HOST_ESCAPE, _read("/etc/passwd"), "value:refused", "a host file by its absolute path"),
    make("fs-outside-prefix", BRIDGE_ABUSE, _read("/secret.txt"), "value:refused", "an agent file outside the allowed prefixes"),
    make("fs-dot-dot", BRIDGE_ABUSE, _read("/data/../secret.txt"), "value:refused", "`..` out of an allowed prefix"),
    make("fs-dot-dot-deep", HOST_ESCAPE, _read("/data/../../../../etc/passwd"), "value:refused", "`..` past the root"),
    make("fs-double-slash", BRIDGE_ABUSE, _read("//secret.txt"), "value:refused", "a leading `//` normalised past the prefix"),
    make("fs-prefix-sibling", BRIDGE_ABUSE, _read("/data-evil/../secret.txt"), "value:refused", "a sibling of the prefix"),
    make("fs-encoded-dot-dot", BRIDGE_ABUSE, _read("/data/%2e%2e/secret.txt"), "value:refused", "percent-encoded `..`"),
    make("fs-backslash", BRIDGE_ABUSE, _read("/data/..\\secret.txt"), "value:refused", "a backslash as a separator"),
    make("fs-nul", BRIDGE_ABUSE, _read("/data/seed.txt\u0000/../../secret.txt"), "value:refused", "a NUL byte in the path"),
    make("fs-relative", BRIDGE_ABUSE, _read("../secret.txt"), "value:refused", "a relative path"),
    make("fs-file-url", HOST_ESCAPE, _read("file:///etc/passwd"), "value:refused", "a file: URL as the path"),
    make(
        "fs-path-object",
        BRIDGE_ABUSE,
        "await fs.readFile({toString() { return '/secret.txt'; }}, 'utf8').then(() => 'read', (e) => e.name)",
        "value:TypeError",
        "an object whose toString names a forbidden path",
    ),
    make(
        "fs-write-in-read-mode",
        BRIDGE_ABUSE,
        "await fs.writeFile('/data/seed.txt', 'owned').then(() => 'written', (e) => e.code)",
        "value:EACCES",
        "a write in read mode",
        follow=((_read("/data/seed.txt").replace(_REFUSED, ""), "value:seed"),),
    ),
    make(
        "fs-rm-root",
        BRIDGE_ABUSE,
        "await fs.rm('/', {recursive: true}).then(() => 'removed', (e) => e.code)",
        "value:EACCES",
        "removing every file",
        follow=(("await fs.readdir('/data')", 'value:["seed.txt"]'),),
    ),
    make(
        "fs-glob-escape",
        BRIDGE_ABUSE,
        "(await fs.glob('**/*').catch(() => [])).concat(await fs.glob('../**/*').catch(() => []))"
        ".filter((p) => !p.startsWith('/data/')).length",
        "value:0",
        "a glob that reaches past the prefixes",
    ),
    make(
        "fs-glob-cwd-root",
        BRIDGE_ABUSE,
        "await fs.glob('*', {cwd: '/'}).then((r) => r.join(','), (e) => e.code)",
        "value:EACCES",
        "a glob rooted above the prefixes",
    ),
    make(
        "fs-frozen",
        BRIDGE_ABUSE,
        "fs.readFile = async () => 'fake'",
        "error:TypeError",
        "replacing an fs function",
        follow=(("typeof fs.readFile + typeof fs.promises.readFile", "value:functionfunction"),),
    ),
    make(
        "fs-deleted-and-restored",
        BRIDGE_ABUSE,
        "delete globalThis.fs; typeof fs",
        "value:undefined",
        "deleting the fs global, which the next eval gets back",
        follow=(("await fs.readFile('/data/seed.txt', 'utf8')", "value:seed"),),
    ),
    make(
        "fs-prototype-pollution",
        BRIDGE_ABUSE,
        "Object.defineProperty(Object.prototype, 'path', {get() { return '/secret.txt'; }, configurable: true});"
        f" const r = {_read('/data/nope.txt')}; delete Object.prototype.path; r",
        "value:refused",
        "a getter on Object.prototype that would rename the path sent to the host",
    ),
    make(
        "fs-promise-then-hijack",
        BRIDGE_ABUSE,
        "Promise.prototype.then = function () { return 'hijacked'; }; typeof fs.stat('/data/seed.txt')",
        "value:object",
        "a replaced Promise.prototype.then while fs.stat wraps its result",
    ),
    make(
        "fs-huge-write",
        EXHAUSTION,
        "await fs.writeFile('/data/big.txt', 'x'.repeat(9 * 2 ** 20)).then(() => 'written', (e) => e.name)",
        "value:RangeError",
        "a write larger than one host call may carry",
    ),
    make(
        "import-host-file",
        HOST_ESCAPE,
        "await import('/etc/passwd').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a host file as an ES module",
    ),
    make(
        "import-file-url",
        HOST_ESCAPE,
        "await import('file:///etc/passwd').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a file: URL as a module specifier",
    ),
    make(
        "import-outside-prefix",
        BRIDGE_ABUSE,
        "await import('/secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "an agent file outside the prefixes as a module",
    ),
    make(
        "import-relative-escape",
        BRIDGE_ABUSE,
        "await import('./data/../../secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a relative specifier climbing out",
    ),
    make(
        "import-eval-prefix",
        BRIDGE_ABUSE,
        "await import('/.eval-1/secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "the module cache's internal path prefix",
    ),
    make(
        "import-http",
        HOST_ESCAPE,
        "await import('http://127.0.0.1:9/x.js').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a module over the network",
    ),
)
