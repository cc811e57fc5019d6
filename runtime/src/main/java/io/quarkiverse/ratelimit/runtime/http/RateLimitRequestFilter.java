package io.quarkiverse.ratelimit.runtime.http;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.mapping.RuntimeResource;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestFilter;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerRestHandler;

import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.runtime.decide.CallAdmitter;
import io.quarkiverse.ratelimit.runtime.decide.CallDecision;
import io.quarkiverse.ratelimit.runtime.decide.CallResolver;
import io.quarkiverse.ratelimit.runtime.decide.DispatchDecisions;
import io.quarkiverse.ratelimit.runtime.decide.ResolvedCall;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.MethodIds;
import io.quarkiverse.ratelimit.runtime.limit.RequestParameter;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkus.arc.InjectableInstance;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides a call of a {@code @RateLimited} REST endpoint on the event loop, before Quarkus REST dispatches it: a
 * refused call gets its 429 here, without a worker thread, an exception or its mapping; an admitted call goes on with
 * its decision made, which the method's interceptor then only keeps (for refunds, {@link DispatchDecisions}).
 * <p>
 * An endpoint whose keys or tenant read an argument the request does not hold as such (a body value, a converted
 * type, a parameter with a default value) is left to the interceptor, which decides from the method's arguments. An application
 * that
 * maps {@link RateLimitExceededException} itself gets the exception, so its mapper still answers.
 */
@Singleton
public class RateLimitRequestFilter implements ResteasyReactiveContainerRequestFilter {

    /**
     * Before {@code Priorities.AUTHENTICATION}: Quarkus REST runs non-blocking filters before blocking ones and fails
     * the build when a blocking filter comes first. Quarkus's own security checks run before any request filter.
     */
    public static final int PRIORITY = 500;

    private final InjectableInstance<EffectiveLimits> configuredMethods;
    private final InjectableInstance<CallResolver> configuredCalls;
    private final InjectableInstance<CallAdmitter> configuredAdmitter;
    private final InjectableInstance<EarlyRefusals> configuredEarly;
    private final InjectableInstance<RestSteps> configuredSteps;
    private final Map<RuntimeResource, Endpoint> endpoints = new ConcurrentHashMap<>();

    /**
     * Quarkus REST creates its filters at static init, before the run-time configuration the limits need exists: they
     * are looked up at the first request of each endpoint, which keeps them.
     */
    RateLimitRequestFilter(InjectableInstance<EffectiveLimits> methods, InjectableInstance<CallResolver> calls,
            InjectableInstance<CallAdmitter> admitter, InjectableInstance<EarlyRefusals> early,
            InjectableInstance<RestSteps> steps) {
        this.configuredSteps = steps;
        this.configuredMethods = methods;
        this.configuredCalls = calls;
        this.configuredAdmitter = admitter;
        this.configuredEarly = early;
    }

    @Override
    public void filter(ResteasyReactiveContainerRequestContext context) {
        ResteasyReactiveRequestContext request = (ResteasyReactiveRequestContext) context.getServerRequestContext();
        Endpoint endpoint = endpoint(request);
        if (endpoint == Endpoint.UNDECIDED) {
            return;
        }
        RoutingContext routing = request.unwrap(RoutingContext.class);
        context.suspend();
        try {
            DirectUni.chained(endpoint.calls.resolve(endpoint.method, routing, endpoint.arguments(request)),
                    endpoint.decide).subscribe().withSubscriber(new Answer(context, request, routing, endpoint));
        } catch (RuntimeException e) {
            context.resume(e); // a suspended request must go on, whatever failed
        }
    }

    private Endpoint endpoint(ResteasyReactiveRequestContext request) {
        RuntimeResource target = request.getTarget();
        if (target == null) {
            return Endpoint.UNDECIDED;
        }
        Endpoint endpoint = endpoints.get(target);
        if (endpoint == null) {
            endpoint = endpoints.computeIfAbsent(target,
                    ignored -> Endpoint.of(configuredMethods.get(), configuredCalls.get(), configuredAdmitter.get(),
                            configuredEarly.get(), configuredSteps.get(), request));
        }
        return endpoint;
    }

    /** A resource method as this filter decides it; {@link #UNDECIDED} for one it leaves alone. */
    private static final class Endpoint {

        static final Endpoint UNDECIDED = new Endpoint(null, null, null, null, false, false, null);

        final EffectiveMethod method;
        final CallResolver calls;
        /** The endpoint's decision of a resolved call: one function for all its requests. */
        final Function<ResolvedCall, Uni<CallDecision>> decide;
        /** The request parameter to read for each argument position the decision reads (null: not read). */
        final RequestParameter[] requestArguments;
        /** Whether this extension's mapper answers a refusal here (else the application's own does). */
        final boolean ownRefusal;
        /** Whether a refusal may be written straight to the HTTP response: nothing of the application's would see it. */
        final boolean writesRefusal;
        /** Where its refusals are learned for answering before Quarkus REST; {@code null}: they are not. */
        final EarlyRefusals early;

