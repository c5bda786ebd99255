# Trusted host side of a Python guest context. The host evaluates this file once per fresh GraalPy context, before
# any untrusted code runs, calls setup() and keeps the returned object to itself. The model's code runs in a module
# of its own (installed as __main__), so these names are not among its globals.
#
# run(code, budget) executes one REPL cell the way a notebook does: the cell is parsed with the compiler's AST
# flag, a final expression statement is split off and evaluated for the cell's value, everything else is executed
# in the model's globals. Cells are compiled under the file name "cell N", so tracebacks carry the model's own
# line numbers. The result is a list: ["ok", repr_text, incomplete] or ["error", type, message, stack].
#
# The host reads this file with its parts put in (CellCompiler.resource: each `# @include` line stands for that
# file), so GraalPy evaluates one module, as it always has. The parts in pyguest/ are modules of their own for ruff,
# mypy and the CPython tests (tests/guest/); they never import each other when run: what a part takes from the
# parts before it is imported under TYPE_CHECKING only and found in this module's globals here.

import _random
import builtins
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # what the parts below define, for ruff and mypy; the includes put them in this module
    from pyguest.captured import _type
    from pyguest.clock import freeze_clock
    from pyguest.console import install_console
    from pyguest.host_calls import make_host_calls
    from pyguest.repl import make_runner
    from pyguest.snapshot_decode import make_decoder
    from pyguest.snapshot_encode import make_encoder

# @include pyguest/captured.py

# @include pyguest/snapshot_format.py

# @include pyguest/lockdown.py

# @include pyguest/console.py

# @include pyguest/clock.py

# @include pyguest/repl.py

# @include pyguest/snapshot_encode.py

# @include pyguest/snapshot_decode.py

# @include pyguest/files.py

# @include pyguest/host_calls.py


class Api:
    """What the host keeps of the guest: run, snapshot, restore, names, define, install_host_calls and seed_random."""


def setup(emit, capture, frozen_clock, epoch_ms, seal):
    """Installs the console and, with frozen_clock, the frozen clock (`seal` is the host function it keeps the time
    module's originals with, see clock.py); returns the Api."""
    install_console(emit, capture)
    if frozen_clock:
        freeze_clock(epoch_ms, seal)

    module = _type(sys)("__main__")
    ns = module.__dict__
    ns["__builtins__"] = builtins
    sys.modules["__main__"] = module
    initial = set(ns)  # names that are not the model's: never snapshotted

    sources = {}  # file name -> list of source lines, for tracebacks
    defs = {}  # id(object bound by a top-level def/class) -> (object, file, line, name, source)
    residues = {}  # unbound name -> type, from a restored snapshot
    state = {"cells": 0}

    def define(name, value):
        """Binds a host value (a polyglot proxy, e.g. a future `tools` object or `task` function) as a global."""
        ns[name] = value
        initial.add(name)

    encode_all, model_names = make_encoder(ns, initial, sources, defs, residues, state)
    api = Api()
    api.define = define
    # The host's name for it: defines the host-call globals `tools`, `task` and `files`.
    api.install_host_calls = make_host_calls(define)
    api.run = make_runner(ns, sources, defs, residues, state)
    api.snapshot = encode_all
    api.restore = make_decoder(ns, sources, defs, residues, state)
    api.names = model_names
    api.seed_random = seed_random
    return api


_modules = sys.modules  # the interpreter's own dict: the model's code may rebind sys.modules, not this one
_Generator = _random.Random  # built in: its seed cannot be replaced
_set_attribute, _int, _issubclass = object.__setattr__, int, issubclass


def seed_random(seed):
    """Seeds the functions of the `random` module (its shared generator) for the next cell, so a cell run again with
    the same seed draws the same numbers; None seeds it from the system's source again, as at import.

    The model's code may have replaced `random.seed` or the module's generator: the seed goes through the built-in
    generator type's own `seed`, and what is not such a generator is left alone. The host runs this under the
    cell's watchdog and ignores an error it raises."""
    module = _modules.get("random")
    if module is None:
        if seed is None:
            return
        import random as module  # noqa: PLC0415 - imported when a seeded cell first needs it
    if _type(module) is not _type(sys):
        return
    generator = module.__dict__.get("_inst")
    if not _issubclass(_type(generator), _Generator):
        return
    _Generator.seed(generator, None if seed is None else _int(seed))
    _set_attribute(generator, "gauss_next", None)  # as random.Random.seed does
