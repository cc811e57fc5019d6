package io.quarkiverse.ratelimit.runtime.status;

import java.time.Duration;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * The readiness check {@code rate-limit}. Its data shows whether Redis answers, the circuit breaker, the scripts and
 * how many calls were decided without Redis. It is UP while Redis is down: every limit is then still decided, by its
 * failure mode, and taking every instance out of rotation would turn a Redis outage into a total one. With
 * {@code quarkus.rate-limit.health.strict=true} it is DOWN while Redis does not answer a PING within
 * {@code decision-timeout}. Never because the circuit breaker is open: only calls probe the breaker, and an instance out
 * of rotation gets none, so it would never come back.
 */
@Readiness
@Singleton
public class RateLimitReadinessCheck implements AsyncHealthCheck {

    public static final String NAME = "rate-limit";

    private final RedisTransport redis;
    private final LimiterStatus status;
    private final Duration timeout;
    private final boolean strict;

    RateLimitReadinessCheck(RedisTransport redis, LimiterStatus status, RateLimitConfig config) {
        this.redis = redis;
        this.status = status;
        this.timeout = config.decisionTimeout();
        this.strict = config.health().strict();
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return redis.ping(timeout)
                .map(pong -> (String) null)
                .onFailure().recoverWithItem(RateLimitReadinessCheck::problem)
                .map(this::response);
    }

    private HealthCheckResponse response(String redisProblem) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .status(redisProblem == null || !strict)
                .withData("redis", redisProblem == null ? "reachable" : "unreachable: " + redisProblem);
        status.snapshot(redisProblem == null).forEach((name, value) -> {
            if (value instanceof Number number) {
                response.withData(name, number.longValue());
            } else {
                response.withData(name, String.valueOf(value));
            }
        });
        return response.withData("strict", strict).build();
    }

    private static String problem(Throwable failure) {
        if (failure instanceof io.smallrye.mutiny.TimeoutException) {
            return "no answer within the decision timeout";
        }
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }
}
