package io.github.langchaingraalvm.sandbox.worker;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * A sandbox worker process: serves {@link WorkerServer}'s protocol on its standard input and output, and ends when
 * its input ends (its client closed the pipe or died). Whatever else writes to {@code System.out} goes to the
 * standard error instead, so nothing but the protocol reaches the client's pipe.
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    /** Serves until the input ends, then halts the JVM (guest threads left stuck in a builtin included). */
    public static void main(String[] args) throws Exception {
        FileOutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        int status = 0;
        try {
            new WorkerServer(new FileInputStream(FileDescriptor.in), protocolOut).serve();
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }
}
