package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.Sandbox;
import org.junit.jupiter.api.Test;

/**
 * The unwind guard where it cannot be installed: these tests run with Truffle on the class path, as a Java user
 * without the guard's JVM options would. The guard is installed (and its marking tested) in the JVM the Python
 * package starts: tests/jvm/test_limits.py.
 */
class UnwindGuardTest {
    @Test
    void withoutItsJvmOptionsTheGuardIsOffAndSaysWhy() {
        String status = UnwindGuard.install();
        assertTrue(status.startsWith("off: "), status);
        assertEquals(status, Sandbox.shared().unwindGuard());
    }

    @Test
    void countsAreZeroWhereTheListenerCannotLink() {
        UnwindGuard.install();
        // The listener's class implements a Truffle interface this JVM does not export: counts() must not load it.
        assertArrayEquals(new long[3], UnwindGuard.counts());
    }
}
