"""The time each huge or deeply nested cell of the attack corpus takes against its timeout, in one fresh process.

Runs every case of ``langchain_graalvm.cli.attacks.SOURCE_ATTACKS`` (JavaScript, TypeScript and Python; 10 KB to
5 MB; each nesting kind) one after another in a fresh process, one interpreter per guest, then a normal cell in a
new interpreter. Prints one row per case: its size, the outcome, the time the eval took and that time over the
timeout. A case refused by the size or nesting check answers in milliseconds; a case within the limits runs or
is stopped at the timeout, plus the grace and the engine's uninterruptible parse.

    .venv/bin/python bench/source_limits.py [--timeout 2.0] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

ONE_RUN = r"""
import json, sys, time
from langchain_graalvm import Interpreter
from langchain_graalvm.cli.attacks import SOURCE_ATTACKS, check_source_outcome

timeout = float(sys.argv[1])
interpreters = {g: Interpreter(g, timeout=timeout) for g in ("js", "python")}
for g, it in interpreters.items():
    it.eval("var kept = 41" if g == "js" else "kept = 41")
for attack in SOURCE_ATTACKS:
    it = interpreters[attack.guest]
    if attack.timeout is not None:
        it = Interpreter(attack.guest, timeout=attack.timeout)
        it.eval("var kept = 41" if attack.guest == "js" else "kept = 41")
    started = time.monotonic()
    out = it.eval(attack.code)
    took = time.monotonic() - started
    problem = check_source_outcome(attack, out.status, out.value, out.error_type, out.state_reset)
    print(json.dumps({"id": attack.id, "language": attack.language, "bytes": len(attack.code.encode()),
                      "timeout": attack.timeout or timeout,
                      "outcome": out.error_type or "ok", "took": took, "problem": problem,
                      "kept": it.eval("kept + 1").value == "42"}), flush=True)
started = time.monotonic()
value = Interpreter(timeout=30.0).eval("6 * 7").value
print(json.dumps({"id": "new interpreter, 6 * 7", "language": "js", "bytes": 5, "outcome": value, "timeout": 30.0,
                  "took": time.monotonic() - started, "problem": None if value == "42" else value, "kept": True}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON lines")
    args = parser.parse_args()
    proc = subprocess.run([sys.executable, "-c", ONE_RUN, str(args.timeout)], capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr[-3000:], file=sys.stderr)
        return 1
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print("| case | guest | bytes | outcome | took | timeout | took / timeout | globals kept | as expected |")
    print("|---|---|---:|---|---:|---:|---:|---|---|")
    for r in rows:
        print(f"| {r['id']} | {r['language']} | {r['bytes']:,} | {r['outcome']} | {r['took']:.2f} s "
              f"| {r['timeout']:g} s | {r['took'] / r['timeout']:.2f} | {'yes' if r['kept'] else 'NO'} | "
              f"{'yes' if r['problem'] is None else r['problem']} |")
    return 0 if all(r["problem"] is None and r["kept"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
