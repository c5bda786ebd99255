package io.github.langchaingraalvm.sandbox.worker;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A sandbox worker process. With no arguments it serves {@link WorkerServer}'s protocol on its standard input and
 * output, and ends when its input ends (its client closed the pipe or died). With
 * {@code --listen <socket> [--idle-exit <seconds>]} it is a local server: see {@link LocalServer}. Whatever else
 * writes to {@code System.out} goes to the standard error instead, so nothing but the protocol reaches a pipe.
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    /** Serves until the input ends (or, as a server, until it is idle or told to stop), then halts the JVM. */
    public static void main(String[] args) throws Exception {
        FileOutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        int status = 0;
        try {
            if (args.length >= 2 && args[0].equals("--listen")) {
                Duration idle = args.length >= 4 && args[2].equals("--idle-exit")
                        ? Duration.ofSeconds(Long.parseLong(args[3])) : Duration.ofMinutes(30);
                new LocalServer(Path.of(args[1]), idle).serve();
            } else {
                new WorkerServer(new FileInputStream(FileDescriptor.in), protocolOut, null).serve();
            }
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        // Guest threads left stuck in a builtin would keep an ordinary exit waiting.
        Runtime.getRuntime().halt(status);
    }
}
