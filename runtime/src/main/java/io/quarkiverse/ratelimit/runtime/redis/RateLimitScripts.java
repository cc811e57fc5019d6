package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;
import java.util.Locale;

import io.quarkiverse.ratelimit.Algorithm;

/**
 * The two scripts: {@code lua/rate_limit.lua} (every decision) and {@code lua/refund.lua} (giving back what a failed
 * call consumed), each with the module of every algorithm ({@code lua/<algorithm>.lua}) inlined, so that all limits
 * of a call are handled in one atomic call.
 */
public final class RateLimitScripts {

    static final String ENTRY = "rate_limit.lua";
    static final String REFUND = "refund.lua";
    static final String PRELUDE = "prelude.lua";
    private static final String PRELUDE_MARKER = "--@prelude";
    private static final String MODULES_MARKER = "  --@algorithms";

    static final String CONCURRENCY = "concurrency.lua";

    /** The script files in the runtime jar; the deployment module registers them as native-image resources. */
    public static final List<String> FILES = List.of(ENTRY, REFUND, PRELUDE, CONCURRENCY, "fixed_window.lua", "sliding_window_counter.lua",
            "sliding_window_log.lua", "token_bucket.lua", "gcra.lua");

    private final LuaScript rateLimit;
    private final LuaScript refund;
    private final LuaScript concurrency = LuaScript.load(CONCURRENCY);

    public RateLimitScripts() {
        StringBuilder modules = new StringBuilder();
        for (Algorithm algorithm : Algorithm.values()) {
            String module = moduleName(algorithm);
            modules.append("  ['").append(module).append("'] = (function()\n")
                    .append(LuaScript.load(module + ".lua").source())
                    .append("\nend)(),\n");
        }
        String prelude = replaceMarker(PRELUDE, LuaScript.load(PRELUDE).source(), MODULES_MARKER,
                modules.toString().stripTrailing());
        this.rateLimit = new LuaScript(ENTRY,
                replaceMarker(ENTRY, LuaScript.load(ENTRY).source(), PRELUDE_MARKER, prelude));
        this.refund = new LuaScript(REFUND,
                replaceMarker(REFUND, LuaScript.load(REFUND).source(), PRELUDE_MARKER, prelude));
    }

    private static String replaceMarker(String file, String source, String marker, String replacement) {
        int at = source.indexOf(marker);
        if (at < 0 || source.indexOf(marker, at + 1) >= 0) {
            throw new IllegalStateException(file + " must hold the line " + marker.trim() + " exactly once");
        }
        return source.substring(0, at) + replacement + source.substring(at + marker.length());
    }

    /** The module an algorithm's limits name in {@code ARGV}: its file name without {@code .lua}. */
    public static String moduleName(Algorithm algorithm) {
        return algorithm.name().toLowerCase(Locale.ROOT);
    }

    public LuaScript rateLimit() {
        return rateLimit;
    }

    public LuaScript refund() {
        return refund;
    }

    /** Acquires a concurrency lease ({@code lua/concurrency.lua}). */
    public LuaScript concurrency() {
        return concurrency;
    }

    public List<LuaScript> all() {
        return List.of(rateLimit, refund, concurrency);
    }
}
