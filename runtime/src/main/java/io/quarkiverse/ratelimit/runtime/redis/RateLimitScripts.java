package io.quarkiverse.ratelimit.runtime.redis;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.ratelimit.Algorithm;

/** The script that decides each implemented {@link Algorithm}. */
public final class RateLimitScripts {

    /** The script files in the runtime jar; the deployment module registers them as native-image resources. */
    public static final List<String> FILES = List.of("fixed_window.lua", "sliding_window_counter.lua");

    private final Map<Algorithm, LuaScript> byAlgorithm = new EnumMap<>(Algorithm.class);

    public RateLimitScripts() {
        byAlgorithm.put(Algorithm.FIXED_WINDOW, LuaScript.load("fixed_window.lua"));
        byAlgorithm.put(Algorithm.SLIDING_WINDOW_COUNTER, LuaScript.load("sliding_window_counter.lua"));
    }

    public LuaScript forAlgorithm(Algorithm algorithm) {
        LuaScript script = byAlgorithm.get(algorithm);
        if (script == null) {
            throw new IllegalArgumentException(algorithm + " is not implemented");
        }
        return script;
    }

    public Collection<LuaScript> all() {
        return byAlgorithm.values();
    }
}
