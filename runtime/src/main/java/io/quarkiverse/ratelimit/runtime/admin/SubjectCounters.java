package io.quarkiverse.ratelimit.runtime.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.key.KeyGroup;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.tenant.ClientAddresses;

/**
 * The counters of one subject ({@link RateLimitSubject}) for one policy, named by the keys the decisions of its calls
 * write: for each method that uses the policy, {@link RateLimitKeys#keys(MethodLimits, String, String, Object[])}
 * with the subject as the call's tenant or client address and its arguments as the call's, the same function a
 * decision calls. A subject owns a limit's counter as a call would: a tenant the per-tenant ones; a client address the
 * per-address ones and the per-tenant ones of calls without a tenant that count under their address
 * ({@code tenant.missing=client-address}); everyone the global ones.
 */
final class SubjectCounters {

    private final EffectiveLimits configured;
    private final RateLimitKeys keys;
    private final ClientAddresses clientAddresses;
    /** Every policy, and the name of every limit without one. */
    private final Set<String> known = new TreeSet<>();

    SubjectCounters(EffectiveLimits configured, RateLimitKeys keys, ClientAddresses clientAddresses) {
        this.configured = configured;
        configured.all().values().forEach(method -> method.limits().getLimits()
                .forEach(limit -> known.add(limit.overrideName())));
        this.keys = keys;
        this.clientAddresses = clientAddresses;
    }

    /** Whether an annotation's limit uses {@code policy} (as its policy, or as its name when it has none). */
    boolean knows(String policy) {
        return known.contains(policy);
    }

    /** Every policy, and the name of every limit without one. */
    Set<String> known() {
        return known;
    }

    /** The hash tag of the subject's own keys: what a run-time block names. */
    String tag(RateLimitSubject subject) {
        return switch (subject.kind()) {
            case TENANT -> TenantTags.forTenant(subject.name());
            case CLIENT_ADDRESS -> clientAddresses.tag(subject.name());
            case EVERYONE -> throw new IllegalArgumentException("Everyone cannot be blocked: name a tenant or an address");
        };
    }

    /**
     * @throws UnknownLimitException when no limit uses {@code policy}
     * @throws IllegalArgumentException when the subject owns none of its counters, or the counters are split by a
     *         parameter the subject gives no value of
     */
    List<KeyGroup> of(RateLimitSubject subject, String policy) {
        String tag = subject.kind() == RateLimitSubject.Kind.EVERYONE ? null : tag(subject);
        Map<String, LimitDefinition> owned = new LinkedHashMap<>();
        Set<String> scopes = new TreeSet<>();
        Set<String> missingArguments = new TreeSet<>();
        Set<String> usedArguments = new TreeSet<>();
        boolean used = false;
        for (EffectiveMethod method : configured.all().values()) {
            MethodLimits limits = method.limits();
            for (int i = 0; i < limits.getLimits().size(); i++) {
                LimitDefinition limit = limits.getLimits().get(i);
                if (!limit.overrideName().equals(policy)) {
                    continue;
                }
                used = true;
                scopes.add(ownerOf(limit.getScope()));
                if (!owns(subject, limit.getScope(), method)) {
                    continue;
                }
                Object[] arguments = arguments(subject, limits, limit, missingArguments, usedArguments);
                if (arguments == null) {
                    continue;
                }
                owned.putIfAbsent(keys.keys(limits, tag, tag, arguments).get(i), limit);
            }
        }
        if (!used) {
            throw new UnknownLimitException("No limit uses the policy or name '" + policy + "'; known: " + known);
        }
        Set<String> unused = new TreeSet<>(subject.arguments().keySet());
        unused.removeAll(usedArguments);
        if (!unused.isEmpty()) {
            throw new IllegalArgumentException("The counters of '" + policy + "' are not split by " + unused);
        }
        if (owned.isEmpty() && !missingArguments.isEmpty()) {
            throw new IllegalArgumentException("The counters of '" + policy + "' are split by " + missingArguments
                    + ": name the value of each (a query parameter over HTTP, withArgument in code)");
        }
        if (owned.isEmpty()) {
            throw new IllegalArgumentException("The limits of '" + policy + "' count per " + String.join(" and ", scopes)
                    + ", not per " + ownerOf(scopeOf(subject.kind())));
        }
        return KeyGroup.byHashTag(owned);
    }

    /** Whether a call of {@code method} counts {@code scope}'s counter under {@code subject}. */
    private static boolean owns(RateLimitSubject subject, Scope scope, EffectiveMethod method) {
        return scope == scopeOf(subject.kind()) || subject.kind() == RateLimitSubject.Kind.CLIENT_ADDRESS
                && scope == Scope.TENANT && method.tenantRule() != null
                && method.tenantRule().missing() == MissingTenant.CLIENT_ADDRESS;
    }

    /**
     * The call's arguments the limit's key reads, from the subject's; {@code null} (and the names added to
     * {@code missing}) when the subject lacks one.
     */
    private static Object[] arguments(RateLimitSubject subject, MethodLimits limits, LimitDefinition limit,
            Set<String> missing, Set<String> used) {
        int positions = 0;
        for (LimitDefinition any : limits.getLimits()) {
            for (int position : any.getKeyParameters()) {
                positions = Math.max(positions, position + 1);
            }
        }
        Object[] arguments = new Object[positions]; // the other limits' split keys are not read
        boolean complete = true;
        for (Map.Entry<String, Integer> parameter : limits.getParameters().entrySet()) {
            if (!limit.getKeyParameters().contains(parameter.getValue())) {
                continue;
            }
            String value = subject.arguments().get(parameter.getKey());
            if (value == null) {
                missing.add(parameter.getKey());
                complete = false;
            } else {
                used.add(parameter.getKey());
                arguments[parameter.getValue()] = value;
            }
        }
        return complete ? arguments : null;
    }

    /** The counters by hash tag, in the order found. */
    private static String ownerOf(Scope scope) {
        return switch (scope) {
            case TENANT -> "tenant";
            case CLIENT_ADDRESS -> "client address";
            case GLOBAL -> "everyone (global)";
        };
    }

    /** The scope whose counters a subject of {@code kind} owns in any method. */
    private static Scope scopeOf(RateLimitSubject.Kind kind) {
        return switch (kind) {
            case TENANT -> Scope.TENANT;
            case CLIENT_ADDRESS -> Scope.CLIENT_ADDRESS;
            case EVERYONE -> Scope.GLOBAL;
        };
    }
}
