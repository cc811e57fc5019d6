package io.quarkiverse.ratelimit;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * Limits how often the annotated method may be called, per tenant, across every instance of the application that
 * shares the Redis server.
 * <p>
 *
 * <pre>
 * &#64;GET
 * &#64;RateLimited(limit = 100, window = "1m")
 * public String search() { ... }
 * </pre>
 * <p>
 * On a class, the limit applies to each business method declared by that class; an annotation on a method replaces
 * the class's. Repeat the annotation to apply several limits to one method (for example 10 per second and 1000 per
 * hour): a call is admitted only when every limit admits it, and then it counts in every one; a call refused by one
 * limit consumes nothing from the others (all limits of a call are decided in one atomic Redis script).
 * <p>
 * A refused call does not reach the method: it fails with {@link RateLimitExceededException}, which Quarkus REST turns
 * into {@code 429 Too Many Requests} with {@code Retry-After}, {@code RateLimit-Policy} and {@code RateLimit} headers and
 * an {@code application/problem+json} body. The annotation values are read and validated at build time: an invalid
 * limit, window or algorithm fails the build.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({ METHOD, TYPE })
@Repeatable(RateLimited.List.class)
public @interface RateLimited {

    /**
     * How many calls one tenant may make per {@link #window()}; greater than zero. Required unless {@link #policy()}
     * names a policy whose configuration sets it.
     */
    @Nonbinding
    long limit() default 0;

    /**
     * The window length, in Quarkus duration syntax: {@code 500ms}, {@code 10s}, {@code 1m}, {@code 1h}, {@code 1d},
     * or ISO-8601 ({@code PT1M}). A plain number means seconds. Required unless {@link #policy()} names a policy whose
     * configuration sets it.
     */
    @Nonbinding
    String window() default "";

    /**
     * A named policy: {@code quarkus.rate-limit.policies.<policy>.*} (limit, window, algorithm, burst, cost, scope,
     * failure-mode, tenant source) override the values of this annotation at start-up, so operations can change them
     * without a rebuild, and {@code quarkus.rate-limit.plans.<plan>.<policy>.*} give each plan its own. Letters,
     * digits, {@code .}, {@code _} and {@code -}. Using a policy does not share a counter: the limit keeps its
     * {@link #name()}.
     */
    @Nonbinding
    String policy() default "";

    /** Where the tenant of this limit comes from, when its scope is {@link Scope#TENANT}. */
    @Nonbinding
    TenantSource tenant() default TenantSource.DEFAULT;

    /**
     * Count each HTTP method and path template separately ({@code POST /carriers/{carrier}/labels}, never the raw
     * path): for a limit declared on a class or shared by name across endpoints.
     */
    @Nonbinding
    boolean perEndpoint() default false;

    /**
     * Method parameters whose values split the counter: with {@code perParameter = "carrier"} each carrier has its own
     * counter per tenant. A name is a {@code @PathParam}, {@code @QueryParam}, {@code @HeaderParam} (or
     * {@code @Rest*}) name, or the Java parameter name. Values are untrusted: escaped, and hashed when long.
     */
    @Nonbinding
    String[] perParameter() default {};

    /**
     * A calendar period instead of a {@link #window()}: {@code @RateLimited(limit = 50_000, period = CalendarPeriod.DAY)}
     * allows 50,000 calls a day, whole again at midnight in the {@link #timeZone()}, as contracts and carrier quotas
     * are written ({@link Algorithm#CALENDAR_WINDOW}, implied: leave {@link #algorithm()} out). {@code Retry-After} and
     * {@code RateLimit} count to the period's real end, across daylight-saving changes and months of any length.
     */
    @Nonbinding
    CalendarPeriod period() default CalendarPeriod.NONE;

    /**
     * The time zone of the calendar {@link #period()}, an IANA name ({@code Europe/Berlin}, {@code America/New_York})
     * or {@code UTC}; empty: {@code quarkus.rate-limit.time-zone} (UTC unless configured).
     */
    @Nonbinding
    String timeZone() default "";

    /**
     * The day a calendar {@link #period()} starts on: for a {@link CalendarPeriod#WEEK} 1 (Monday, the default) to 7
     * (Sunday); for a {@link CalendarPeriod#MONTH} 1 (the default) to 31, a billing anchor (in a shorter month its last
     * day).
     */
    @Nonbinding
    int anchorDay() default 1;

    /** How calls are counted; see {@link Algorithm}. */
    @Nonbinding
    Algorithm algorithm() default Algorithm.SLIDING_WINDOW_COUNTER;

    /**
     * Whose calls this limit counts: each tenant's (default), each client address's, or everyone's together. A method
     * may mix scopes (10 per second per tenant, 1000 per second in total); see the key layout in the documentation.
     */
    @Nonbinding
    Scope scope() default Scope.TENANT;

    /**
     * How many units of {@link #limit()} one call consumes (0 to the {@link #burst()}, else the limit): an expensive
     * endpoint can count for more. A call whose cost exceeds what is left is refused and consumes nothing.
     */
    @Nonbinding
    long cost() default 1;

    /**
     * For {@link Algorithm#TOKEN_BUCKET} and {@link Algorithm#GCRA}: how many units may be taken at once (the bucket's
     * capacity, GCRA's tolerance), while {@link #limit()} per {@link #window()} stays the sustained rate. 0 (the
     * default) means {@code limit}.
     */
    @Nonbinding
    long burst() default 0;

