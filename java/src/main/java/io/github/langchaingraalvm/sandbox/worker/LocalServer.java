package io.github.langchaingraalvm.sandbox.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * A sandbox server that outlives its clients: one JVM, its engine kept warm, serving {@link WorkerServer}'s protocol
 * to every client that connects to a Unix-domain socket. Each connection is a session of its own: its interpreters
 * are closed when it ends, and no session can name another's. Only a peer of the user that owns the socket's
 * folder is served (the kernel's peer credentials); the folder is the client's to keep private (mode 0700).
 * The server ends when it has had no session for {@code idle}, or when a client sends {@code shutdown}.
 */
public final class LocalServer {
    private final Path socket;
    private final Duration idle;
    private final AtomicInteger sessions = new AtomicInteger();
    private final AtomicLong lastSession = new AtomicLong(System.nanoTime());
    private volatile ServerSocketChannel channel;

    /** A server for {@code socket}, ending after {@code idle} without a session. */
    public LocalServer(Path socket, Duration idle) {
        this.socket = socket;
        this.idle = idle;
    }

    /** Binds the socket and serves until idle or told to stop; removes the socket file when it ends. */
    public void serve() throws IOException {
        UserPrincipal owner = Files.getOwner(socket.getParent());
        channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        channel.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        Thread.ofPlatform().daemon().name("server-idle").start(this::watchIdle);
        System.err.println("langchain-graalvm sandbox server listening on " + socket);
        try {
            while (true) {
                SocketChannel client;
                try {
                    client = channel.accept();
                } catch (ClosedChannelException e) {
                    return;
                }
                UnixDomainPrincipal peer = client.getOption(ExtendedSocketOptions.SO_PEERCRED);
                if (!peer.user().equals(owner)) {
                    System.err.println("refused a client of user " + peer.user().getName());
                    client.close();
                    continue;
                }
                sessions.incrementAndGet();
                Thread.ofPlatform().daemon().name("server-session").start(() -> session(client));
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }

    private void session(SocketChannel client) {
        try (client) {
            new WorkerServer(new ChannelIn(client), new ChannelOut(client), this::stop).serve();
        } catch (IOException e) {
            // The client went away mid-message: its session ends like any other.
        } finally {
            lastSession.set(System.nanoTime());
            sessions.decrementAndGet();
        }
    }

    /** Stops accepting sessions; the JVM ends when {@link #serve()} returns. */
    void stop() {
        try {
            Files.deleteIfExists(socket);
            channel.close();
        } catch (IOException e) {
            // Closing is all that is left to do.
        }
    }

    private void watchIdle() {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            if (sessions.get() == 0 && System.nanoTime() - lastSession.get() > idle.toNanos()) {
                System.err.println("no session for " + idle.toSeconds() + " s: stopping");
                stop();
                return;
            }
        }
    }

    /** Reads a socket channel; a read and a write may run at once on another thread. */
    private static final class ChannelIn extends InputStream {
        private final SocketChannel channel;

        ChannelIn(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : channel.read(ByteBuffer.wrap(b, off, len));
        }
    }

    /** Writes a socket channel, all of each buffer. */
    private static final class ChannelOut extends OutputStream {
        private final SocketChannel channel;

        ChannelOut(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }
}
