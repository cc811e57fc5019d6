package io.quarkiverse.ratelimit.runtime.grpc;

import java.time.Duration;
import java.util.List;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.RetryInfo;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkiverse.ratelimit.TenantRequiredException;
import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;

/**
 * What a refused gRPC call is answered, as the HTTP answers say it: a limit's refusal is {@code RESOURCE_EXHAUSTED} with
 * a {@code google.rpc.RetryInfo} retry delay (in {@code grpc-status-details-bin}) and the {@code ratelimit},
 * {@code ratelimit-policy} and {@code retry-after} metadata; a limit that fails closed {@code UNAVAILABLE}; a blocked
 * tenant {@code PERMISSION_DENIED}; a missing tenant {@code UNAUTHENTICATED} (principal, JWT claim) or
 * {@code INVALID_ARGUMENT}.
 */
final class GrpcRefusals {

    /** Where gRPC clients read a status's details ({@code StatusProto.fromThrowable}). */
    private static final Metadata.Key<com.google.rpc.Status> DETAILS = Metadata.Key.of("grpc-status-details-bin",
            ProtoUtils.metadataMarshaller(com.google.rpc.Status.getDefaultInstance()));
    private static final Metadata.Key<String> RATE_LIMIT = ascii("ratelimit");
    private static final Metadata.Key<String> POLICY = ascii("ratelimit-policy");
    private static final Metadata.Key<String> RETRY_AFTER = ascii("retry-after");

    private GrpcRefusals() {
    }

    /**
     * The status of a call that failed with {@code failure}, its metadata added to {@code trailers}; {@code null} when
     * no limit refused it.
     */
    static Status status(Throwable failure, Metadata trailers) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RateLimitExceededException refused) {
                List<io.quarkiverse.ratelimit.RateLimitDecision> violations = refused.violations();
                trailers.put(POLICY, RateLimitHeaders.policy(violations));
                trailers.put(RATE_LIMIT, RateLimitHeaders.rateLimit(violations));
                return retryLater(Status.RESOURCE_EXHAUSTED, Code.RESOURCE_EXHAUSTED, refused, refused.retryAfter(),
                        trailers);
            }
            if (cause instanceof ConcurrencyLimitExceededException refused) {
                return retryLater(Status.RESOURCE_EXHAUSTED, Code.RESOURCE_EXHAUSTED, refused,
                        refused.retryAfter() == null ? Duration.ofSeconds(1) : refused.retryAfter(), trailers);
            }
            if (cause instanceof RateLimiterUnavailableException unavailable) {
                return retryLater(Status.UNAVAILABLE, Code.UNAVAILABLE, unavailable, unavailable.retryAfter(),
                        trailers);
            }
            if (cause instanceof TenantBlockedException blocked) {
                return Status.PERMISSION_DENIED.withDescription(blocked.getMessage());
            }
            if (cause instanceof TenantRequiredException missing) {
                return (missing.status() == 401 ? Status.UNAUTHENTICATED : Status.INVALID_ARGUMENT)
                        .withDescription(missing.getMessage());
            }
        }
        return null;
    }

    /** {@code status}, with when to retry as {@code retry-after} (whole seconds) and as a {@code RetryInfo}. */
    private static Status retryLater(Status status, Code code, Throwable refusal, Duration retryAfter,
            Metadata trailers) {
        com.google.rpc.Status.Builder details = com.google.rpc.Status.newBuilder().setCode(code.getNumber())
                .setMessage(refusal.getMessage());
        if (retryAfter != null) {
            trailers.put(RETRY_AFTER, Long.toString(RateLimitHeaders.retryAfterSeconds(retryAfter)));
            details.addDetails(Any.pack(RetryInfo.newBuilder().setRetryDelay(com.google.protobuf.Duration.newBuilder()
                    .setSeconds(retryAfter.getSeconds()).setNanos(retryAfter.getNano())).build()));
        }
        trailers.put(DETAILS, details.build());
        return status.withDescription(refusal.getMessage());
    }

    private static Metadata.Key<String> ascii(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }
}
