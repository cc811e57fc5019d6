package io.quarkiverse.ratelimit.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

class CacheBuiltOnFirstWriteTest {

    @Test
    void nothingIsBuiltUntilTheFirstWrite() {
        AtomicInteger builds = new AtomicInteger();
        CacheBuiltOnFirstWrite<String, String> cache = new CacheBuiltOnFirstWrite<>(() -> {
            builds.incrementAndGet();
            return Caffeine.newBuilder().maximumSize(10).build();
        });

        assertThat(cache.ifBuilt()).isNull();
        assertThat(cache.size()).isZero();
        assertThat(builds).hasValue(0);

        cache.built().put("tenant", "refused");

        assertThat(cache.ifBuilt().getIfPresent("tenant")).isEqualTo("refused");
        assertThat(cache.size()).isEqualTo(1);
        assertThat(builds).hasValue(1);
    }

    @Test
    void writersRacingForTheFirstWriteShareOneCache() throws Exception {
        AtomicInteger builds = new AtomicInteger();
        CacheBuiltOnFirstWrite<Integer, Integer> cache = new CacheBuiltOnFirstWrite<>(() -> {
            builds.incrementAndGet();
            return Caffeine.newBuilder().maximumSize(1_000).build();
        });
        int writers = 16;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int i = 0; i < writers; i++) {
                int key = i;
                pool.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    cache.built().put(key, key);
                });
            }
            start.countDown();
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }

        Cache<Integer, Integer> built = cache.ifBuilt();
        assertThat(builds).hasValue(1);
        assertThat(cache.size()).isEqualTo(writers);
        for (int i = 0; i < writers; i++) {
            assertThat(built.getIfPresent(i)).isEqualTo(i);
        }
    }
}
