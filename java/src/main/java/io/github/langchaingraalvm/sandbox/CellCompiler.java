package io.github.langchaingraalvm.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * Prepares REPL cells (see {@code cell.js}) in one trusted tooling context shared by all interpreters. The
 * context never runs guest code; it only parses and rewrites it. Results are cached, so a repeated cell costs a
 * map lookup.
 */
final class CellCompiler {
    /** A prepared cell: either a script to run or a syntax error to report. */
    record Compiled(String script, String syntaxError) {}

    private static final int CACHE_ENTRIES = 512;
    private static final int CACHE_MAX_CODE = 64 * 1024;

    private final Context tooling;
    private final Value compile;
    private final Map<String, Compiled> cache = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
            return size() > CACHE_ENTRIES;
        }
    };

    CellCompiler(Engine engine) {
        tooling = Context.newBuilder("js")
                .engine(engine)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .allowHostAccess(Sandbox.HOST_ACCESS)
                .allowIO(IOAccess.NONE)
                .out(java.io.OutputStream.nullOutputStream())
                .err(java.io.OutputStream.nullOutputStream())
                .build();
        ProxyExecutable read = args -> readResource(args[0].asString());
        Value factory = tooling.eval(Source.newBuilder("js", resource("cell.js"), "cell-compiler.js").buildLiteral());
        compile = factory.execute(read);
    }

    synchronized Compiled compile(String code) {
        Compiled hit = cache.get(code);
        if (hit != null) {
            return hit;
        }
        Value r = compile.execute(code);
        Compiled c = "ok".equals(r.getArrayElement(0).asString())
                ? new Compiled(r.getArrayElement(1).asString(), null)
                : new Compiled(null, r.getArrayElement(1).asString());
        if (code.length() <= CACHE_MAX_CODE) {
            cache.put(code, c);
        }
        return c;
    }

    synchronized void close() {
        tooling.close(true);
    }

    static String resource(String name) {
        try (InputStream in = CellCompiler.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readResource(String path) {
        ClassLoader loader = CellCompiler.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(path)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
