package io.github.langchaingraalvm.sandbox.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker ends with the JVM that started it, even one killed with SIGKILL, and has none of its environment. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WorkerLifetimeTest {
    /** A host JVM: starts a worker, prints its pid, and waits to be killed. */
    public static void main(String[] args) throws Exception {
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = Sandbox.shared().newInterpreter(Workers.process().build()));
        holder[0].eval("1 + 1");
        System.out.println("worker " + pid);
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }

    @Test
    void aWorkerEndsWhenItsHostIsKilled() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WorkerLifetimeTest.class.getName());
        Process host = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(host.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).startsWith("worker ");
            long pid = Long.parseLong(line.substring("worker ".length()));
            assertThat(Files.readAllBytes(Path.of("/proc/" + pid + "/environ"))).isEmpty();
            host.destroyForcibly().waitFor();
            // Its input ended with its host: it exits on its own.
            assertThat(Workers.ends(pid, 120)).isTrue();
        } finally {
            host.destroyForcibly();
        }
    }
}
