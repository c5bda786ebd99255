"""A corpus of hostile programs and the outcome each must have: the sandbox's containment, written down as data.

Every :class:`Attack` is one cell of model-written JavaScript or Python (its ``language``), after optional set-up
cells, and the outcome the model must get. :func:`run_attack` runs one through any interpreter that has
``eval(code)`` returning an object with ``status``, ``value``, ``error_type`` and ``state_reset`` (this package's
:class:`~langchain_graalvm.Interpreter`, or an adapter around another sandbox), then checks that the same interpreter still answers ``1+1`` with ``2``
and runs the case's follow-up checks. The tests under ``tests/attacks/`` run the corpus; a benchmark can run the
same corpus against another sandbox and compare.

Expected outcomes (``Attack.expected``):

- ``value:TEXT``: the eval succeeds and its rendered value is exactly ``TEXT``;
- ``error:TYPE``: the eval ends in a guest error (status ``error``) of type ``TYPE``;
- ``timeout``: the eval is stopped at its time limit (status ``timeout``);
- ``limit``: the eval is stopped at its memory limit (status ``limit``) and the interpreter is reset;
- ``reset``: the eval is stopped (any status but ``ok``) and the interpreter is reset, losing its globals.

An empty ``TEXT`` or ``TYPE`` accepts any value or error type (for outcomes whose text is checked elsewhere).

:data:`FILES_ATTACKS` aims at the agent's-files bridge (``fs`` and imports); it runs with the ``files`` access and
seed files described by :data:`FILES_PREFIXES` and :data:`FILES_SEED`.

:data:`SOURCE_ATTACKS` holds huge and deeply nested cells in each guest (JavaScript, TypeScript, Python), checked
by :func:`check_source_outcome`: refused with ``CodeTooLarge`` or ``CodeTooDeep`` before any parsing, or run
(or stopped at the timeout) with the globals kept.

:data:`TOOL_ATTACKS` need the agent's tools: hostile guests against the host-call protocol and hostile tools
(:data:`HOSTILE_TOOLS`) against the eval, run through the eval tool with ``max_ptc_calls`` of :data:`TOOL_BUDGET`.

:data:`SNAPSHOT_ATTACKS` holds tampered snapshot payloads for :meth:`Interpreter.restore`; each must be refused
with a ``SnapshotError`` that changes nothing, or restore as documented.
"""

from __future__ import annotations

from ._model import (
    BRIDGE_ABUSE,
    CATEGORIES,
    EXHAUSTION,
    HOST_ESCAPE,
    STATE,
    TIMING,
    Attack,
    EnvelopeOutcome,
    Outcome,
    _check_expected,
    outcome_from_envelope,
    run_attack,
    run_attack_on_envelopes,
    turn_cells,
)
from .bridge_abuse import BRIDGE_ABUSE_ATTACKS
from .exhaustion import EXHAUSTION_ATTACKS
from .files import FILES_ATTACKS, FILES_PREFIXES, FILES_SEED
from .host_escape import HOST_ESCAPE_ATTACKS
from .python_guest import PYTHON_GUEST_ATTACKS
from .snapshots import SNAPSHOT_ATTACKS, SnapshotAttack
from .source import SOURCE_ATTACKS, SourceAttack, check_source_outcome
from .state import STATE_ATTACKS
from .timing import TIMING_ATTACKS
from .tools import HOSTILE_TOOLS, TOOL_ATTACKS, TOOL_BUDGET

ATTACKS: tuple[Attack, ...] = (
    *HOST_ESCAPE_ATTACKS,
    *BRIDGE_ABUSE_ATTACKS,
    *EXHAUSTION_ATTACKS,
    *STATE_ATTACKS,
    *TIMING_ATTACKS,
    *PYTHON_GUEST_ATTACKS,
)
"""Every cell of the corpus, in the order of its modules (the ``fs`` cases are :data:`FILES_ATTACKS`)."""

__all__ = [
    "ATTACKS",
    "BRIDGE_ABUSE",
    "CATEGORIES",
    "EXHAUSTION",
    "FILES_ATTACKS",
    "FILES_PREFIXES",
    "FILES_SEED",
    "HOSTILE_TOOLS",
    "HOST_ESCAPE",
    "PYTHON_GUEST_ATTACKS",
    "SNAPSHOT_ATTACKS",
    "SOURCE_ATTACKS",
    "STATE",
    "TIMING",
    "TOOL_ATTACKS",
    "TOOL_BUDGET",
    "Attack",
    "EnvelopeOutcome",
    "Outcome",
    "SnapshotAttack",
    "SourceAttack",
    "_check_expected",
    "check_source_outcome",
    "outcome_from_envelope",
    "run_attack",
    "run_attack_on_envelopes",
    "turn_cells",
]
