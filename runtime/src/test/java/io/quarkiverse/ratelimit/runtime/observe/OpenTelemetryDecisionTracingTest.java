package io.quarkiverse.ratelimit.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkiverse.ratelimit.RateLimitDecision;

/** What an in-memory exporter sees of the span a decision was taken in. */
class OpenTelemetryDecisionTracingTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracers = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OpenTelemetryDecisionTracing tracing = new OpenTelemetryDecisionTracing();

    @AfterEach
    void close() {
        tracers.close();
    }

    @Test
    void anAdmittedCallCarriesTheLimitsWhatIsLeftAndWhatDecided() {
        SpanData span = traced(() -> tracing.decided(tracing.currentSpan(),
                List.of(decision("search", true, 7), decision("search-burst", true, 2)), DecidedBy.REDIS));
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.LIMITS)).containsExactly("search",
                "search-burst");
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.REMAINING)).containsExactly(7L, 2L);
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.RESULT)).isEqualTo("allowed");
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.DECIDED_BY)).isEqualTo("redis");
        assertThat(span.getEvents()).isEmpty();
    }

    @Test
    void aRefusedCallIsMarkedWithThe429Event() {
        SpanData span = traced(() -> tracing.decided(tracing.currentSpan(),
                List.of(decision("search", false, 0)), DecidedBy.LOCAL_CACHE));
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.RESULT)).isEqualTo("rejected");
        assertThat(span.getAttributes().get(OpenTelemetryDecisionTracing.DECIDED_BY)).isEqualTo("local_cache");
        assertThat(span.getEvents()).singleElement().satisfies(event -> {
            assertThat(event.getName()).isEqualTo("rate_limit.rejected");
            assertThat(attribute(event, "http.response.status_code")).isEqualTo(429L);
            assertThat(attribute(event, "rate_limit.limit")).isEqualTo("search");
            assertThat(attribute(event, "rate_limit.retry_after_ms")).isEqualTo(1500L);
        });
    }

    @Test
    void withoutASpanNothingHappens() {
        assertThat(tracing.currentSpan()).isNull();
        tracing.decided(null, List.of(decision("search", false, 0)), DecidedBy.REDIS);
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    private SpanData traced(Runnable decision) {
        Span span = tracers.get("test").spanBuilder("GET /search").startSpan();
        try (Scope ignored = span.makeCurrent()) {
            decision.run();
        } finally {
            span.end();
        }
        return exporter.getFinishedSpanItems().get(0);
    }

    private static Object attribute(EventData event, String key) {
        return event.getAttributes().asMap().entrySet().stream().filter(entry -> entry.getKey().getKey().equals(key))
                .findFirst().orElseThrow().getValue();
    }

    private static RateLimitDecision decision(String name, boolean allowed, long remaining) {
        return new RateLimitDecision(name, 10, Duration.ofMinutes(1), allowed, remaining, Duration.ofMinutes(1),
                allowed ? Duration.ZERO : Duration.ofMillis(1500), false);
    }
}
