package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Mode;
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
    TenantConfig tenant();

    /** How the client address of a call is found (for {@code CLIENT_ADDRESS} limits and tenant fallbacks). */
    ClientAddressConfig clientAddress();

    /**
     * Named policies, used by {@code @RateLimited(policy = "<name>")}: each value set here overrides the annotation's.
     */
    @ConfigDocMapKey("policy")
    @ConfigDocSection
    Map<String, PolicyConfig> policies();

    /**
     * What start-up does with a configured policy that no {@code @RateLimited(policy = ...)} uses, most often a misspelt
     * name, which leaves the limit it was meant to change at its annotation's values: {@code fail} names the property
     * and the closest policy in use; {@code warn} logs the same and starts, for configuration that several applications
     * share, each using some of its policies.
     */
    @WithDefault("fail")
    UnusedPolicies unusedPolicies();

    /**
     * Plans: {@code plans.<plan>.<policy>.limit} (and {@code window}, {@code burst}, {@code failure-mode}) give the tenants on
     * {@code <plan>} their own values of a policy. A tenant without a plan, or whose plan does not mention a policy,
     * gets the policy's values.
     */
    @ConfigDocMapKey("plan")
    Map<String, Map<String, PlanLimitConfig>> plans();

    /** Per-tenant settings, by tenant id (quote ids that contain dots: {@code tenants."acme.com".plan}). */
    @ConfigDocMapKey("tenant")
    Map<String, TenantSettingsConfig> tenants();

    /**
     * Tenants that no limit counts (internal services): their calls skip the limiter entirely, and get no rate-limit
     * headers.
     */
    Optional<Set<String>> exemptTenants();

    /** Tenants whose every limited call is refused with {@code 403 Forbidden}, without consulting Redis. */
    Optional<Set<String>> blockedTenants();

    /** Who may use the administration endpoints ({@code quarkus.rate-limit.admin.enabled}). */
    AdminAccessConfig admin();

    /** The usage endpoint's own limit ({@code quarkus.rate-limit.usage.enabled}). */
    UsageConfig usage();

    /** Tenants' run-time limits ({@code RateLimitAdmin}). */
    RunTimeLimitsSyncConfig runTimeLimits();

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
    AdaptiveConfig adaptive();

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
    CircuitBreakerConfig circuitBreaker();

    /** The in-process limiter used by the {@code local} failure mode. */
    LocalFallbackConfig localFallback();

    /** The instances that share the limits: each announces itself in Redis, and every one knows how many are live. */
    FleetConfig fleet();

    /**
     * Leases: a busy limit decided inside the instance, from a slice of what is left that Redis counted at once, never
     * one call over the limit.
     */
    LeaseConfig leases();

    /**
     * The refusal cache: when Redis refuses a call until a known time, this instance refuses further calls of the same
     * tenant and limit (at the same or a higher cost) until then without asking Redis. It never admits.
     */
    RefusalCacheConfig refusalCache();

    /**
     * Durable decisions: a call is admitted only once a replica has acknowledged the write (Redis {@code WAIT}), so a
     * failover to that replica cannot lose it. Off by default: Redis replicates asynchronously, and a failover may then
     * forget the last counts the old master took (the failure-modes page has the measurements).
     */
    DurableConfig durable();

    /**
     * Whether limits are enforced, only recorded (shadow: decided and counted on Redis, but a refused call proceeds),
     * or skipped ({@code off}: no Redis call). {@code quarkus.rate-limit.limits."<name>".mode} sets it per policy or
     * limit name.
     */
    @WithDefault("enforce")
    Mode mode();

    /** Enforcing a limit for a share of the tenants, the others in shadow mode. */
    RolloutConfig rollout();

    /** The headers that tell a client the state of the limits of its call. */
    HeadersConfig headers();

    /** Mode and rollout of one policy, or of one limit by its name (a limit without a policy). */
    @ConfigDocMapKey("policy-or-limit-name")
    Map<String, LimitRolloutConfig> limits();

    /** The Micrometer metrics (active when the application has quarkus-micrometer). */
    MetricsConfig metrics();

    /** The readiness check {@code rate-limit} (active when the application has quarkus-smallrye-health). */
    HealthConfig health();

}
