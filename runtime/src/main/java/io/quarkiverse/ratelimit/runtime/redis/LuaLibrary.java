package io.quarkiverse.ratelimit.runtime.redis;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * The rate limiter's Redis 7 function library ({@code FUNCTION LOAD}): every entry of {@link RateLimitScripts} with its
 * modules, built by Redis once when it loads the library, so that a call ({@code FCALL}) runs only its entry function.
 * <p>
 * The library and its functions are named after a digest of their code ({@code quarkus_rate_limit_<digest>},
 * {@code rate_limit_<digest>}, ...): function names are global in Redis, and applications running different versions
 * of the extension on one Redis (a rolling upgrade) must each find their own code. The digest is 48 bits of two
 * checksums the JDK computes natively (CRC-32 and Adler-32): it tells versions apart, nobody forges it, and it costs
 * a JVM that has just started microseconds where a SHA-1 of the library's 60 KB cost tens of milliseconds.
 */
public final class LuaLibrary {

    private static final String NAME = "quarkus_rate_limit_";

    private final String name;
    private final String digest;
    private final String source;
    private final List<String> entries;

    private LuaLibrary(String name, String digest, String source, List<String> entries) {
        this.entries = entries;
        this.name = name;
        this.digest = digest;
        this.source = source;
    }

    /**
     * @param body the prelude, the modules and the entries, each entry a local function named after its file
     * @param entries the entry functions' names, each registered as {@code <name>_<digest>}
     * @param crossSlotEntry the entry whose keys may lie in several slots of one master (the batch)
     */
    static LuaLibrary of(String body, List<String> entries, String crossSlotEntry) {
        String digest = digest(body);
        StringBuilder source = new StringBuilder("#!lua name=").append(NAME).append(digest).append('\n')
                .append(body).append('\n');
        for (String function : entries) {
            source.append("redis.register_function{function_name='").append(function).append('_').append(digest)
                    .append("', callback=").append(function);
            if (function.equals(crossSlotEntry)) {
                // in a cluster a batch holds the calls of every slot of one master (lua/rate_limit_batch.lua)
                source.append(", flags={'allow-cross-slot-keys'}");
            }
            source.append("}\n");
        }
        return new LuaLibrary(NAME + digest, digest, source.toString(), List.copyOf(entries));
    }

    /** Twelve hexadecimal digits: the CRC-32 of the body's UTF-8 bytes, then the high half of their Adler-32. */
    static String digest(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        Adler32 adler = new Adler32();
        adler.update(bytes);
        HexFormat hex = HexFormat.of();
        return hex.toHexDigits((int) crc.getValue()) + hex.toHexDigits((short) (adler.getValue() >>> 16));
    }

    public String name() {
        return name;
    }

    /** What {@code FUNCTION LOAD} takes. */
    public String source() {
        return source;
    }

    /**
     * The function that runs an entry's code ({@code rate_limit}: {@code rate_limit_<digest>}); only the entries the
     * library registers have one, so no call can name a function Redis does not hold.
     */
    String function(String entry) {
        if (!entries.contains(entry)) {
            throw new IllegalArgumentException(entry + " is not an entry of the function library " + name);
        }
        return entry + "_" + digest;
    }

    @Override
    public String toString() {
        return name;
    }
}
