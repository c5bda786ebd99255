package io.github.langchaingraalvm.sandbox.hostcall;

import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import java.util.HashSet;
import java.util.Set;

/**
 * The host calls of the running eval, for every guest language: the eval's bridge, its tool-call budget count, and
 * the calls still open. Touched on the guest thread only.
 */
public final class HostCallBook {
    private final SandboxAccess access;
    private final Set<Long> open = new HashSet<>();
    private HostBridge bridge;
    private int toolCalls;
    /** The results of this eval's calls handed to the guest (module reads not counted). */
    private long results;
    /** Never reset, so a late completion of an earlier eval's call matches nothing. */
    private long nextId;

    /** A book whose refusals are worded by {@code access} (the bridge's own rules). */
    public HostCallBook(SandboxAccess access) {
        this.access = access;
    }

    /** Starts an eval's book: its bridge (or null), a fresh budget count, and no open calls. */
    public void begin(HostBridge b) {
        bridge = b;
        toolCalls = 0;
        results = 0;
        open.clear();
    }

    /** Ends the eval: calls the guest makes from now on are refused. */
    public void end() {
        bridge = null;
    }

    /**
     * Starts a call for the guest: its id (as the guest's number), or {@code "Type\0message"} when the bridge
     * refuses it or its handler fails, with {@code errorType} naming the guest's error for a failed start.
     */
    public Object start(String kind, String name, String inputJson, String errorType) {
        HostBridge b = bridge;
        if (kind.equals("tool")) {
            toolCalls++;
        }
        String refused = access.refusal(b, kind, name, toolCalls, errorType);
        if (refused != null) {
            return refused;
        }
        long id = ++nextId;
        open.add(id);
        try {
            b.handler().start(id, kind, name, inputJson);
        } catch (RuntimeException e) {
            open.remove(id);
            return errorType + "\u0000The host could not start " + name + ": " + e;
        }
        return (double) id;
    }

    /** Marks call {@code id} settled; false when it is not open in this eval (late, unknown or settled already). */
    public boolean settle(long id) {
        return open.remove(id);
    }

    /** {@link #settle} for a call's result from the host, which the count {@link #waiting} reports includes. */
    public boolean settleResult(long id) {
        if (!open.remove(id)) {
            return false;
        }
        results++;
        return true;
    }

    /** Tells the eval's handler the guest waits on its open calls with nothing else to run. */
    public void waiting() {
        HostBridge b = bridge;
        if (b != null && !open.isEmpty()) {
            b.handler().waiting(results);
        }
    }

    public boolean isOpen(long id) {
        return open.contains(id);
    }

    public int openCount() {
        return open.size();
    }
}
