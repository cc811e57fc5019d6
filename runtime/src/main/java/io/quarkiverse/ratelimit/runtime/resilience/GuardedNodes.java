package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.runtime.redis.RedisTopology;

/**
 * The Redis nodes decisions go to, each {@link GuardedNode guarded} on its own: one for a standalone or Sentinel Redis;
 * in a cluster one per master, found by the key's slot ({@link RedisTopology}), so a failing master sends only the
 * decisions of its own slots to their failure mode while tenants on the other masters stay exact. A key whose owner is
 * not known yet (a cluster before its first {@code CLUSTER SLOTS}) goes to the node {@link RedisTopology#UNKNOWN}.
 */
final class GuardedNodes {

    /** A new node's breaker, told its node ({@code null} outside a cluster) for the transitions it reports. */
    interface BreakerFactory {
        CircuitBreaker create(Consumer<CircuitBreakerTransition> listener);
    }

    /**
     * How long a cluster master's failures do not count against its breaker once first seen: the client's cached slot
     * map ({@code quarkus.redis.hash-slot-cache-ttl}, 1 s) and ours (asked every second) may disagree that long.
     */
    static final long SETTLE_NANOS = 2_500_000_000L;

    private final RedisTopology cluster;
    private final LongSupplier nanoClock;
    private final BreakerFactory breakers;
    private final Function<LongSupplier, PendingDecisions> pendingDecisions;
    private final Consumer<CircuitBreakerTransition> listener;
    private final Map<String, GuardedNode> byName = new ConcurrentHashMap<>();
    /** Outside a cluster, the only one: no lookup on every decision. */
    private final GuardedNode single;

    /**
     * @param pendingDecisions a node's pending decisions, given when it last answered
     * @param standaloneLastReply when Redis last answered anything (outside a cluster, every reply counts)
     */
    GuardedNodes(RedisTopology cluster, BreakerFactory breakers,
            Function<LongSupplier, PendingDecisions> pendingDecisions, LongSupplier standaloneLastReply,
            LongSupplier nanoClock, Consumer<CircuitBreakerTransition> listener) {
        this.cluster = cluster;
        this.nanoClock = nanoClock;
        this.breakers = breakers;
        this.pendingDecisions = pendingDecisions;
        this.listener = listener;
        this.single = cluster.cluster() ? null
                : byName.computeIfAbsent(RedisTopology.UNKNOWN, name -> new GuardedNode(null,
                        breakers.create(listener), pendingDecisions, standaloneLastReply, nanoClock.getAsLong()));
    }

    /** The node that decides for {@code key}. */
    GuardedNode forKey(String key) {
        return single != null ? single : node(cluster.nodeOf(key));
    }

    private GuardedNode node(String name) {
        GuardedNode node = byName.get(name);
        return node != null ? node : byName.computeIfAbsent(name, this::create);
    }

    private GuardedNode create(String name) {
        return new GuardedNode(name, breakers.create(transition -> listener.accept(transition.of(name))),
                pendingDecisions, null, nanoClock.getAsLong() + SETTLE_NANOS);
    }

    /** Gives up on every node's decisions that waited too long. */
    void sweep() {
        for (GuardedNode node : byName.values()) {
            node.pending.sweep();
        }
    }

    /**
     * Whether the node's breaker tells anything about Redis now. A dead master whose slots a replica took over keeps
     * its node (a few per failover), and its breaker stays open for ever, as no call reaches it to close it: such a
     * node is left out of the states.
     */
    private boolean deciding(GuardedNode node) {
        return single != null || cluster.decides(node.name);
    }

    /** The worst state of any breaker: OPEN if any node's is open, else HALF_OPEN if any probes, else CLOSED. */
    State worst() {
        State worst = State.CLOSED;
        for (GuardedNode node : byName.values()) {
            if (!deciding(node)) {
                continue;
            }
            State state = node.breaker.state();
            if (state == State.OPEN) {
                return State.OPEN;
            }
            if (state == State.HALF_OPEN) {
                worst = State.HALF_OPEN;
            }
        }
        return worst;
    }

    /** When the first open breaker tries Redis again; one second when none is open. */
    Duration retryAfter() {
        Duration soonest = null;
        for (GuardedNode node : byName.values()) {
            if (deciding(node) && node.breaker.state() == State.OPEN
                    && (soonest == null || node.breaker.retryAfter().compareTo(soonest) < 0)) {
                soonest = node.breaker.retryAfter();
            }
        }
        return soonest == null ? Duration.ofSeconds(1) : soonest;
    }

    /**
     * In a cluster, each master's breaker state by node name (for the readiness check and the Dev UI); empty outside
     * one, where {@link #worst} is the one breaker's state.
     */
    Map<String, State> states() {
        Map<String, State> states = new TreeMap<>();
        if (single != null) {
            return states;
        }
        byName.forEach((name, node) -> {
            if (deciding(node)) {
                states.put(name, node.breaker.state());
            }
        });
        return states;
    }
}
