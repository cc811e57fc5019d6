package io.quarkiverse.ratelimit.deployment.observe;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With quarkus-opentelemetry, the server span of a rate-limited call carries the decision (taken on the request's
 * thread, completed on Redis's), and a refused call's span has the {@code rate_limit.rejected} event with 429.
 */
class DecisionTracingTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Traced.class, Exporter.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "50ms");

    @Inject
    InMemorySpanExporter exporter;

    @Path("/traced")
    public static class Traced {

        @GET
        @RateLimited(name = "search", limit = 2, window = "1h")
        public String get() {
            return "ok";
        }
    }

    public static class Exporter {

        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }
    }

    @Test
    void theServerSpanCarriesTheDecision() {
        String tenant = UUID.randomUUID().toString();
        for (int status : new int[] { 200, 200, 429 }) {
            given().header("X-Tenant-Id", tenant).get("/traced").then().statusCode(status);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> serverSpans().size() >= 3);
        List<SpanData> spans = serverSpans();

        assertThat(spans.get(0).getAttributes().get(AttributeKey.stringArrayKey("rate_limit.limits")))
                .containsExactly("search");
        assertThat(spans.get(0).getAttributes().get(AttributeKey.longArrayKey("rate_limit.remaining")))
                .containsExactly(1L);
        assertThat(spans.get(0).getAttributes().get(AttributeKey.stringKey("rate_limit.result"))).isEqualTo("allowed");
        assertThat(spans.get(0).getAttributes().get(AttributeKey.stringKey("rate_limit.decided_by")))
                .isEqualTo("redis");
        assertThat(spans.get(0).getEvents()).isEmpty();

        SpanData refused = spans.get(2);
        assertThat(refused.getAttributes().get(AttributeKey.stringKey("rate_limit.result"))).isEqualTo("rejected");
        assertThat(refused.getEvents()).filteredOn(event -> event.getName().startsWith("rate_limit"))
                .singleElement().satisfies(event -> {
                    assertThat(event.getName()).isEqualTo("rate_limit.rejected");
                    assertThat(event.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(429);
                });
    }

    private List<SpanData> serverSpans() {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().contains("/traced"))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos))
                .toList();
    }
}
