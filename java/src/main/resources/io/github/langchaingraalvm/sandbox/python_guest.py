# Trusted host side of a Python guest context. The host evaluates this file once per fresh GraalPy context, before
# any untrusted code runs: it defines one function, `_guest`, and gives it back as its value; the host calls it and
# keeps what it returns to itself. `_guest` takes its own name out of the module's globals first, so that the
# context's `__main__` module, where the host then runs the model's cells (Context.eval), holds none of these names:
# everything below lives in the function's scope.
#
# The model's cells are evaluated by the host as sources of their own, named "cell N", so tracebacks carry the
# model's own line numbers; GraalPy gives back the value of a cell whose last statement is an expression (the module
# itself when there is none, or when it is None). Then the host calls the runner's finish(n, code, value, budget,
# defines), which renders the value ("=" or "+" when cut, then the text), or fail(n, code, exception, defines), which
# describes what the cell raised: ["error", type, message, stack] (repl.py).
#
# The host reads this file with its parts put in (CellCompiler.resource: each `# @include` line stands for that
# file, indented as the line is), so GraalPy evaluates one module, as it always has. The parts in pyguest/ are
# modules of their own for ruff, mypy and the CPython tests (tests/guest/); they never import each other when run:
# what a part takes from the parts before it is imported under TYPE_CHECKING only and found in `_guest`'s scope here.


def _guest():
    """Sets up the guest's code in this function's scope; returns (lock_down, setup)."""
    globals().pop("_guest", None)

    import _random
    import sys

    TYPE_CHECKING = False
    if TYPE_CHECKING:  # what the parts below define, for ruff and mypy; the includes put them in this scope
        from pyguest.captured import _type
        from pyguest.clock import freeze_clock
        from pyguest.console import install_console
        from pyguest.host_calls import make_host_calls
        from pyguest.lockdown import lock_down
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
        """What the host keeps of the guest: finish, fail, cells, snapshot, restore, names, define,
        install_host_calls and seed_random."""

    def setup(emit, capture, frozen_clock, epoch_ms, seal, main=None):
        """Installs the console and, with frozen_clock, the frozen clock (`seal` is the host function it keeps the
        time module's originals with, see clock.py); returns the Api. The model's module is `main`, by default the
        context's `__main__` module, where the host evaluates the model's cells."""
        install_console(emit, capture)
        if frozen_clock:
            freeze_clock(epoch_ms, seal)

        module = sys.modules["__main__"] if main is None else main
        ns = module.__dict__
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
        api.finish, api.fail = make_runner(module, sources, defs, residues, state)
        api.cells = lambda: state["cells"]
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

    return lock_down, setup


_guest  # noqa: B018 - the module's value (Context.eval gives back a last expression's), which the host calls
