package io.quarkiverse.ratelimit.deployment;

import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.quarkiverse.ratelimit.testing.RateLimitTestClock;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.runtime.LaunchMode;

/**
 * The scripts' clock, chosen when the application is built: Redis {@code TIME} always, but for a {@code @QuarkusTest},
 * whose limits a test can move forward in time ({@link RateLimitTestClock}). No production build holds the test clock.
 */
class ScriptClockProcessor {

    @BuildStep
    AdditionalBeanBuildItem scriptClock(LaunchModeBuildItem launchMode) {
        Class<?> clock = launchMode.getLaunchMode() == LaunchMode.TEST ? RateLimitTestClock.class : ScriptClock.RedisTime.class;
        return AdditionalBeanBuildItem.builder().addBeanClasses(clock).setUnremovable()
                .setDefaultScope(BuiltinScope.SINGLETON.getName()).build();
    }
}
