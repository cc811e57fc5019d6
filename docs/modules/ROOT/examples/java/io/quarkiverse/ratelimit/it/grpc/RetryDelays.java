package io.quarkiverse.ratelimit.it.grpc;

import java.time.Duration;
import java.util.Optional;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.RetryInfo;

import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/** What a gRPC client of a limited service reads from a refusal: when to try again. */
public final class RetryDelays {

    private RetryDelays() {
    }

    // tag::retry-delay[]
    /** The RetryInfo delay of a RESOURCE_EXHAUSTED or UNAVAILABLE refusal; empty when it has none. */
    public static Optional<Duration> retryDelay(StatusRuntimeException refusal) throws InvalidProtocolBufferException {
        com.google.rpc.Status details = StatusProto.fromThrowable(refusal);
        if (details != null) {
            for (Any detail : details.getDetailsList()) {
                if (detail.is(RetryInfo.class)) {
                    com.google.protobuf.Duration delay = detail.unpack(RetryInfo.class).getRetryDelay();
                    return Optional.of(Duration.ofSeconds(delay.getSeconds(), delay.getNanos()));
                }
            }
        }
        return Optional.empty();
    }
    // end::retry-delay[]
}
