package io.quarkiverse.ratelimit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whose counters an administration call names ({@link RateLimitAdmin#status(RateLimitSubject, String)},
 * {@link RateLimitAdmin#reset(RateLimitSubject, String)}, {@link RateLimitAdmin#block(RateLimitSubject)}): every key a
 * call can write has a subject.
 * <ul>
 * <li>{@link #tenant(String)}: a tenant's {@link Scope#TENANT} counters;</li>
 * <li>{@link #clientAddress(String)}: a caller address's counters, both those of {@link Scope#CLIENT_ADDRESS} limits
 * and the per-tenant counters of calls that have no tenant and count under their address
 * ({@code tenant.missing=client-address}); an IPv6 address names its network, as the decision counts it
 * ({@code quarkus.rate-limit.client-address.ipv6-prefix-length});</li>
 * <li>{@link #everyone()}: the one counter of a {@link Scope#GLOBAL} limit.</li>
 * </ul>
 * Counters split per parameter ({@code keyParameters}) are named with {@link #withArgument(String, String)}: the
 * parameter's name and the value a call passed.
 */
public final class RateLimitSubject {

    /** What a subject is. */
    public enum Kind {
        TENANT,
        CLIENT_ADDRESS,
        EVERYONE
    }

    private static final RateLimitSubject EVERYONE = new RateLimitSubject(Kind.EVERYONE, null, Map.of());

    private final Kind kind;
    private final String name;
    private final Map<String, String> arguments;

    private RateLimitSubject(Kind kind, String name, Map<String, String> arguments) {
        this.kind = kind;
        this.name = name;
        this.arguments = arguments;
    }

    /** A tenant, as its source names it (header value, principal, claim, ...). */
    public static RateLimitSubject tenant(String tenant) {
        return new RateLimitSubject(Kind.TENANT, requireNamed(tenant, "tenant"), Map.of());
    }

    /** A caller address ({@code 203.0.113.7}, {@code 2001:db8::1}), as the decision found it. */
    public static RateLimitSubject clientAddress(String address) {
        return new RateLimitSubject(Kind.CLIENT_ADDRESS, requireNamed(address, "address"), Map.of());
    }

    /** Every caller together: the counters of global limits. */
    public static RateLimitSubject everyone() {
        return EVERYONE;
    }

    /**
     * The same subject's counters for one value of a parameter the counters are split by ({@code keyParameters}): the
     * parameter's name (its JAX-RS name, else its Java name) and the value as a call passed it.
     */
    public RateLimitSubject withArgument(String parameter, String value) {
        Map<String, String> more = new LinkedHashMap<>(arguments);
        more.put(requireNamed(parameter, "parameter"), Objects.requireNonNull(value, "value"));
        return new RateLimitSubject(kind, name, Map.copyOf(more));
    }

    public Kind kind() {
        return kind;
    }

    /** The tenant or the address; {@code null} for {@link #everyone()}. */
    public String name() {
        return name;
    }

    /** The parameter values of split counters, by parameter name. */
    public Map<String, String> arguments() {
        return arguments;
    }

    private static String requireNamed(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("A " + what + " is required");
        }
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RateLimitSubject subject && kind == subject.kind && Objects.equals(name, subject.name)
                && arguments.equals(subject.arguments);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, name, arguments);
    }

    @Override
    public String toString() {
        String subject = switch (kind) {
            case TENANT -> "tenant " + name;
            case CLIENT_ADDRESS -> "client address " + name;
            case EVERYONE -> "everyone";
        };
        return arguments.isEmpty() ? subject : subject + " " + arguments;
    }
}
