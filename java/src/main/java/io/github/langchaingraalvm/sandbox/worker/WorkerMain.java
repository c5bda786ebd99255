package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.guest.GuestThread;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * A sandbox worker process. With no arguments it serves {@link WorkerServer}'s protocol on its standard input and
 * output, and ends when its input ends (every process that holds its input closed it or died: its client, and a
 * local server's broker that lent it). Whatever else writes to {@code System.out} goes to the standard error
 * instead, so nothing but the protocol reaches a pipe.
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    /** Serves until the input ends, then halts the JVM. */
    public static void main(String[] args) throws Exception {
        // This process is killed once a guest is given up: give up a guest that ignores its forced close sooner.
        System.setProperty(GuestThread.ABANDON_AFTER_PROPERTY, "1000");
        FileOutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        int status = 0;
        try {
            new WorkerServer(new FileInputStream(FileDescriptor.in), protocolOut).serve();
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        // Guest threads left stuck in a builtin would keep an ordinary exit waiting.
        Runtime.getRuntime().halt(status);
    }
}
