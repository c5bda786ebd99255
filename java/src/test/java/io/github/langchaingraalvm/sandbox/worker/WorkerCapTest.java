package io.github.langchaingraalvm.sandbox.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** With one worker allowed, a second interpreter waits for the first to close, then takes the pool's place. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WorkerCapTest {
    /** A host JVM whose pool allows one worker: prints what happens, one line a step. */
    public static void main(String[] args) throws Exception {
        GuestInterpreter first = Sandbox.shared().newInterpreter(Workers.process().build());
        System.out.println("first " + first.eval("1").value());
        CompletableFuture<GuestInterpreter> second = Workers.async(() -> Sandbox.shared().newInterpreter(
                Workers.process().memoryLimitBytes(16L << 20).build()));
        Thread.sleep(2000);
        System.out.println("second waits " + !second.isDone());
        first.close();
        GuestInterpreter next = second.get(120, TimeUnit.SECONDS);
        System.out.println("second " + next.eval("2").value() + " workers " + Workers.pids().size());
        System.exit(0);
    }

    @Test
    void aSecondInterpreterWaitsForTheOnlyWorker() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-D" + WorkerPool.MAX_WORKERS_PROPERTY + "=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WorkerCapTest.class.getName());
        Process host = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(host.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("first 1");
            assertThat(out.readLine()).isEqualTo("second waits true");
            assertThat(out.readLine()).isEqualTo("second 2 workers 1");
        } finally {
            host.destroyForcibly();
        }
    }
}
