package io.quarkiverse.ratelimit.it;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import com.google.protobuf.InvalidProtocolBufferException;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.quarkiverse.ratelimit.it.grpc.QuoteRequest;
import io.quarkiverse.ratelimit.it.grpc.QuotesGrpc;
import io.quarkiverse.ratelimit.it.grpc.RetryDelays;

/** A real gRPC channel to an instance of the application (plaintext HTTP/2 on its HTTP port), with the stubs' help. */
final class QuoteChannel implements AutoCloseable {

    static final Metadata.Key<String> TENANT = Metadata.Key.of("x-tenant-id", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> RETRY_AFTER = Metadata.Key.of("retry-after", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> POLICY = Metadata.Key.of("ratelimit-policy", Metadata.ASCII_STRING_MARSHALLER);

    private final ManagedChannel channel;

    QuoteChannel(URI instance) {
        this.channel = ManagedChannelBuilder.forAddress(instance.getHost(), instance.getPort()).usePlaintext().build();
    }

    /** The blocking stub, calling as {@code tenant} ({@code null}: no tenant metadata). */
    QuotesGrpc.QuotesBlockingStub blocking(String tenant) {
        return QuotesGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(
                metadata(tenant))).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    /** The future stub, calling as {@code tenant}. */
    QuotesGrpc.QuotesFutureStub future(String tenant) {
        return QuotesGrpc.newFutureStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(
                metadata(tenant))).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    static QuoteRequest to(String destination) {
        return QuoteRequest.newBuilder().setDestination(destination).build();
    }

    /** The retry delay of a refusal's {@code google.rpc.RetryInfo}, in whole seconds (the docs' client code). */
    static long retryDelaySeconds(StatusRuntimeException refusal) throws InvalidProtocolBufferException {
        return RetryDelays.retryDelay(refusal).orElseThrow(() -> new AssertionError("no RetryInfo on " + refusal))
                .getSeconds();
    }

    static Status.Code code(Throwable failure) {
        return Status.fromThrowable(failure).getCode();
    }

    private static Metadata metadata(String tenant) {
        Metadata metadata = new Metadata();
        if (tenant != null) {
            metadata.put(TENANT, tenant);
        }
        return metadata;
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
}
