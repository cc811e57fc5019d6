package io.quarkiverse.ratelimit.deployment.observe;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A scripted sequence against a real Redis (allowed, refused by Redis and by the refusal cache, a missing function
 * after FUNCTION FLUSH, Redis paused past the decision timeout, then Redis killed so that every failure mode decides), then one
 * scrape
 * of the Prometheus endpoint: every
 * counter has exactly the value the sequence implies, per tag set.
 */
class MetricsTest {

    static final TestRedis REDIS = TestRedis.named("metrics");
    static final java.nio.file.Path LOG = java.nio.file.Path.of("target", "metrics-test-" + ProcessHandle.current().pid() + "-"
            + java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime() + ".log"); // the same in the test and the application, new each run

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Metered.class, TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", "300ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "2")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1h")
            // the log as the application writes it (console and file alike), to check that its start is clean
            .overrideConfigKey("quarkus.log.file.enabled", "true")
            .overrideConfigKey("quarkus.log.file.path", LOG.toString());

    @Path("/metered")
    public static class Metered {

        @GET
        @Path("local")
        @RateLimited(name = "search", limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String local() {
            return "ok";
        }

        @GET
        @Path("closed")
        @RateLimited(name = "payments", limit = 3, window = "1h", failureMode = FailureMode.FAIL_CLOSED)
        public String closed() {
            return "ok";
        }

        @GET
        @Path("upload")
        @ConcurrencyLimited(name = "uploads", limit = 1)
        public String upload() {
            return "ok";
        }

        @GET
        @Path("open")
        @RateLimited(name = "catalog", limit = 3, window = "1h", failureMode = FailureMode.FAIL_OPEN)
        public String open() {
            return "ok";
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void everyDecisionIsCountedOnceByWhatDecidedIt() {
        String first = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            call(first, "local", 200);
        }
        call(first, "local", 429); // Redis refuses
        call(first, "local", 429); // the refusal cache repeats it

        REDIS.command("FUNCTION", "FLUSH");
        call(UUID.randomUUID().toString(), "local", 200); // the function missing: recovered by one EVAL

        REDIS.pause();
        try {
            call(UUID.randomUUID().toString(), "local", 200); // no answer in time: the local limiter admits
        } finally {
            REDIS.resume();
        }
        call(UUID.randomUUID().toString(), "local", 200); // Redis answers again (the breaker counts from zero)

        REDIS.kill();
        String third = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            call(third, "local", 200); // the local limiter: 3 of 3 on this one instance
        }
        call(third, "local", 429);
        call(third, "closed", 503);
        call(third, "closed", 503);
        call(third, "open", 200);

        String scrape = given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(value(scrape, "rate_limit_decisions_total", "search", "allowed", "redis")).isEqualTo(5);
        assertThat(value(scrape, "rate_limit_decisions_total", "search", "rejected", "redis")).isEqualTo(1);
        assertThat(value(scrape, "rate_limit_decisions_total", "search", "rejected", "local_cache")).isEqualTo(1);
        assertThat(value(scrape, "rate_limit_decisions_total", "search", "allowed", "fallback")).isEqualTo(4);
        assertThat(value(scrape, "rate_limit_decisions_total", "search", "rejected", "fallback")).isEqualTo(1);
        assertThat(value(scrape, "rate_limit_decisions_total", "payments", "rejected", "fail_closed")).isEqualTo(2);
        assertThat(value(scrape, "rate_limit_decisions_total", "catalog", "allowed", "fail_open")).isEqualTo(1);
        assertThat(countedSeries(scrape, "rate_limit_decisions_total")).as("no other decision was counted")
                .isEqualTo(7);
        // registered at start-up, so that rate() sees the first decision of every limit
        assertThat(value(scrape, "rate_limit_decisions_total", "catalog", "allowed", "redis")).isZero();
        assertThat(value(scrape, "rate_limit_concurrency_rejected_total{limit=\"uploads\"}")).isZero();

        // remaining < 0.2 * 3: the third call of each tenant's window, by Redis and by the local limiter
        assertThat(value(scrape, "rate_limit_near_limit_total{limit=\"search\"}")).isEqualTo(2);
        assertThat(value(scrape, "rate_limit_redis_script_reloads_total")).isEqualTo(1);

        // two failures opened the breaker (threshold 2); it stays open for the hour
        assertThat(value(scrape, "rate_limit_circuit_state")).isEqualTo(2);
        assertThat(value(scrape, "rate_limit_circuit_transitions_total{from=\"closed\",to=\"open\"}")).isEqualTo(1);
        assertThat(value(scrape, "rate_limit_circuit_transitions_total{from=\"open\",to=\"half_open\"}")).isZero();

        // every call sent to Redis was timed: six answered, one not in time, two failed before the breaker opened
        assertThat(value(scrape,
                "rate_limit_redis_duration_seconds_count{operation=\"decide\",outcome=\"success\"}")).isEqualTo(6);
        assertThat(value(scrape,
                "rate_limit_redis_duration_seconds_count{operation=\"decide\",outcome=\"timeout\"}")).isEqualTo(1);
        assertThat(value(scrape,
                "rate_limit_redis_duration_seconds_count{operation=\"decide\",outcome=\"error\"}")).isEqualTo(2);
        // quantiles come from the buckets (aggregated over the fleet), not from each instance
        assertThat(scrape).doesNotContain("rate_limit_redis_duration_seconds{");
        assertThat(scrape).containsPattern(
                "rate_limit_redis_duration_seconds_bucket\\{operation=\"decide\",outcome=\"success\",le=\"[0-9.E-]+\"}");
    }

    /** The dashboard and the alerting rules shipped in the docs use only metrics the extension publishes. */
    @Test
    void theDashboardAndTheAlertsUseOnlyPublishedMetrics() throws Exception {
        String scrape = given().get("/q/metrics").then().statusCode(200).extract().asString();
        java.nio.file.Path attachments = java.nio.file.Path.of("..", "docs", "modules", "ROOT", "attachments");
        for (String file : new String[] { "rate-limit-dashboard.json", "rate-limit-alerts.yml" }) {
            Matcher used = Pattern.compile("rate_limit_[a-z_]+").matcher(Files.readString(attachments.resolve(file)));
            int names = 0;
            while (used.find()) {
                names++;
                assertThat(scrape).as("%s uses %s", file, used.group()).containsPattern("(?m)^" + used.group() + "[{ ]");
            }
            assertThat(names).as("metrics used in %s", file).isPositive();
        }
    }

    private static void call(String tenant, String path, int status) {
        given().header("X-Tenant-Id", tenant).get("/metered/" + path).then().statusCode(status);
    }

    private static long value(String scrape, String meter, String limit, String result, String decidedBy) {
        return value(scrape, meter + "{decided_by=\"" + decidedBy + "\",limit=\"" + limit + "\",mode=\"enforce\","
                + "result=\"" + result + "\"}");
    }

    /** The value of one series, as a whole number; fails when the scrape has no such series. */
    private static long value(String scrape, String series) {
        // the value, then an exemplar (" # {span_id=...} ...") when the application also traces
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.E+-]+)( # .*)?$").matcher(scrape);
        assertThat(matcher.find()).as("%s in the scrape:%n%s", series, scrape).isTrue();
        return Math.round(Double.parseDouble(matcher.group(1)));
    }

    /** How many series of {@code meter} counted something. */
    private static long countedSeries(String scrape, String meter) {
        return scrape.lines().filter(line -> line.startsWith(meter + "{") && !line.matches(".*} 0\\.0( # .*)?"))
                .count();
    }

    /** No warning about a meter registered twice: quarkus-redis-client 3.32 registers the Redis pool gauges twice. */
    @Test
    void theApplicationStartsWithACleanLog() throws Exception {
        assertThat(Files.readString(LOG)).contains("started in").doesNotContain("has been already registered");
    }
}
