package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;

/**
 * What an instance does when Redis changed ({@code InvalidationChannel}), each message kind a method that does nothing
 * unless the listener cares. Called on an event loop: quick, no blocking.
 */
public interface InvalidationListener {

    /** The state of these keys changed (a refund, a reset). */
    default void keysChanged(List<String> keys) {
    }

    /** These keys' state was deleted (a reset); by default, as any change of their state. */
    default void keysReset(List<String> keys) {
        keysChanged(keys);
    }

    /**
     * The slices the instances leased of these keys are called back: their limits are near their end, where every
     * call is decided in Redis ({@code lua/lease.lua}).
     */
    default void keysRecalled(List<String> keys) {
    }

    /** Anything may have changed: run-time limits or switches, or messages may have been missed. */
    default void everythingChanged() {
    }

    /** These keys' limits were paused for {@code pauseMillis} (an upstream service's retry time). */
    default void paused(List<String> keys, long pauseMillis) {
    }

    /** An adaptive limit's key learned a new value ({@code lua/adapt.lua}: {@code "<base> <since> <hold> <ceiling>"}). */
    default void learned(String key, String learned) {
    }
}
