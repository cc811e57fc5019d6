package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface LeaseConfig {

    /**
     * Whether an instance leases slices of a busy limit: for a key whose calls come fast, it reserves a slice of what is
     * left in Redis with one call's decision, counted in Redis at once, and admits the next calls from it without a
     * round trip. The fleet never admits more than the limit; what leasing costs is capacity held in slices nobody
     * spends, at most the instances' slices, given back when a lease ends. Leases apply to calls of one limit that do
     * not wait for a slot, of every algorithm but the sliding window log; near the limit the slices are recalled, and a
     * call Redis refuses meanwhile waits for them. A key called more slowly than {@code min-slice} per {@code duration} on
     * an instance (32 a second at the defaults), and a limit of fewer than twice {@code min-slice} calls, never lease:
     * their calls are decided in Redis one by one, as with leases off.
     * <p>
     * Off by default. Behind a Redis Cluster ({@code client-type=cluster}), a lease's decision reads two keys of one
     * slot, and while a slot migrates between masters a node that holds one of them and not the other cannot run it, so
     * the calls it would decide go to their failure modes: turn leases on only behind a cluster that is not resharded
     * under load.
     */
    @WithDefault("false")
    boolean enabled();

    /**
     * The longest a lease lasts (it ends with its window at the latest); what it left unused is then given back. A
     * change that revokes leases (a reset, a run-time limit, a plan change) reaches a lease no later than this, even
     * when its announcement is missed.
     */
    @WithDefault("250ms")
    Duration duration();

    /**
     * The smallest slice worth a lease, in calls (a slice holds at least this many times the call's cost: the round
     * trips it saves): a key's calls on this instance must come at least this many per lease duration (at the default,
     * 32 a second) before it takes one, and none is taken once what is left over twice the live instances is smaller.
     * A limit whose calls come slower, or whose limit holds few calls, is decided in Redis call by call, exactly as
     * without leases.
     */
    @WithDefault("8")
    int minSlice();

    /**
     * Limits that never lease, by name: an annotation's limit ({@code name}, or {@code Class.method}), a policy, a
     * limit made in code ({@code RateLimit.of}). Their calls are decided in Redis one by one, as without leases.
     */
    Optional<Set<String>> excluded();
}
