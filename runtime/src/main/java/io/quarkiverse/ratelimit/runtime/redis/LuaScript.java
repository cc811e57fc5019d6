package io.quarkiverse.ratelimit.runtime.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ForkJoinPool;

/**
 * A Lua script shipped in the runtime jar, with the SHA-1 digest Redis caches it under and, for the scripts
 * {@link RateLimitScripts} assembles, the {@link LuaLibrary} function that runs the same code.
 */
public final class LuaScript {

    /** Where the build puts the top-level {@code lua/} directory inside the runtime jar. */
    public static final String RESOURCE_DIRECTORY = "META-INF/quarkus-rate-limit/lua/";

    private final String name;
    private final String source;
    /**
     * Known once computed ({@link #sha1()}) or answered by Redis ({@link #cachedAs}): only a script sent by
     * {@code EVALSHA} needs it (Redis 6, or before the library is loaded), and a SHA-1 of tens of kilobytes costs a JVM
     * that has just started tens of milliseconds, which no event loop should spend. A racy cache of an immutable value:
     * two threads may both set it, to the same string.
     */
    private volatile String sha1;
    private volatile boolean digesting;
    private final String function;

    LuaScript(String name, String source) {
        this(name, source, null);
    }

    LuaScript(String name, String source, String function) {
        this.name = name;
        this.source = source;
        this.function = function;
    }

    public static LuaScript load(String fileName) {
        String resource = RESOURCE_DIRECTORY + fileName;
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + resource + " is missing from the classpath");
            }
            return new LuaScript(fileName, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource, e);
        }
    }

    public String name() {
        return name;
    }

    public String source() {
        return source;
    }

    /** The SHA-1 Redis caches this script under, computed now if it is not known: never on an event loop. */
    private String sha1() {
        String digest = sha1;
        if (digest == null) {
            digest = sha1(source);
            sha1 = digest;
        }
        return digest;
    }

    /** The SHA-1, or {@code null} while it is neither computed nor answered by Redis. */
    public String sha1IfKnown() {
        return sha1;
    }

    /** Has the SHA-1 computed by a thread of the common pool (once, give or take a race), for the calls to come. */
    void digestElsewhere() {
        if (sha1 == null && !digesting) {
            digesting = true;
            ForkJoinPool.commonPool().execute(this::sha1);
        }
    }

    /** Takes the digest Redis answered {@code SCRIPT LOAD} with: this script's SHA-1, by Redis's definition. */
    void cachedAs(String digest) {
        sha1 = digest;
    }

    /** The library function that runs this script's code, {@code null} for a script of no library. */
    public String function() {
        return function;
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The name, and the SHA-1 once known: printing a script computes nothing. */
    @Override
    public String toString() {
        String digest = sha1;
        return digest == null ? name : name + " (" + digest + ")";
    }
}
