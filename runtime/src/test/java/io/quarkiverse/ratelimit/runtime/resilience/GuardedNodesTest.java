package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.runtime.redis.RedisTopology;

/**
 * The guard's bookkeeping per Redis node, on a topology given by hand (which master owns which key): one node outside
 * a cluster; in a cluster one breaker per master, a settling period for a master first seen, and masters that no
 * longer own slots left out of the state.
 */
class GuardedNodesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final RuntimeException FAILURE = new RuntimeException("Connection is closed");

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final List<CircuitBreakerTransition> transitions = new ArrayList<>();

    /** A cluster whose slot owners the test sets: key to master. */
    private static final class Topology implements RedisTopology {

        final boolean cluster;
        final Map<String, String> owners = new ConcurrentHashMap<>();

        Topology(boolean cluster) {
            this.cluster = cluster;
        }

        @Override
        public boolean cluster() {
            return cluster;
        }

        @Override
        public String nodeOf(String key) {
            return cluster ? owners.getOrDefault(key, UNKNOWN) : UNKNOWN;
        }

        @Override
        public boolean decides(String node) {
            return cluster ? owners.containsValue(node) : UNKNOWN.equals(node);
        }
    }

    private GuardedNodes nodes(Topology topology) {
        return new GuardedNodes(topology,
                listener -> new CircuitBreaker(3, Duration.ofSeconds(10), now::get, listener),
                lastReply -> new PendingDecisions(SECOND, 10 * SECOND, now::get, lastReply, () -> {
                }),
                now::get, now::get, transitions::add);
    }

    @Test
    void outsideAClusterEveryKeyHasTheOneNodeWhoseFailuresCountAtOnce() {
        GuardedNodes nodes = nodes(new Topology(false));
        GuardedNode node = nodes.forKey("{acme}:search");

        assertThat(nodes.forKey("{globex}:export")).isSameAs(node);
        assertThat(node.name).isNull();
        assertThat(node.counts(now.get())).isTrue();
        failThrice(node);
        assertThat(nodes.worst()).isEqualTo(State.OPEN);
        assertThat(nodes.states()).as("no states by node: the readiness check and the Dev UI show the one").isEmpty();
        assertThat(transitions).singleElement().extracting(CircuitBreakerTransition::node).isNull();
    }

    @Test
    void inAClusterOneMastersFailuresOpenOnlyItsOwnBreaker() {
        Topology topology = new Topology(true);
        topology.owners.put("{acme}", "10.0.0.1:6379");
        topology.owners.put("{globex}", "10.0.0.2:6379");
        GuardedNodes nodes = nodes(topology);
        GuardedNode failing = nodes.forKey("{acme}");
        GuardedNode healthy = nodes.forKey("{globex}");
        now.addAndGet(GuardedNodes.SETTLE_NANOS);

        failThrice(failing);

        assertThat(failing.breaker.state()).isEqualTo(State.OPEN);
        assertThat(healthy.breaker.state()).isEqualTo(State.CLOSED);
        assertThat(healthy.breaker.tryAcquirePermission()).isTrue();
        assertThat(nodes.worst()).isEqualTo(State.OPEN);
        assertThat(nodes.states()).containsExactlyInAnyOrderEntriesOf(
                Map.of("10.0.0.1:6379", State.OPEN, "10.0.0.2:6379", State.CLOSED));
        assertThat(transitions).singleElement().extracting(CircuitBreakerTransition::node)
                .isEqualTo("10.0.0.1:6379");
    }

    @Test
    void aMasterFirstSeenSettlesBeforeItsFailuresCount() {
        Topology topology = new Topology(true);
        topology.owners.put("{acme}", "10.0.0.3:6379");
        GuardedNode promoted = nodes(topology).forKey("{acme}");

        assertThat(promoted.counts(now.get())).as("just took over: the client may still route to the old master")
                .isFalse();
        now.addAndGet(GuardedNodes.SETTLE_NANOS);
        assertThat(promoted.counts(now.get())).isTrue();
    }

    @Test
    void aMasterThatNoLongerOwnsSlotsIsLeftOutOfTheState() {
        Topology topology = new Topology(true);
        topology.owners.put("{acme}", "10.0.0.1:6379");
        GuardedNodes nodes = nodes(topology);
        GuardedNode dead = nodes.forKey("{acme}");
        now.addAndGet(GuardedNodes.SETTLE_NANOS);
        failThrice(dead);
        assertThat(nodes.worst()).isEqualTo(State.OPEN);

        topology.owners.put("{acme}", "10.0.0.4:6379"); // its replica took the slots over

        assertThat(nodes.forKey("{acme}")).isNotSameAs(dead);
        assertThat(nodes.worst()).as("no call reaches the dead master to close its breaker").isEqualTo(State.CLOSED);
        assertThat(nodes.states()).containsOnlyKeys("10.0.0.4:6379");
    }

    private static void failThrice(GuardedNode node) {
        for (int i = 0; i < 3; i++) {
            node.breaker.onFailure(FAILURE);
        }
    }
}
