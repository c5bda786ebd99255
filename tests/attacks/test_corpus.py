"""The attack corpus (``langchain_graalvm.cli.attacks``): every hostile cell gets its documented outcome, and the same
interpreter answers ``1+1`` afterwards. Tampered snapshots are refused without changing anything."""

from __future__ import annotations

import collections

import pytest

from langchain_graalvm import Interpreter, SnapshotError
from langchain_graalvm.cli import attacks as corpus


@pytest.fixture(scope="module", autouse=True)
def _warm_sandbox() -> None:
    # A cold JVM runs its first cells slowly; warm it so 1 s limits measure the attacks, not the start-up.
    with Interpreter(timeout=60.0) as js:
        for code in ("let warm = [1, 2].map(x => x * 2); warm", "await Promise.resolve(1)", "new Intl.DateTimeFormat().format(0)"):
            js.eval(code)


def test_the_corpus_is_large_and_well_formed() -> None:
    ids = [a.id for a in corpus.ATTACKS] + [s.id for s in corpus.SNAPSHOT_ATTACKS]
    assert len(ids) == len(set(ids)), [i for i, n in collections.Counter(ids).items() if n > 1]
    assert len(corpus.ATTACKS) + len(corpus.SNAPSHOT_ATTACKS) >= 100
    per_category = collections.Counter(a.category for a in corpus.ATTACKS)
    assert set(per_category) == set(corpus.CATEGORIES), per_category
    for attack in corpus.ATTACKS:
        assert attack.expected.split(":", 1)[0] in ("value", "error", "timeout", "limit", "reset"), attack.id


@pytest.mark.parametrize("attack", corpus.ATTACKS, ids=lambda a: f"{a.category}:{a.id}")
def test_attack_is_contained(attack: corpus.Attack) -> None:
    with Interpreter(attack.language, timeout=attack.timeout, memory_limit=attack.memory_limit) as guest:
        failures = corpus.run_attack(attack, guest.eval)
    assert not failures, f"{attack.id} ({attack.description}): " + "; ".join(failures)


# The outcomes whose text the grammar leaves open are checked here: what crosses to the host is bounded.
CAP = 1 << 20


def _by_id(name: str) -> corpus.Attack:
    return next(a for a in corpus.ATTACKS if a.id == name)


def test_huge_strings_reach_the_host_as_bounded_prefixes_with_exact_counts() -> None:
    with Interpreter(timeout=10.0, memory_limit=256 * 1024 * 1024, max_result_chars=1000) as js:
        result = js.eval(_by_id("huge-result-string").code)
        assert result.status == "ok"
        assert result.value is not None and len(result.value) == CAP
        assert result.text.endswith(f"\u2026 [truncated {CAP - 979}+ chars]</result>")
        thrown = js.eval(_by_id("huge-thrown-string").code)
        assert thrown.error_type == "Error"
        assert thrown.error_message is not None and len(thrown.error_message) == CAP
        printed = js.eval(_by_id("huge-console-line").code)
        assert printed.value == "printed"
        assert len(printed.stdout) == 1000
        assert printed.stdout_dropped == 2**26 - 1000
        name = js.eval(_by_id("error-name-huge").code)
        assert name.error_type == "N" * 256
        assert len(name.text) < 1400
        assert js.eval("1+1").value == "2"


def test_huge_renders_stay_within_their_budget() -> None:
    with Interpreter(timeout=10.0, memory_limit=256 * 1024 * 1024, max_result_chars=500) as js:
        wide = js.eval(_by_id("huge-render").code)
        assert wide.status == "ok" and wide.value is not None
        assert len(wide.value) <= 4 * 1000 and wide.value.startswith("[{i: 0}, {i: 1}")
        deep = js.eval(_by_id("deep-render").code)
        assert deep.status == "ok" and deep.value is not None and "[Object]" in deep.value
        flood = js.eval(_by_id("console-flood").code)
        assert flood.value == "done" and flood.stdout_dropped > 2_000_000 and len(flood.text) < 1200


@pytest.mark.parametrize("attack", corpus.SNAPSHOT_ATTACKS, ids=lambda a: a.id)
def test_tampered_snapshot_is_refused_and_changes_nothing(attack: corpus.SnapshotAttack) -> None:
    with Interpreter(timeout=1.0, snapshots=True) as source:
        for cell in attack.setup:
            assert source.eval(cell).ok
        payload = attack.tamper(source.snapshot())
    with Interpreter(timeout=1.0, snapshots=True) as target:
        if attack.refused:
            with pytest.raises(SnapshotError):
                target.restore(payload)
        else:
            target.restore(payload)
        assert target.eval("1+1").value == "2"
        for code, expected in attack.follow:
            assert corpus._check_expected(expected, target.eval(code)) is None, (attack.id, code)


def test_oversized_snapshot_is_refused_at_the_limit_and_the_interpreter_goes_on() -> None:
    with Interpreter(timeout=5.0, snapshots=True) as js:
        js.eval("var big = Array.from({length: 50000}, (_, i) => 'item ' + i)")
        with pytest.raises(SnapshotError) as caught:
            js.snapshot(max_bytes=100_000)
        assert caught.value.too_large
        assert js.eval("big.length").value == "50000"
        assert len(js.snapshot(max_bytes=2_000_000)) > 100_000


def test_hostile_proxy_global_stops_the_snapshot_not_the_host() -> None:
    with Interpreter(timeout=1.0, snapshots=True) as js:
        js.eval("var trap = new Proxy({}, { ownKeys() { while (true) {} } }); var kept = 1")
        with pytest.raises(SnapshotError, match="stopped: TIMEOUT"):
            js.snapshot()
        assert js.eval("kept + 1").value == "2"


def test_residue_access_after_restore_is_a_clear_error() -> None:
    with Interpreter(snapshots=True) as source:
        source.eval("var handle = new WeakMap(); var data = {p: Promise.resolve(1), n: 2}")
        payload = source.snapshot()
    with Interpreter(snapshots=True) as target:
        target.restore(payload)
        out = target.eval("handle")
        assert out.error_type == "ReferenceError"
        assert out.error_message == (
            "Value for 'handle' was not restored because it is not serializable (type: WeakMap)."
        )
        inner = target.eval("data.p")
        assert inner.error_type == "ReferenceError" and "'data.p'" in (inner.error_message or "")
        assert target.eval("data.n + 1").value == "3"
        assert target.eval("handle = 5; handle").value == "5"
