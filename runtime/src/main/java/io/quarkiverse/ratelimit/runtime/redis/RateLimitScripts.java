package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;
import java.util.Locale;

import io.quarkiverse.ratelimit.Algorithm;

/**
 * The script every decision runs: {@code lua/rate_limit.lua}, with the module of each implemented algorithm
 * ({@code lua/<algorithm>.lua}) inlined, so that all limits of a call are decided in one atomic call.
 */
public final class RateLimitScripts {

    static final String ENTRY = "rate_limit.lua";
    static final List<Algorithm> IMPLEMENTED = List.of(Algorithm.values());
    private static final String MODULES_MARKER = "  --@algorithms";

    /** The script files in the runtime jar; the deployment module registers them as native-image resources. */
    public static final List<String> FILES = List.of(ENTRY, "fixed_window.lua", "sliding_window_counter.lua",
            "sliding_window_log.lua", "token_bucket.lua", "gcra.lua");

    private final LuaScript rateLimit;

    public RateLimitScripts() {
        StringBuilder modules = new StringBuilder();
        for (Algorithm algorithm : IMPLEMENTED) {
            String module = moduleName(algorithm);
            modules.append("  ['").append(module).append("'] = (function()\n")
                    .append(LuaScript.load(module + ".lua").source())
                    .append("\nend)(),\n");
        }
        String entry = LuaScript.load(ENTRY).source();
        if (!entry.contains(MODULES_MARKER)) {
            throw new IllegalStateException(ENTRY + " lacks the line " + MODULES_MARKER.trim());
        }
        this.rateLimit = new LuaScript(ENTRY, entry.replace(MODULES_MARKER, modules.toString().stripTrailing()));
    }

    /** The module an algorithm's limits name in {@code ARGV}: its file name without {@code .lua}. */
    public static String moduleName(Algorithm algorithm) {
        return algorithm.name().toLowerCase(Locale.ROOT);
    }

    public LuaScript rateLimit() {
        return rateLimit;
    }

    public List<LuaScript> all() {
        return List.of(rateLimit);
    }
}
