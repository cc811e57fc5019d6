package io.quarkiverse.ratelimit;

/**
 * A call to a limit whose tenant is required named none (no header, anonymous caller, no claim...). Quarkus REST
 * answers with {@link #status()} ({@code 400} or {@code 401} by default) and an {@code application/problem+json} body.
 */
public class TenantRequiredException extends RuntimeException {

    private final int status;

    public TenantRequiredException(String message, int status) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
