package io.quarkiverse.ratelimit.deployment.startup;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.observe.LimitedResource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.redis.hosts} pointing where no Redis listens (a wrong port): start-up says so in one line that names
 * the property, the address and what the limiter does meanwhile; the application starts and answers on its failure
 * mode, with no 5xx beyond what that mode says.
 */
class UnreachableRedisAtStartupTest {

    static final String HOSTS = "redis://localhost:" + freePort();

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(LimitedResource.class))
            .overrideConfigKey("quarkus.redis.hosts", HOSTS)
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.failure-mode", "fail-open")
            .overrideConfigKey("quarkus.redis.health.enabled", "false") // its advice is another warning
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.ratelimit"))
            .assertLogRecords(UnreachableRedisAtStartupTest::oneLineNamesTheProperty);

    @Test
    void theApplicationStartsAndDecidesByItsFailureMode() {
        given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/limited").then().statusCode(200);
    }

    static void oneLineNamesTheProperty(List<LogRecord> records) {
        List<String> messages = records.stream().map(record -> ((ExtLogRecord) record).getFormattedMessage()).toList();
        assertThat(messages).as("warnings at start-up and on the first call").hasSize(1);
        assertThat(messages.get(0)).contains("quarkus.redis.hosts").contains(HOSTS.replace("redis://", ""))
                .contains("Connection refused").contains("fail-open: LimitedResource.get");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
