package io.quarkiverse.ratelimit.runtime.grpc;

import jakarta.enterprise.context.ApplicationScoped;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.quarkiverse.ratelimit.runtime.tenant.CallHeaders;
import io.quarkus.grpc.GlobalInterceptor;

/**
 * Every gRPC call the application serves: its metadata is where a limit finds the tenant ({@link CallHeaders}, the
 * tenant header as over HTTP), and a refusal of its limits ends it with the gRPC status that says so
 * ({@link GrpcRefusals}) rather than {@code UNKNOWN}. A bean only when the application has quarkus-grpc.
 */
@ApplicationScoped
@GlobalInterceptor
public class GrpcCalls implements ServerInterceptor, CallHeaders {

    private static final Context.Key<Metadata> HEADERS = Context.key("quarkus-rate-limit-metadata");

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
            ServerCallHandler<Q, A> next) {
        return Contexts.interceptCall(Context.current().withValue(HEADERS, headers), new RefusalsAsStatus<>(call),
                headers, next);
    }

    @Override
    public String header(String name) {
        Metadata headers = HEADERS.get();
        return headers == null ? null : headers.get(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER));
    }

    /** Replaces the {@code UNKNOWN} of a call a limit refused by the status of the refusal. */
    private static final class RefusalsAsStatus<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {

        RefusalsAsStatus(ServerCall<Q, A> call) {
            super(call);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            Status refusal = status.isOk() ? null : GrpcRefusals.status(status.getCause(), trailers);
            super.close(refusal == null ? status : refusal, trailers);
        }
    }
}
