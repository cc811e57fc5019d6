package io.quarkiverse.ratelimit.runtime.admin;

import java.util.List;
import java.util.Set;

import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.runtime.key.KeyGroup;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.policy.CodeLimits;
import io.smallrye.mutiny.Uni;

/**
 * The counters of a limit made in code ({@code RateLimit.of}), named by the key a {@code RateLimiter} call of the same
 * tenant writes: such a limit counts per the tenant its calls name, so only a tenant owns its counters. Found when a
 * call of this instance or of the fleet used the limit ({@link CodeLimits}).
 */
final class CodeLimitCounters {

    private final CodeLimits codeLimits;
    private final RateLimitKeys keys;

    CodeLimitCounters(CodeLimits codeLimits, RateLimitKeys keys) {
        this.codeLimits = codeLimits;
        this.keys = keys;
    }

    /**
     * The subject's counter of the limit made in code named {@code name}; fails with {@link UnknownLimitException} when
     * no call used one (naming the {@code annotated} limits and those made in code), with
     * {@link IllegalArgumentException} when the subject is no tenant.
     */
    Uni<List<KeyGroup>> of(RateLimitSubject subject, String name, Set<String> annotated) {
        return codeLimits.find(name).flatMap(limit -> {
            if (limit == null) {
                return codeLimits.names().map(made -> {
                    throw new UnknownLimitException("No limit uses the policy or name '" + name + "'; known: "
                            + annotated + (made.isEmpty() ? "" : ", and limits made in code: " + made));
                });
            }
            if (subject.kind() != RateLimitSubject.Kind.TENANT) {
                throw new IllegalArgumentException("'" + name + "' is a limit made in code, which counts per the tenant"
                        + " its calls name: ask for that tenant");
            }
            LimitDefinition look = limit.withCost(0);
            String key = keys.key(TenantTags.forTenant(subject.name()), look);
            return Uni.createFrom().item(List.of(new KeyGroup(List.of(key), List.of(look))));
        });
    }
}
