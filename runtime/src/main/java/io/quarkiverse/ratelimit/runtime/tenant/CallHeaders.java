package io.quarkiverse.ratelimit.runtime.tenant;

/**
 * The headers of a limited call that is not an HTTP request Quarkus REST serves: a gRPC call's metadata. A bean only
 * when the application serves such calls (quarkus-grpc); the tenant header is read from it as from an HTTP request.
 */
public interface CallHeaders {

    /** The value of the header {@code name} of the call being served; {@code null} when it has none or none is served. */
    String header(String name);
}
