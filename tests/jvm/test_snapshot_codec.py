"""The snapshot codec as the Truffle compiler sees it: its encoder is code the compiler can compile.

The encoder runs for every snapshot of every context, over graphs of thousands of objects, so it is soon hot. An
encoder the compiler gives up on costs a compiler thread seconds of CPU in a process's first minutes, when the
model's own cells wait for that thread, and then runs interpreted for the rest of the process.
"""

from __future__ import annotations

from tests.conftest import run_python

# A trusted engine of the script's own (the sandbox refuses compiler options): compilations run on the caller's
# thread, as soon as a function is hot, with the profile its calls gathered; a failure is thrown to the caller,
# and the compiler's trace goes to a file.
COMPILE_THE_ENCODER = """
from langchain_graalvm import Interpreter
Interpreter().eval("1")  # starts the JVM with the package's own options (the Truffle compiler on)
import jpype
String = jpype.JClass("java.lang.String")
Engine = jpype.JClass("org.graalvm.polyglot.Engine")
Context = jpype.JClass("org.graalvm.polyglot.Context")
Source = jpype.JClass("org.graalvm.polyglot.Source")
resource = jpype.JClass("io.github.langchaingraalvm.sandbox.guest.CellCompiler").class_.getDeclaredMethod(
    "resource", String)
resource.setAccessible(True)
engine = (Engine.newBuilder("js").allowExperimentalOptions(True)
    .option("engine.Mode", "latency")
    .option("engine.BackgroundCompilation", "false")
    .option("engine.CompileOnly", "encodeNames")
    .option("engine.CompilationFailureAction", "Throw")
    .option("engine.TraceCompilation", "true")
    .option("log.file", LOG)
    .build())
print("runtime", engine.getImplementationName())
context = Context.newBuilder("js").engine(engine).build()
codec = context.eval(Source.newBuilder("js", resource.invoke(None, String("snapshot.js")), "snapshot.js").build())
encode = codec.execute().getMember("encode")
context.eval("js", '''
var records = [];
for (let i = 0; i < 1500; i++) {
  records.push({id: i, user: 'u' + (i % 50), tags: ['a', 'b'], score: i * 1.5, meta: {k: i, when: new Date(i)}});
}
var byUser = new Map(); for (const r of records) byUser.set(r.user, r);
class Acc { constructor() { this.n = 0; } add(x) { this.n += x; } }
var acc = new Acc();
''')
names = context.eval("js", "['records', 'byUser', 'acc']")
texts = set()
for _ in range(6):
    try:
        texts.add(str(encode.execute(names).asString()))
    except Exception as e:
        print("FAILED", str(e)[:400])
        raise SystemExit(1)
print("texts", len(texts), "chars", len(texts.pop()))
"""


def test_the_snapshot_encoder_is_compiled_not_given_up_on(tmp_path) -> None:
    log = tmp_path / "compilation.log"
    proc = run_python(COMPILE_THE_ENCODER.replace("LOG", repr(str(log))), timeout=300)
    assert "runtime GraalVM" in proc.stdout, proc.stdout + proc.stderr
    assert "FAILED" not in proc.stdout and proc.returncode == 0, proc.stdout + proc.stderr[-2000:]
    assert "texts 1" in proc.stdout, proc.stdout  # every encode of the same graph wrote the same text
    trace = log.read_text()
    assert any("opt done" in line and "encodeNames" in line for line in trace.splitlines()), trace[-2000:]
