package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.io.FileSystem;

/**
 * The only file system a JavaScript context with {@link SandboxOptions#agentModules()} has: it serves ES modules read
 * from the agent's files through the running eval's host bridge, and refuses everything else (writes, listings,
 * deletes). Nothing here touches the host's files; a path is only a key the host resolves in the agent's backend.
 *
 * <p>GraalJS keeps one module record per real path for the life of a context. So that an eval sees a module as it
 * is now, {@link #toRealPath} puts the eval's number in front of the path: within an eval a module is loaded once,
 * the next eval reads it again. Used on the guest thread only.
 */
final class AgentModules implements FileSystem {
    /** Reads one module's source for the running eval; throws when the host refuses or has no such file. */
    interface Reader {
        String read(String path) throws IOException;
    }

    private static final Pattern EVAL_PREFIX = Pattern.compile("^/\\.eval-(\\d+)(/.*)?$");

    private final Reader reader;
    private final Map<String, byte[]> loaded = new HashMap<>();
    private final Map<String, IOException> failed = new HashMap<>();
    private long evalNumber;

    AgentModules(Reader reader) {
        this.reader = reader;
    }

    /** Starts an eval: modules are read afresh from now on. */
    void beginEval() {
        evalNumber++;
        loaded.clear();
        failed.clear();
    }

    /** The agent's path {@code path} names, without the eval prefix, normalised. */
    static String agentPath(Path path) {
        String text = path.normalize().toString().replace('\\', '/');
        Matcher m = EVAL_PREFIX.matcher(text);
        if (m.matches()) {
            text = m.group(2) == null ? "/" : m.group(2);
        }
        return text.startsWith("/") ? text : "/" + text;
    }

    private byte[] source(Path path) throws IOException {
        String key = agentPath(path);
        byte[] bytes = loaded.get(key);
        if (bytes != null) {
            return bytes;
        }
        IOException known = failed.get(key);
        if (known != null) {
            throw known;
        }
        try {
            bytes = reader.read(key).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            failed.put(key, e);
            throw e;
        }
        loaded.put(key, bytes);
        return bytes;
    }

    @Override
    public Path parsePath(URI uri) {
        if (!"file".equals(uri.getScheme())) {
            throw new UnsupportedOperationException("only the agent's files can be imported, not " + uri);
        }
        return Path.of(uri.getPath());
    }

    @Override
    public Path parsePath(String path) {
        return Path.of(path);
    }

    @Override
    public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... linkOptions)
            throws IOException {
        if (modes.contains(AccessMode.WRITE) || modes.contains(AccessMode.EXECUTE)) {
            throw new AccessDeniedException(agentPath(path), null, "modules are read-only");
        }
        source(path);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        throw new AccessDeniedException(agentPath(dir), null, "modules are read-only");
    }

    @Override
    public void delete(Path path) throws IOException {
        throw new AccessDeniedException(agentPath(path), null, "modules are read-only");
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
        for (OpenOption o : options) {
            if (o != StandardOpenOption.READ) {
                throw new AccessDeniedException(agentPath(path), null, "modules are read-only");
            }
        }
        return new ReadOnlyChannel(source(path));
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        throw new AccessDeniedException(agentPath(dir), null, "listing is not available to imports; use fs.readdir");
    }

    @Override
    public Path toAbsolutePath(Path path) {
        return path.isAbsolute() ? path : Path.of("/").resolve(path);
    }

    @Override
    public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
        return Path.of("/.eval-" + evalNumber + agentPath(toAbsolutePath(path)));
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
            throws IOException {
        byte[] bytes = source(path);
        FileTime epoch = FileTime.fromMillis(0);
        Map<String, Object> out = new HashMap<>();
        out.put("size", (long) bytes.length);
        out.put("isRegularFile", true);
        out.put("isDirectory", false);
        out.put("isSymbolicLink", false);
        out.put("isOther", false);
        out.put("lastModifiedTime", epoch);
        out.put("lastAccessTime", epoch);
        out.put("creationTime", epoch);
        return out;
    }

    /** A module's bytes, readable once per open. */
    private static final class ReadOnlyChannel implements SeekableByteChannel {
        private final byte[] bytes;
        private int position;
        private boolean open = true;

        ReadOnlyChannel(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            position = (int) Math.min(newPosition, bytes.length);
            return this;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
