package io.quarkiverse.ratelimit.runtime.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import com.google.rpc.RetryInfo;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkiverse.ratelimit.TenantRequiredException;

/**
 * Each refusal a limited gRPC call can meet becomes the status that says it, with the retry delay and the rate-limit
 * metadata where there is one; a failure no limit caused is left as it is. (Over a real channel: GrpcServiceTest and
 * GrpcTwoInstancesIT of the integration tests.)
 */
class GrpcRefusalsTest {

    @Test
    void aLimitsRefusalIsResourceExhaustedWithItsRetryDelayAndTheRateLimitMetadata() throws Exception {
        RateLimitDecision refused = new RateLimitDecision("quotes", 5, Duration.ofHours(1), false, 0,
                Duration.ofMinutes(30), Duration.ofMillis(1500), false);
        Metadata trailers = new Metadata();
        Status status = GrpcRefusals.status(new CompletionException(new RateLimitExceededException(List.of(refused))),
                trailers);

        assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(trailers.get(key("retry-after"))).isEqualTo("2");
        assertThat(trailers.get(key("ratelimit-policy"))).isEqualTo("\"quotes\";q=5;w=3600");
        assertThat(trailers.get(key("ratelimit"))).isEqualTo("\"quotes\";r=0;t=1800");
        RetryInfo retry = StatusProto.fromStatusAndTrailers(status, trailers).getDetails(0).unpack(RetryInfo.class);
        assertThat(retry.getRetryDelay().getSeconds()).isEqualTo(1);
        assertThat(retry.getRetryDelay().getNanos()).isEqualTo(500_000_000);
    }

    @Test
    void eachOtherRefusalHasItsOwnStatus() {
        assertThat(code(new ConcurrencyLimitExceededException("reports", 2))).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(code(new RateLimiterUnavailableException("quotes", Duration.ofSeconds(1), null)))
                .as("a limit that fails closed").isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(code(new TenantBlockedException())).isEqualTo(Status.Code.PERMISSION_DENIED);
        assertThat(code(new TenantRequiredException("no tenant", 400))).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(code(new TenantRequiredException("no user", 401))).isEqualTo(Status.Code.UNAUTHENTICATED);
    }

    @Test
    void aFailureNoLimitCausedIsLeftAsItIs() {
        assertThat(GrpcRefusals.status(new IllegalStateException("the service's own"), new Metadata())).isNull();
        assertThat(GrpcRefusals.status(null, new Metadata())).isNull();
    }

    private static Status.Code code(RuntimeException refusal) {
        return GrpcRefusals.status(refusal, new Metadata()).getCode();
    }

    private static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }
}