        private Endpoint(EffectiveMethod method, CallResolver calls, CallAdmitter admitter,
                RequestParameter[] requestArguments, boolean ownRefusal, boolean writesRefusal, EarlyRefusals early) {
            this.method = method;
            this.calls = calls;
            this.decide = admitter == null ? null : admitter::decide;
            this.requestArguments = requestArguments;
            this.ownRefusal = ownRefusal;
            this.writesRefusal = writesRefusal;
            this.early = early;
        }

        static Endpoint of(EffectiveLimits methods, CallResolver calls, CallAdmitter admitter, EarlyRefusals early,
                RestSteps steps, ResteasyReactiveRequestContext request) {
            ResteasyReactiveResourceInfo info = request.getResteasyReactiveResourceInfo();
            if (info == null) {
                return UNDECIDED;
            }
            String declaringClass = info.getActualDeclaringClassName() != null ? info.getActualDeclaringClassName()
                    : info.getResourceClass().getName();
            Class<?>[] types = info.getParameterTypes();
            String[] typeNames = new String[types.length];
            for (int i = 0; i < types.length; i++) {
                typeNames[i] = types[i].getName();
            }
            String methodId = MethodIds.of(declaringClass, info.getName(), List.of(typeNames));
            EffectiveMethod method = methods.all().get(methodId);
            if (method == null || method.requestArguments() == null) {
                return UNDECIDED;
            }
            RateLimitExceededException sample = new RateLimitExceededException(List.of());
            var mapper = request.getDeployment().getExceptionMapper()
                    .getExceptionMapper(RateLimitExceededException.class, request, sample);
            boolean ownRefusal = mapper != null && mapper.getValue() instanceof RateLimitExceededExceptionMapper;
            boolean writesRefusal = ownRefusal && steps.answersGoStraightOut(methodId);
            boolean learns = writesRefusal && early.mayLearn(method, methodId, steps.nothingBeforeLimiter(methodId));
            return new Endpoint(method, calls, admitter, method.requestArguments(), ownRefusal, writesRefusal,
                    learns ? early : null);
        }

        /** The arguments the decision reads, from the request; {@code null} when it reads none. */
        Object[] arguments(ResteasyReactiveRequestContext request) {
            if (requestArguments.length == 0) {
                return null;
            }
            Object[] arguments = new Object[requestArguments.length];
            for (int i = 0; i < requestArguments.length; i++) {
                RequestParameter parameter = requestArguments[i];
                if (parameter != null) {
                    arguments[i] = switch (parameter.getSource()) {
                        case PATH -> request.getPathParameter(parameter.getName(), true);
                        case QUERY -> request.getQueryParameter(parameter.getName(), true, false);
                        case HEADER -> request.getHeader(parameter.getName(), true);
                    };
                }
            }
            return arguments;
        }
    }

    /** Answers the decision: lets an admitted call go on, refuses the others, fails with what failed. */
    private static final class Answer implements UniSubscriber<CallDecision> {

        /** The status of a request whose client closed the connection first (as access logs know it). */
        private static final int CLIENT_CLOSED_REQUEST = 499;

        private final ResteasyReactiveContainerRequestContext context;
        private final ResteasyReactiveRequestContext request;
        private final RoutingContext routing;
        private final Endpoint endpoint;

        Answer(ResteasyReactiveContainerRequestContext context, ResteasyReactiveRequestContext request,
                RoutingContext routing, Endpoint endpoint) {
            this.context = context;
            this.request = request;
            this.routing = routing;
            this.endpoint = endpoint;
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
        }

        @Override
        public void onItem(CallDecision decision) {
            if (decision.waitMillis() > 0 && routing.response().closed()) {
                // the client left while the call waited for its slot: the slot goes to the calls queued behind it
                decision.admission().giveBack().subscribe().with(done -> {
                });
                context.abortWith(Response.status(CLIENT_CLOSED_REQUEST).build());
                return;
            }
            if (decision.admitted()) {
                RateLimitHeaders.attach(routing, decision);
                DispatchDecisions.admitted(routing, endpoint.method, decision.admission());
                context.resume();
            } else if (endpoint.writesRefusal) {
                if (endpoint.early != null) {
                    endpoint.early.learn(routing, endpoint.method);
                }
                // the rest of the request is writing the 429: Quarkus REST closes the request once it ran
                request.restart(new ServerRestHandler[] { ignored -> RateLimitExceededExceptionMapper
                        .write(routing.response(), decision.refusal(), decision.shown()) });
                context.resume();
            } else if (endpoint.ownRefusal) {
                context.abortWith(refusal(decision));
            } else {
                RateLimitHeaders.attach(routing, decision.shown());
                context.resume(decision.refusal());
            }
        }

        @Override
        public void onFailure(Throwable failure) {
            context.resume(failure);
        }

        private static Response refusal(CallDecision decision) {
            return RateLimitHeaders.add(RateLimitExceededExceptionMapper.tooManyRequests(decision.refusal()),
                    decision.shown()).build();
        }
    }
}
