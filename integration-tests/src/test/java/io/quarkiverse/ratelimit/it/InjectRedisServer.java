package io.quarkiverse.ratelimit.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Receives the {@code LocalRedisServer} of {@link ControllableRedisResource}, to kill, pause or restart it. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectRedisServer {
}
