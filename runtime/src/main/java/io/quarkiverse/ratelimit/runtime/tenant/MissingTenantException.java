package io.quarkiverse.ratelimit.runtime.tenant;

/** A limited call that must name its tenant did not; Quarkus REST answers {@code 400 Bad Request}. */
public class MissingTenantException extends RuntimeException {

    public MissingTenantException(String message) {
        super(message, null, false, false);
    }
}
