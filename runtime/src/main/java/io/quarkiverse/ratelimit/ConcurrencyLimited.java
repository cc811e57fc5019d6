package io.quarkiverse.ratelimit;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * At most {@link #limit()} calls of the annotated method in flight per tenant, across every instance that shares the
 * Redis server (Stripe's concurrency limiter). A call takes a lease before it runs and gives it back when it ends,
 * whether it succeeds, fails or is cancelled; a crashed instance's leases expire after {@link #lease()}.
 * <p>
 * A refused call does not reach the method: it fails with {@link ConcurrencyLimitExceededException}, which Quarkus
 * REST answers with {@code 429 Too Many Requests}. The tenant is found as for {@link RateLimited}. Combined with
 * {@link RateLimited} on one method, the rate limit is checked first.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({ METHOD, TYPE })
public @interface ConcurrencyLimited {

    /** Calls in flight at most, per tenant; greater than zero. */
    @Nonbinding
    int limit();

    /**
     * The longest one call may hold its slot, in Quarkus duration syntax: a call still running after it no longer
     * counts, and the leases of a crashed instance are freed after it. Set it above the method's longest call.
     */
    @Nonbinding
    String lease() default "1m";

    /** The name of the limit in keys and errors; letters, digits, '.', '_', '-'. Defaults to the method's. */
    @Nonbinding
    String name() default "";

    /** What the limit does when Redis cannot decide; see {@link FailureMode}. */
    @Nonbinding
    FailureMode failureMode() default FailureMode.DEFAULT;
}