    /**
     * Exceptions (with their subclasses) that, thrown by the method, give back what the call consumed of this limit:
     * a call that failed this way does not count. The refund completes before the exception reaches the caller.
     */
    @Nonbinding
    Class<? extends Throwable>[] refundOn() default {};

    /**
     * For HTTP endpoints: give back what the call consumed of this limit when the response status is 5xx (the server's
     * fault, not the client's).
     */
    @Nonbinding
    boolean refundOnServerError() default false;

    /**
     * The name of this limit, used in the {@code RateLimit-Policy} and {@code RateLimit} headers and in the Redis key.
     * Letters, digits, {@code .}, {@code _} and {@code -}; at most 100 characters. Defaults to
     * {@code <SimpleClassName>.<method>} (plus {@code -<window>} when the method has several limits). Methods that
     * declare the same name share one counter, so they must count alike: the same limit, window (or calendar period,
     * time zone and anchor day), algorithm, burst, scope, policy and key layout ({@link #perEndpoint()}, the number of
     * {@link #perParameter()}); each may have its own cost, failure mode, refunds and wait. Checked at build time and
     * again at start-up.
     */
    @Nonbinding
    String name() default "";

    /**
     * What this limit does when Redis cannot decide in time; {@link FailureMode#DEFAULT} follows
     * {@code quarkus.rate-limit.failure-mode}.
     */
    @Nonbinding
    FailureMode failureMode() default FailureMode.DEFAULT;

    /**
     * Whether this instance may refuse calls locally, without asking Redis, while Redis has said this limit is over
     * until a known time ({@code quarkus.rate-limit.refusal-cache}): a flood from a refused tenant then costs Redis
     * nothing. It never admits a call Redis would refuse, and it ends as soon as Redis would admit again: a refund, a
     * reset, a raised run-time limit or an unblock, made on any instance, is announced to every instance and clears the
     * refusals it concerns; an instance that cannot confirm it hears those announcements stops answering from the cache
     * within {@code quarkus.rate-limit.refusal-cache.unconfirmed-lifetime}.
     */
    @Nonbinding
    boolean cacheRefusals() default true;

    /**
     * How long a call may wait for its turn instead of being refused, in the syntax of {@link #window()}; empty (the
     * default) or {@code 0}: a refused call does not wait. A call that may wait is not refused while its limits have a
     * later slot for it within this time: one atomic script reserves the earliest slot every limit of the call admits,
     * first come first served across every instance, and the call proceeds at that time without asking Redis again
     * (waiting on a timer, never blocking an event loop; a blocking method waits on its worker thread). A call whose
     * wait would be longer reserves nothing and is refused at once, as without waiting. A call given up while it waits
     * (a cancelled {@code Uni}, a client gone) gives its slot back.
     * <p>
     * Only {@link Algorithm#TOKEN_BUCKET} and {@link Algorithm#GCRA} can hold a later slot, and every limit of a method
     * whose calls wait must use one of them (a counting window would count a call in one window and run it in
     * another); the longest {@code maxWait} of a method's limits applies to its calls. Checked at build time.
     */
    @Nonbinding
    String maxWait() default "";

    /**
     * How late a call that waited for its slot ({@link #maxWait()}) may still go, in the syntax of {@link #window()};
     * empty (the default): {@code quarkus.rate-limit.late-slot-tolerance} (10 ms). A call whose turn comes later (a
     * stalled event loop, a long garbage collection) does not go late, which would bunch calls at the service the limit
     * protects: it takes the next free slot instead, or is refused when that lies beyond its {@code maxWait}. A call
     * waiting on several limits goes within the smallest tolerance among them. Checked at build time.
     */
    @Nonbinding
    String lateSlotTolerance() default "";

    /**
     * Whether the limit learns the real quota of the service a REST Client calls: when the service answers 429, the
     * limit is lowered for every instance ({@code quarkus.rate-limit.adaptive.decrease-factor}); after a time without
     * a 429 it grows again, step by step, up to {@link #limit()} (see {@code quarkus.rate-limit.adaptive}). The limit
     * then keeps the fleet near the quota the service really grants, when that is lower than the one it announced.
     * Only on a {@code @RegisterRestClient} interface's methods, whose calls get the service's answer: elsewhere it
     * fails the build.
     */
    @Nonbinding
    boolean adaptive() default false;

    /**
     * How the real cost of a call is read from its result, when it is known only then (the tokens of an LLM answer):
     * {@link #cost()} is reserved before the method runs, as an estimate, and the call is settled at what this
     * {@link CostOf} bean reads from the method's result (the difference given back, or charged beyond the limit as
     * debt; see {@link Reservation}). {@code CostOf.class}, the default: the cost is {@link #cost()}. A call that fails
     * keeps its estimate (give it back with {@link #refundOn()}). A method returning a {@code Multi} is settled when
     * its stream ends (completed or cancelled), at the sum of what the bean reads from each item.
     */
    @Nonbinding
    @SuppressWarnings("rawtypes")
    Class<? extends CostOf> costOf() default CostOf.class;

    /** Holds repeated {@link RateLimited} annotations. */
    @Retention(RUNTIME)
    @Target({ METHOD, TYPE })
    @interface List {
        RateLimited[] value();
    }
}
