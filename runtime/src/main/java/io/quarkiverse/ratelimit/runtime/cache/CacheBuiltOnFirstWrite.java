package io.quarkiverse.ratelimit.runtime.cache;

import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;

/**
 * A Caffeine cache built when something is first written to it. The rate limiter's caches (remembered refusals, the
 * local fallback's counters and slots) stay empty in an application that is never refused and never loses Redis, and
 * building one costs a JVM that has just started tens of milliseconds (Caffeine finds its generated cache class by
 * method handles); a reader of a cache not built yet finds nothing, as it would in the empty cache.
 */
public final class CacheBuiltOnFirstWrite<K, V> {

    private final Supplier<Cache<K, V>> builder;
    private volatile Cache<K, V> cache;

    public CacheBuiltOnFirstWrite(Supplier<Cache<K, V>> builder) {
        this.builder = builder;
    }

    /** The cache, or {@code null} while nothing was written: for reading and forgetting. */
    public Cache<K, V> ifBuilt() {
        return cache;
    }

    /** The cache, built now if it was not: for writing. */
    public Cache<K, V> built() {
        Cache<K, V> built = cache;
        if (built == null) {
            synchronized (this) {
                built = cache;
                if (built == null) {
                    built = builder.get();
                    cache = built;
                }
            }
        }
        return built;
    }

    /** How many entries are held: 0 before the first write. */
    public long size() {
        Cache<K, V> built = cache;
        if (built == null) {
            return 0;
        }
        built.cleanUp();
        return built.estimatedSize();
    }
}
