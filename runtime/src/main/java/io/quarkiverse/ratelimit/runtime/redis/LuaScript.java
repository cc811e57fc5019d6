package io.quarkiverse.ratelimit.runtime.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script shipped in the runtime jar, with the SHA-1 digest Redis caches it under and, for the scripts
 * {@link RateLimitScripts} assembles, the {@link LuaLibrary} function that runs the same code.
 */
public final class LuaScript {

    /** Where the build puts the top-level {@code lua/} directory inside the runtime jar. */
    public static final String RESOURCE_DIRECTORY = "META-INF/quarkus-rate-limit/lua/";

    private final String name;
    private final String source;
    private final String sha1;
    private final String function;

    LuaScript(String name, String source) {
        this(name, source, null);
    }

    LuaScript(String name, String source, String function) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1(source);
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

    public String sha1() {
        return sha1;
    }

    /** The library function that runs this script's code, {@code null} for a script of no library. */
    public String function() {
        return function;
    }

    static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name + " (" + sha1 + ")";
    }
}
