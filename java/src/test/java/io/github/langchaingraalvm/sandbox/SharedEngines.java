package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.guest.Engines;

/** The shared sandbox's engines, for the tests of the guest package: what {@code Sandbox.shared()} runs on. */
public final class SharedEngines {
    private SharedEngines() {
    }

    @SuppressWarnings("exports") // a test helper: the guest package is the module's own, not exported
    public static Engines get() {
        return Sandbox.shared().engines();
    }
}
