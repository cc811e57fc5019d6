package io.quarkiverse.ratelimit.runtime.admin;

/**
 * No limit has the policy or name an administrative call gives: the administration endpoints answer 404 for it, where a
 * value a known limit cannot take is a 400. Still an {@link IllegalArgumentException}, as {@code RateLimitAdmin} says.
 */
final class UnknownLimitException extends IllegalArgumentException {

    UnknownLimitException(String message) {
        super(message);
    }
}
