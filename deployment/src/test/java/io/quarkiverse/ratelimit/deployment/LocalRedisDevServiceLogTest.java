package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Dev and test mode without Docker and without {@code quarkus.redis.hosts}: the Dev Service that starts a redis-server
 * says so in one INFO line, and the container probe's ERROR and the Redis Dev Service's WARN, which its redis-server
 * makes moot, are logged at DEBUG.
 */
class LocalRedisDevServiceLogTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Limited.class))
            .setLogRecordPredicate(record -> true)
            .assertLogRecords(LocalRedisDevServiceLogTest::oneInfoLineSaysARedisServerStandsInForTheRedisDevService);

    @Path("/limited")
    public static class Limited {

        @GET
        @RateLimited(limit = 3, window = "1h")
        public String get() {
            return "ok";
        }
    }

    /** Checked on the records of the application's build and start. */
    static void oneInfoLineSaysARedisServerStandsInForTheRedisDevService(List<LogRecord> records) {
        assertThat(records).filteredOn(record -> message(record).startsWith("Rate limit Dev Service:"))
                .singleElement().satisfies(record -> {
                    assertThat(record.getLevel()).isEqualTo(Level.INFO);
                    assertThat(message(record)).contains("no container runtime");
                });
        assertThat(records).filteredOn(record -> message(record).startsWith("Please configure quarkus.redis.hosts"))
                .allSatisfy(record -> assertThat(record.getLevel().intValue()).isLessThan(Level.INFO.intValue()));
    }

    @Test
    void theContainerProbesErrorIsLoggedAtDebug() {
        // the probe runs once per JVM (an earlier test's build may have run it): log its message again here
        java.util.logging.Logger probe = java.util.logging.Logger
                .getLogger(LocalRedisDevServiceProcessor.NO_CONTAINER_RUNTIME_LOGGER);
        List<LogRecord> seen = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                seen.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        probe.addHandler(handler);
        try {
            probe.severe("Could not find a valid Docker environment. Please check configuration.");
        } finally {
            probe.removeHandler(handler);
        }
        assertThat(seen).singleElement().extracting(LogRecord::getLevel).isEqualTo(org.jboss.logmanager.Level.DEBUG);
    }

    private static String message(LogRecord record) {
        return record.getMessage() == null ? "" : record.getMessage();
    }
}
