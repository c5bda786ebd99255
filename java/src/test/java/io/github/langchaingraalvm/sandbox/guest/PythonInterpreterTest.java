package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * The Python guest's host-side wording. The guest itself is tested from Python (tests/test_python_guest.py), where
 * the optional GraalPy jars are on the module path.
 */
class PythonInterpreterTest {
    @Test
    void deniedOperationsBecomePlainMessages() {
        assertEquals("Operation not permitted: this sandbox cannot start processes (os.system, subprocess, ...).",
                PythonGuest.deniedOperation("java.lang.SecurityException: Process creation is not allowed, to"
                        + " enable it set Context.Builder.allowCreateProcess(true)."));
        assertEquals("Operation not permitted: this sandbox has no network access (sockets are disabled).",
                PythonGuest.deniedOperation("com.oracle.graal.python.runtime.PosixSupportLibrary"
                        + "$UnsupportedPosixFeatureException: socket was excluded"));
        assertEquals("Operation not permitted in this sandbox: getaddrinfo was excluded",
                PythonGuest.deniedOperation("com.oracle.graal.python.runtime.PosixSupportLibrary"
                        + "$UnsupportedPosixFeatureException: getaddrinfo was excluded"));
        assertEquals("Operation not permitted: this sandbox cannot start threads.",
                PythonGuest.deniedOperation("java.lang.IllegalStateException: Creating threads is not allowed."));
        assertEquals("Operation not permitted: this sandbox has no file system access.",
                PythonGuest.deniedOperation("java.lang.SecurityException: Operation is not allowed for: "));
    }

    @Test
    void otherFailuresAreNotDenials() {
        assertNull(PythonGuest.deniedOperation("java.lang.NullPointerException"));
        assertNull(PythonGuest.deniedOperation("java.lang.IllegalStateException: something else"));
    }
}
