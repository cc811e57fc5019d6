package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkiverse.ratelimit.Algorithm;

/**
 * A test class's script harnesses, one redis-server each, all stopped after its tests:
 * {@code @RegisterExtension static final ScriptHarnesses harnesses = new ScriptHarnesses();}.
 */
final class ScriptHarnesses implements AfterAllCallback {

    private final List<ScriptHarness> started = new ArrayList<>();

    /** A harness of {@code algorithm} on a redis-server of its own. */
    synchronized ScriptHarness of(Algorithm algorithm) {
        ScriptHarness harness = new ScriptHarness(algorithm);
        started.add(harness);
        return harness;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        started.forEach(ScriptHarness::close);
        started.clear();
    }
}
