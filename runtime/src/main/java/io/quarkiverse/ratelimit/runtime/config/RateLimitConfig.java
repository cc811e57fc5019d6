package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigDocSection;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Run-time configuration of the rate limiter. */
@ConfigMapping(prefix = "quarkus.rate-limit")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RateLimitConfig {

    /**
     * The prefix of every Redis key the rate limiter writes: the prefix, then the tenant in braces (the hash tag that
     * keeps a tenant's keys in one Redis Cluster slot), the limit's name and the algorithm, separated by colons. At
     * most 64 characters, without whitespace or braces (they would break that hash tag). Change it to run several
     * applications on one Redis without sharing counters.
     */
    @WithDefault("rate-limit")
    String keyPrefix();

    /** How the tenant of a call (whose counter it uses) is found. */
    Tenant tenant();

    /** How the client address of a call is found (for {@code CLIENT_ADDRESS} limits and tenant fallbacks). */
    ClientAddress clientAddress();

    /**
     * Named policies, used by {@code @RateLimited(policy = "<name>")}: each value set here overrides the annotation's.
     */
    @ConfigDocMapKey("policy")
    @ConfigDocSection
    Map<String, Policy> policies();

    /**
     * What start-up does with a configured policy that no {@code @RateLimited(policy = ...)} uses, most often a misspelt
     * name, which leaves the limit it was meant to change at its annotation's values: {@code fail} names the property
     * and the closest policy in use; {@code warn} logs the same and starts, for configuration that several applications
     * share, each using some of its policies.
     */
    @WithDefault("fail")
    UnusedPolicies unusedPolicies();

    /** {@link #unusedPolicies()}. */
    enum UnusedPolicies {
        FAIL,
        WARN
    }

    /**
     * Plans: {@code plans.<plan>.<policy>.limit} (and {@code window}, {@code burst}) give the tenants on
     * {@code <plan>} their own values of a policy. A tenant without a plan, or whose plan does not mention a policy,
     * gets the policy's values.
     */
    @ConfigDocMapKey("plan")
    Map<String, Map<String, PlanLimit>> plans();

    /** Per-tenant settings, by tenant id (quote ids that contain dots: {@code tenants."acme.com".plan}). */
    @ConfigDocMapKey("tenant")
    Map<String, TenantSettings> tenants();

    /**
     * Tenants that no limit counts (internal services): their calls skip the limiter entirely, and get no rate-limit
     * headers.
     */
    Optional<Set<String>> exemptTenants();

    /** Tenants whose every limited call is refused with {@code 403 Forbidden}, without consulting Redis. */
    Optional<Set<String>> blockedTenants();

    /** Who may use the administration endpoints ({@code quarkus.rate-limit.admin.enabled}). */
    AdminAccess admin();

    /** Tenants' run-time limits ({@code RateLimitAdmin}). */
    RunTimeLimitsSync runTimeLimits();

    interface RunTimeLimitsSync {

        /**
         * How often each instance checks Redis for changed run-time limits (one {@code GET} of a version counter; the
         * limits are reloaded only when it moved): the most time a change takes to apply on every instance.
         */
        @WithDefault("1s")
        Duration refreshInterval();
    }

    interface AdminAccess {

        /** The role an authenticated identity needs to call the administration endpoints. */
        @WithDefault("rate-limit-admin")
        String role();
    }

    /**
     * How long Redis may stay silent before a waiting decision gives up on it and the limit's failure mode decides
     * instead. It is the point at which the limiter concludes that Redis is broken, not the normal latency of a
     * decision (well under a millisecond). A decision that waits longer while Redis keeps answering other calls is not
     * failed over: Redis works, this instance is busy (see {@code busy-timeout}). Only the calls in flight when Redis
     * breaks pay it: after {@code circuit-breaker.failure-threshold} failures no call waits on Redis at all.
     */
    @WithDefault("1s")
    Duration decisionTimeout();

    /**
     * How late a call that waited for a later slot ({@code maxWait}) may still go. A call whose turn comes later than
     * this after its slot (a stalled event loop, a long garbage collection) does not go late, which would bunch calls
     * at the service the limit protects; it takes the next free slot instead, in Redis, or is refused when that lies
     * beyond its {@code maxWait}. Its late slot is lost: nobody used it.
     */
    @WithDefault("10ms")
    Duration lateSlotTolerance();

    /**
     * How long a reservation ({@code RateLimiter.reserve}) can still be settled at its real cost: a settlement that
     * comes later (a call that hung) changes nothing, and the reservation counts at its estimate, as one whose instance
     * stopped before it settled.
     */
    @WithDefault("10m")
    Duration reservationLease();

    /** How adaptive limits ({@code @RateLimited(adaptive = true)}) learn the quota a service really grants. */
    Adaptive adaptive();

    /**
     * The time zone of calendar periods ({@code @RateLimited(period = CalendarPeriod.DAY)}) whose annotation or policy
     * names none: an IANA name such as {@code Europe/Berlin}, or {@code UTC}.
     */
    @WithDefault("UTC")
    String timeZone();

    /**
     * How long a decision may wait while Redis keeps answering other calls: a saturated instance (a cold JVM taking a
     * burst of hundreds of requests on two cores) can take seconds to process replies that Redis sent in
     * microseconds, and those calls are decided exactly by Redis rather than failed over. Beyond it the failure mode
     * decides.
     */
    @WithDefault("10s")
    Duration busyTimeout();

    /**
     * What a limit does when Redis cannot decide (down, paused, timing out, or the circuit breaker is open), unless
     * its annotation sets {@code failureMode}: {@code local} (this instance's in-process limiter), {@code fail-open}
     * (admit) or {@code fail-closed} (refuse with 503). The value {@code default} is what an annotation says to mean
     * "as configured here"; configured here, it fails start-up.
     */
    @WithDefault("local")
    FailureMode failureMode();

    /**
     * How many long-lived connections carry the decisions, each pipelining every decision sent on it; by default one on
     * each Vert.x event loop ({@code quarkus.vertx.event-loops-pool-size}). Each connection lives on an event loop, and
     * a decision asked for on an event loop travels on the connection that lives there, so its request, its reply and
     * what follows run on one thread; other threads (workers, blocking callers) always use the same one each. Fewer
     * connections than event loops leave some event loops handing their decisions to another. The rate limiter's other
     * commands (administration, the start-up load, the readiness PING) travel on them too; a connection whose queue of
     * unanswered requests is full ({@code quarkus.redis.max-waiting-handlers}) sends the call through the client's pool
     * instead.
     */
    OptionalInt pipelinedConnections();

    /**
     * The most decisions one Redis call carries. The decisions an event loop asks for in one turn (the requests it read
     * together, the calls a batch's replies let go on) go to Redis together, in one call, at the end of the turn: each
     * decided exactly as alone, Redis running one command for many. There is no timer: a lone decision goes alone.
     * {@code 1} sends every decision alone. Decisions asked for off the event loop (blocking callers) queue for one
     * event loop and go together the same way. Batches need the function library (Redis 7); in a cluster a batch holds
     * the decisions of one master; durable decisions go alone.
     */
    @WithDefault("64")
    int maxDecisionsPerCall();

    /**
     * Shares of a limit, in percent from 1 to 100 (for example {@code 80,90,100}), at which a
     * {@code QuotaThresholdReached} CDI event is fired (asynchronously: observe it with {@code @ObservesAsync}) and
     * {@code rate_limit_thresholds_reached_total} counts: when a call takes a tenant's use of a limit to that share,
     * once per threshold, limit, tenant and period (the limit's window, aligned to the epoch) across every instance,
     * which one marker key in Redis per crossing ensures. None when not set.
     */
    Optional<List<Integer>> thresholds();

    /** The circuit breaker that stops calling Redis after repeated failures. */
    CircuitBreaker circuitBreaker();

    /** The in-process limiter used by the {@code local} failure mode. */
    LocalFallback localFallback();

    /**
     * The refusal cache: when Redis refuses a call until a known time, this instance refuses further calls of the same
     * tenant and limit (at the same or a higher cost) until then without asking Redis. It never admits.
     */
    RefusalCache refusalCache();

    /**
     * Durable decisions: a call is admitted only once a replica has acknowledged the write (Redis {@code WAIT}), so a
     * failover to that replica cannot lose it. Off by default: Redis replicates asynchronously, and a failover may then
     * forget the last counts the old master took (the failure-modes page has the measurements).
     */
    Durable durable();

    /**
     * Whether limits are enforced, only recorded (shadow: decided and counted on Redis, but a refused call proceeds),
     * or skipped ({@code off}: no Redis call). {@code quarkus.rate-limit.limits."<name>".mode} sets it per policy or
     * limit name.
     */
    @WithDefault("enforce")
    Mode mode();

    /** Enforcing a limit for a share of the tenants, the others in shadow mode. */
    Rollout rollout();

    /** The headers that tell a client the state of the limits of its call. */
    Headers headers();

    interface Headers {

        /**
         * Whether responses of limited calls, admitted or refused, carry the state of their limits. A refusal's
         * {@code Retry-After} is sent either way.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Their names: {@code ietf}, the {@code RateLimit} and {@code RateLimit-Policy} structured fields of the IETF
         * draft, one item per limit of the call; or {@code x-rate-limit}, {@code X-RateLimit-Limit},
         * {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (seconds until the limit is whole again) of the
         * call's limit with the least left, as many APIs name them.
         */
        @WithDefault("ietf")
        HeaderStyle style();
    }

    /** How the state of a call's limits is written in its response's headers. */
    enum HeaderStyle {
        /** {@code RateLimit} and {@code RateLimit-Policy} (draft-ietf-httpapi-ratelimit-headers). */
        IETF,
        /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
        X_RATE_LIMIT
    }

    interface Rollout {

        /**
         * The share of tenants (0 to 100) for whom limits in {@code enforce} mode are enforced; the others run in
         * shadow mode. A tenant is in the share when a hash of its id, salted with {@code rollout.salt}, falls under
         * it: the same tenants on every instance and after restarts, and raising the share only adds tenants. Limits
         * without a tenant (global, per client address) are enforced only at 100.
         */
        @WithDefault("100")
        int percentage();

        /** Salts the tenants' hash: a new salt picks a new set of tenants for the same percentage. */
        @WithDefault("rate-limit")
        String salt();

        /** Tenants whose limits are enforced whatever the percentage (unless the limit is in shadow or off mode). */
        Optional<Set<String>> always();

        /** Tenants whose limits run in shadow mode whatever the percentage. */
        Optional<Set<String>> never();

        /**
         * Whether responses carry the {@code RateLimit} and {@code RateLimit-Policy} headers of limits in shadow mode.
         * Off by default: clients should not see limits that are not enforced.
         */
        @WithDefault("false")
        boolean shadowHeaders();
    }

    /** Mode and rollout of one policy, or of one limit by its name (a limit without a policy). */
    @ConfigDocMapKey("policy-or-limit-name")
    Map<String, LimitRollout> limits();

    interface LimitRollout {

        /** This limit's mode; the global {@code quarkus.rate-limit.mode} when not set. */
        Optional<Mode> mode();

        /** This limit's share of enforced tenants (0 to 100); the global {@code rollout.percentage} when not set. */
        OptionalInt rolloutPercentage();
    }

    /** The Micrometer metrics (active when the application has quarkus-micrometer). */
    Metrics metrics();

    interface Metrics {

        /**
         * Whether the rate limiter publishes its metrics ({@code rate_limit.*}) to the application's Micrometer
         * registry. Without quarkus-micrometer there are none, whatever this says.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * An admitted call that leaves less than this share of its limit counts in {@code rate_limit.near_limit}: a
         * tenant close to being refused. Between 0 and 1.
         */
        @WithDefault("0.2")
        double nearLimitRatio();

        /**
         * Whether {@code rate_limit.decisions} and {@code rate_limit.near_limit} carry a {@code tenant} tag. Off by
         * default: every tenant is a time series. When on, the first {@code max-tenants} tenants seen get their own
         * value and every later one counts as {@code other}; calls without a tenant count as {@code none}.
         */
        @WithDefault("false")
        boolean tenantTag();

        /** The most distinct {@code tenant} tag values ({@code tenant-tag=true}); beyond it, {@code other}. */
        @WithDefault("100")
        int maxTenants();
    }

    /** The readiness check {@code rate-limit} (active when the application has quarkus-smallrye-health). */
    Health health();

    interface Health {

        /**
         * Whether the readiness check reports DOWN while Redis does not answer a PING within {@code decision-timeout}
         * (an open circuit breaker alone never makes it DOWN: only calls probe the breaker). Off by default: while Redis is
         * down every limit is still decided by its failure mode, and taking
         * every instance out of rotation would turn a Redis outage into a total one. Turn it on when a fail-closed
         * instance is better out of rotation, say behind a load balancer that has somewhere else to send the calls.
         */
        @WithDefault("false")
        boolean strict();
    }

    interface Durable {

        /**
         * How many replicas must acknowledge a decision's write before it counts; 0 turns durable decisions off. Each
         * decision is followed by a {@code WAIT} on its connection; a decision not acknowledged in time is decided by
         * the limit's failure mode, as when Redis cannot answer. Standalone with replicas, or Sentinel: a cluster
         * cannot route {@code WAIT} to the decision's master, and start-up refuses it.
         */
        @WithDefault("0")
        int replicas();

        /** How long a decision waits for the replicas' acknowledgement; less than {@code decision-timeout}. */
        @WithDefault("100ms")
        Duration timeout();
    }

    interface RefusalCache {

        /** Whether refusals are cached; a limit can opt out with {@code @RateLimited(cacheRefusals = false)}. */
        @WithDefault("true")
        boolean enabled();

        /** The most refusals held (tenant and limit pairs); beyond it the least recently used are dropped. */
        @WithDefault("10000")
        int maxEntries();

        /**
         * How long cached refusals keep answering when this instance cannot confirm that it hears invalidations.
         * Every change that can turn a refusal into an admission (a refund, a reset, a run-time limit, an unblock, a
         * switch), made on any instance, is published on a Redis channel every instance subscribes to, and clears the
         * matching refusals everywhere within milliseconds. The subscription is checked four times within this time;
         * when it is down or silent for longer, refusals are no longer answered locally (every call goes to Redis)
         * until it is back. So a change missed by an instance ends its cached refusals within this time at most.
         */
        @WithDefault("1s")
        Duration unconfirmedLifetime();
    }

    interface CircuitBreaker {

        /**
         * How many Redis failures or timeouts in a row open the breaker. While open, no decision waits on Redis: every
         * limit uses its failure mode at once.
         */
        @WithDefault("3")
        int failureThreshold();

        /**
         * How long the breaker stays open before one call probes Redis again; the probe's success closes it. Short, so
         * that exact limiting resumes soon after Redis does; each probe of a still-broken Redis costs one request at
         * most one decision timeout.
         */
        @WithDefault("10s")
        Duration openDuration();
    }

    interface LocalFallback {

        /**
         * How many instances share the limits. While Redis is unavailable each instance allows
         * {@code limit / expected-instances}, rounded down and at least 1, per window: the fleet stays at or under a
         * limit of at least this many, and allows one a window per instance for a smaller one.
         */
        @WithDefault("1")
        int expectedInstances();

        /**
         * The most tenant-and-limit counters one instance keeps; beyond it, the least recently used are dropped (and
         * start again from zero). Counters expire two windows after their last use.
         */
        @WithDefault("100000")
        int maxEntries();
    }

    interface Tenant {

        /**
         * Where the tenant of a limit comes from, unless its annotation or policy says otherwise: {@code header},
         * {@code principal}, {@code jwt-claim}, {@code path-parameter} or {@code resolver}. When not set: the header if
         * {@code tenant.header} is set, else the principal, with anonymous calls counted per client address. The
         * value {@code default} is what an annotation says to mean "as configured here"; configured, it fails start-up.
         */
        Optional<TenantSource> source();

        /**
         * The request header that names the tenant, for example {@code X-Tenant-Id}, for the {@code header} source.
         * Setting it makes {@code header} the default source.
         * <p>
         * Tenant values are untrusted: they are escaped, and hashed when longer than 64 characters, before they
         * become part of a Redis key.
         */
        Optional<String> header();

        /** The JSON Web Token claim that names the tenant, for the {@code jwt-claim} source. */
        @WithDefault("tenant")
        String claim();

        /**
         * The method parameter that names the tenant, for the {@code path-parameter} source: a {@code @PathParam}
         * or {@code @RestPath} name, or the Java parameter name. Every method with a limit using this source must have
         * it (checked at start-up).
         */
        @WithDefault("tenant")
        String pathParameter();

        /**
         * What a limit does with a call whose source finds no tenant: {@code reject}, {@code anonymous} (one shared
         * bucket) or {@code client-address} (a bucket per client address). When not set: {@code client-address} if
         * neither {@code tenant.source} nor {@code tenant.header} is set (the zero-configuration behaviour), else
         * {@code reject}.
         */
        Optional<MissingTenant> missing();

        /**
         * The status of a call rejected for having no tenant; when not set, 401 for the {@code principal} and
         * {@code jwt-claim} sources and 400 for the others.
         */
        OptionalInt missingStatus();
    }

    /**
     * An adaptive limit's learned value: lowered multiplicatively by each 429 of the service (but for a call decided
     * before the last decrease: in flight or queued at the old rate, it gets the same answer), held for a while, then raised
     * additively up to where the
     * service last refused, and beyond it in steps that double, up to the configured limit. Fleet-wide, in Redis.
     */
    interface Adaptive {

        /** What a 429 multiplies the learned limit by, above 0 and below 1. */
        @WithDefault("0.9")
        double decreaseFactor();

        /**
         * How long the learned limit holds after a 429 before it grows, and then how often it grows. A 429 once it
         * grows doubles the next hold, up to {@code longest-hold}: a fleet that has found the service's quota tries
         * more less and less often.
         */
        @WithDefault("5s")
        Duration increaseInterval();

        /**
         * The step the learned limit grows by, as a share of the configured limit; beyond where the service last
         * refused, each next step doubles.
         */
        @WithDefault("0.02")
        double increaseStep();

        /**
         * The longest hold after a 429 (see {@code increase-interval}); a 429 after the limit grew this long without
         * one starts the hold at one interval again.
         */
        @WithDefault("5m")
        Duration longestHold();
    }

    interface ClientAddress {

        /**
         * The proxies (IP addresses or CIDR ranges, such as {@code 10.0.0.0/8} or {@code fd00::/8}) whose
         * {@code Forwarded} and {@code X-Forwarded-For} headers are believed. The client address is the connection's
         * peer unless the peer is one of these; then it is the nearest address in the forwarding chain that is not
         * one of these. Empty by default: no header is believed, so no client can choose its own bucket. Independent
         * of {@code quarkus.http.proxy.*}.
         */
        Optional<List<String>> trustedProxies();

        /**
         * IPv6 clients are counted per network of this prefix length: one subscriber usually holds a whole /64 and
         * could otherwise take a fresh bucket per address. 128 counts every address alone.
         */
        @WithDefault("64")
        int ipv6PrefixLength();
    }

    /** One named policy; every value is optional and, when set, overrides the annotation's. */
    interface Policy {

        /** How many units are allowed per window. */
        OptionalLong limit();

        /** The window length ({@code 1m}, {@code 10s}, {@code PT1H}). */
        Optional<Duration> window();

        /** How calls are counted. */
        Optional<Algorithm> algorithm();

        /** Units allowed at once (token bucket and GCRA). */
        OptionalLong burst();

        /** Units one call consumes. */
        OptionalLong cost();

        /**
         * How long a call may wait for a later slot instead of being refused ({@code 0}: it may not); token bucket and
         * GCRA only (see {@code @RateLimited(maxWait)}).
         */
        Optional<Duration> maxWait();

        /**
         * How late a call that waited for its slot may still go (see {@code quarkus.rate-limit.late-slot-tolerance} and
         * {@code @RateLimited(lateSlotTolerance)}).
         */
        Optional<Duration> lateSlotTolerance();

        /**
         * Whether the limit learns the real quota of the service a REST Client calls from its 429 answers (see
         * {@code @RateLimited(adaptive)} and {@code quarkus.rate-limit.adaptive}); only for REST Client methods.
         */
        Optional<Boolean> adaptive();

        /** The time zone of this policy's calendar periods (see {@code quarkus.rate-limit.time-zone}). */
        Optional<String> timeZone();

        /** Whose calls one counter counts: {@code tenant}, {@code client-address} or {@code global}. */
        Optional<Scope> scope();

        /**
         * What the limit does when Redis cannot decide: {@code local}, {@code fail-open} or {@code fail-closed} (see
         * {@code quarkus.rate-limit.failure-mode}; {@code default} fails start-up).
         */
        Optional<FailureMode> failureMode();

        /** Where the tenant comes from, and what happens without one. */
        PolicyTenant tenant();
    }

    interface PolicyTenant {

        /**
         * Where the tenant of this policy's limits comes from (see {@code quarkus.rate-limit.tenant.source};
         * {@code default} fails start-up).
         */
        Optional<TenantSource> source();

        /** What this policy's limits do without a tenant (see {@code quarkus.rate-limit.tenant.missing}). */
        Optional<MissingTenant> missing();

        /** The status of a call rejected for having no tenant (see {@code quarkus.rate-limit.tenant.missing-status}). */
        OptionalInt missingStatus();
    }

    /** A plan's values of one policy. */
    interface PlanLimit {

        /** How many units the plan's tenants are allowed per window. */
        OptionalLong limit();

        /** The window length for the plan's tenants. */
        Optional<Duration> window();

        /** Units allowed at once for the plan's tenants (token bucket and GCRA). */
        OptionalLong burst();
    }

    interface TenantSettings {

        /** The tenant's plan (a key of {@code quarkus.rate-limit.plans}). */
        Optional<String> plan();
    }
}
