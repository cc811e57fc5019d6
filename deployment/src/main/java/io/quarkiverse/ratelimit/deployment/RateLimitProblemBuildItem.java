package io.quarkiverse.ratelimit.deployment;

import io.quarkus.builder.item.MultiBuildItem;

/** One invalid use of {@code @RateLimited}; all of them are reported together and fail the build. */
public final class RateLimitProblemBuildItem extends MultiBuildItem {

    private final String message;

    public RateLimitProblemBuildItem(String message) {
        this.message = message;
    }

    public String message() {
        return message;
    }
}
