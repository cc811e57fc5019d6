package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;

/**
 * The rate limiter's Redis 7 function library ({@code FUNCTION LOAD}): every entry of {@link RateLimitScripts} with its
 * modules, built by Redis once when it loads the library, so that a call ({@code FCALL}) runs only its entry function.
 * <p>
 * The library and its functions are named after a digest of their code ({@code quarkus_rate_limit_<digest>},
 * {@code rate_limit_<digest>}, ...): function names are global in Redis, and applications running different versions
 * of the extension on one Redis (a rolling upgrade) must each find their own code.
 */
public final class LuaLibrary {

    private static final String NAME = "quarkus_rate_limit_";
    private static final List<String> ENTRIES = List.of(RateLimitScripts.DECIDE, RateLimitScripts.DECIDE_BATCH,
            RateLimitScripts.REFUND,
            RateLimitScripts.CONCURRENCY, RateLimitScripts.RESET);

    private final String name;
    private final String digest;
    private final String source;

    private LuaLibrary(String name, String digest, String source) {
        this.name = name;
        this.digest = digest;
        this.source = source;
    }

    /** @param body the prelude, the modules and the entries, each entry a local function named after its file */
    static LuaLibrary of(String body) {
        String digest = LuaScript.sha1(body).substring(0, 12);
        StringBuilder source = new StringBuilder("#!lua name=").append(NAME).append(digest).append('\n')
                .append(body).append('\n');
        for (String entry : ENTRIES) {
            String function = RateLimitScripts.entryName(entry);
            source.append("redis.register_function{function_name='").append(function).append('_').append(digest)
                    .append("', callback=").append(function);
            if (entry.equals(RateLimitScripts.DECIDE_BATCH)) {
                // in a cluster a batch holds the calls of every slot of one master (lua/rate_limit_batch.lua)
                source.append(", flags={'allow-cross-slot-keys'}");
            }
            source.append("}\n");
        }
        return new LuaLibrary(NAME + digest, digest, source.toString());
    }

    public String name() {
        return name;
    }

    /** What {@code FUNCTION LOAD} takes. */
    public String source() {
        return source;
    }

    /** The function that runs an entry file's code ({@code rate_limit.lua}: {@code rate_limit_<digest>}). */
    String function(String entryFile) {
        return RateLimitScripts.entryName(entryFile) + "_" + digest;
    }

    @Override
    public String toString() {
        return name;
    }
}
