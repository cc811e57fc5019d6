package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.it.grpc.QuoteReply;
import io.quarkiverse.ratelimit.it.grpc.QuoteService;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A gRPC service limited by {@code @RateLimited} and {@code @ConcurrencyLimited}, called through the generated stubs
 * over a real channel: the tenant comes from the call's metadata, a refusal is {@code RESOURCE_EXHAUSTED} with a
 * {@code RetryInfo} delay and the rate-limit metadata, a blocked tenant {@code PERMISSION_DENIED}, a call without a
 * tenant {@code INVALID_ARGUMENT}; a stream is one call.
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class GrpcServiceTest {

    @TestHTTPResource
    URI application;

    @Inject
    RateLimitAdmin admin;

    QuoteChannel channel;

    @BeforeEach
    void open() {
        channel = new QuoteChannel(application);
    }

    @AfterEach
    void close() throws InterruptedException {
        channel.close();
    }

    @Test
    void aTenantGetsItsQuotesADayThenResourceExhaustedWithARetryDelay() throws Exception {
        String tenant = tenant();
        for (int i = 0; i < QuoteService.QUOTES_A_DAY; i++) {
            assertThat(channel.blocking(tenant).quote(QuoteChannel.to("Lyon")).getCents()).isEqualTo(1204);
        }
        StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class,
                () -> channel.blocking(tenant).quote(QuoteChannel.to("Lyon")));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        long delay = QuoteChannel.retryDelaySeconds(refused);
        assertThat(delay).as("RetryInfo: when a quote is admitted again").isPositive();
        assertThat(Long.parseLong(refused.getTrailers().get(QuoteChannel.RETRY_AFTER)))
                .as("the same delay in whole seconds, rounded up").isBetween(delay, delay + 1);
        assertThat(refused.getTrailers().get(QuoteChannel.POLICY)).isEqualTo("\"grpc-quotes\";q=5;w=86400");

        assertThat(channel.blocking(tenant()).quote(QuoteChannel.to("Lyon")).getCents())
                .as("another tenant's quotes are its own").isEqualTo(1204);
    }

    @Test
    void aStreamIsOneCall() {
        String tenant = tenant();
        for (int i = 0; i < 3; i++) {
            List<String> zones = new ArrayList<>();
            channel.blocking(tenant).rateTable(QuoteChannel.to("Oslo")).forEachRemaining(r -> zones.add(r.getDestination()));
            assertThat(zones).containsExactly("Oslo/zone-1", "Oslo/zone-2", "Oslo/zone-3");
        }
        Iterator<QuoteReply> fourth = channel.blocking(tenant).rateTable(QuoteChannel.to("Oslo"));
        StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class, fourth::next);
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    }

    @Test
    void aBlockedTenantIsDeniedAndACallWithoutATenantIsInvalid() {
        String tenant = tenant();
        admin.block(tenant);
        try {
            assertThat(QuoteChannel.code(catchThrowableOfType(StatusRuntimeException.class,
                    () -> channel.blocking(tenant).quote(QuoteChannel.to("Rome"))))).isEqualTo(Status.Code.PERMISSION_DENIED);
        } finally {
            admin.unblock(tenant);
        }
        assertThat(QuoteChannel.code(catchThrowableOfType(StatusRuntimeException.class,
                () -> channel.blocking(null).quote(QuoteChannel.to("Rome"))))).isEqualTo(Status.Code.INVALID_ARGUMENT);
    }

    private static String tenant() {
        return "grpc-" + UUID.randomUUID();
    }
}
