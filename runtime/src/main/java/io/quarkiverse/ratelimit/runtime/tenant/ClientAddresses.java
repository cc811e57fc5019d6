package io.quarkiverse.ratelimit.runtime.tenant;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The client address of a call, as a key tag. The connection's peer is the client, unless it is one of the configured
 * trusted proxies: then the forwarding chain ({@code Forwarded}, else {@code X-Forwarded-For}) is read from the right,
 * and the first address that is not a trusted proxy is the client. A client cannot pick its bucket by sending those
 * headers itself: from an untrusted peer they are ignored. IPv6 clients are counted per network
 * ({@code ipv6-prefix-length}).
 */
@Singleton
public class ClientAddresses {

    static final String PROPERTY = "quarkus.rate-limit.client-address.trusted-proxies";

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern FORWARDED_FOR = Pattern.compile("(?i)(?:^|[;,\\s])for=\\s*(\"[^\"]*\"|[^;,\\s]*)");

    private final List<Cidr> trustedProxies;
    private final int ipv6PrefixLength;

    @Inject
    ClientAddresses(RateLimitConfig config) {
        this(config.clientAddress().trustedProxies().orElse(List.of()), config.clientAddress().ipv6PrefixLength());
    }

    ClientAddresses(List<String> trustedProxies, int ipv6PrefixLength) {
        if (ipv6PrefixLength < 1 || ipv6PrefixLength > 128) {
            throw new ConfigurationException("quarkus.rate-limit.client-address.ipv6-prefix-length must be 1 to 128,"
                    + " but is " + ipv6PrefixLength, Set.of("quarkus.rate-limit.client-address.ipv6-prefix-length"));
        }
        List<Cidr> cidrs = new ArrayList<>();
        for (String proxy : trustedProxies) {
            cidrs.add(Cidr.parse(proxy.trim()));
        }
        this.trustedProxies = List.copyOf(cidrs);
        this.ipv6PrefixLength = ipv6PrefixLength;
    }

    /** The client address's tag; the shared anonymous tag outside HTTP or when the address is unknown. */
    public String tag(RoutingContext request) {
        InetAddress client = clientAddress(request);
        return client == null ? TenantTags.ANONYMOUS : TenantTags.forClientAddress(bucket(client));
    }

    /**
     * The tag a call from {@code address} counts under (an IPv6 address names its network), for an operator who names
     * a caller address.
     *
     * @throws IllegalArgumentException when {@code address} is not an IPv4 or IPv6 address literal
     */
    public String tag(String address) {
        InetAddress literal = address == null ? null : literal(address.trim());
        if (literal == null) {
            throw new IllegalArgumentException("'" + address + "' is not an IPv4 or IPv6 address");
        }
        return TenantTags.forClientAddress(bucket(literal));
    }

    InetAddress clientAddress(RoutingContext request) {
        if (request == null) {
            return null;
        }
        HttpServerRequest http = request.request();
        // the connection's own peer: request.remoteAddress() may already reflect quarkus.http.proxy.* forwarding
        SocketAddress peerAddress = http.connection() != null ? http.connection().remoteAddress()
                : http.remoteAddress();
        InetAddress peer = peerAddress == null ? null : literal(peerAddress.hostAddress());
        if (peer == null || !isTrustedProxy(peer)) {
            return peer;
        }
        List<InetAddress> chain = forwardingChain(http);
        if (chain == null) {
            return peer;
        }
        for (int i = chain.size() - 1; i >= 0; i--) {
            if (!isTrustedProxy(chain.get(i))) {
                return chain.get(i);
            }
        }
        return chain.get(0);
    }

    /** The addresses the proxies reported, client first; {@code null} when there are none or one is not an address. */
    private static List<InetAddress> forwardingChain(HttpServerRequest http) {
        List<String> forwarded = http.headers().getAll("Forwarded");
        List<String> values = new ArrayList<>();
        if (!forwarded.isEmpty()) {
            for (String header : forwarded) {
                var matcher = FORWARDED_FOR.matcher(header);
                while (matcher.find()) {
                    values.add(unquoteForwardedNode(matcher.group(1)));
                }
            }
        } else {
            for (String header : http.headers().getAll("X-Forwarded-For")) {
                for (String value : header.split(",")) {
                    values.add(value.trim());
                }
            }
        }
        if (values.isEmpty()) {
            return null;
        }
        List<InetAddress> chain = new ArrayList<>(values.size());
        for (String value : values) {
            InetAddress address = literal(value);
            if (address == null) {
                // an unknown or obfuscated hop: nothing to its left can be attributed
                chain.clear();
            } else {
                chain.add(address);
            }
        }
        return chain.isEmpty() ? null : chain;
    }

    /** {@code "[2001:db8::1]:4711"} → {@code 2001:db8::1}; {@code 192.0.2.1:80} → {@code 192.0.2.1}. */
    private static String unquoteForwardedNode(String node) {
        String value = node.startsWith("\"") && node.endsWith("\"") && node.length() >= 2
                ? node.substring(1, node.length() - 1)
                : node;
        if (value.startsWith("[")) {
            int end = value.indexOf(']');
            return end > 0 ? value.substring(1, end) : value;
        }
        int colon = value.indexOf(':');
        return colon > 0 && value.indexOf(':', colon + 1) < 0 ? value.substring(0, colon) : value;
    }

    private boolean isTrustedProxy(InetAddress address) {
        for (Cidr cidr : trustedProxies) {
            if (cidr.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** The text of the bucket of an address: itself for IPv4, its network for IPv6 (so its spelling never matters). */
    String bucket(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 16 && ipv6PrefixLength < 128) {
            Cidr.mask(bytes, ipv6PrefixLength);
            try {
                return InetAddress.getByAddress(bytes).getHostAddress() + "/" + ipv6PrefixLength;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return address.getHostAddress();
    }

    /** An IP address literal, never a host name (no DNS lookup); {@code null} when the text is not one. */
    static InetAddress literal(String text) {
        if (text == null || text.isEmpty() || text.length() > 45) {
            return null;
        }
        boolean ipv6 = text.indexOf(':') >= 0;
        if (!ipv6 && !IPV4.matcher(text).matches()) {
            return null;
        }
        if (ipv6 && !text.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.' || c == '%')) {
            return null;
        }
        try {
            // ::ffff:192.0.2.1 comes back as the Inet4Address 192.0.2.1: one client, one bucket, however spelt
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** An address range: an address and how many leading bits of it a member shares. */
    record Cidr(byte[] network, int prefixLength) {

        static Cidr parse(String text) {
            int slash = text.indexOf('/');
            InetAddress address = literal(slash < 0 ? text : text.substring(0, slash));
            int bits = address == null ? 0 : address.getAddress().length * 8;
            int prefixLength = bits;
            if (address != null && slash >= 0) {
                try {
                    prefixLength = Integer.parseInt(text.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefixLength = -1;
                }
            }
            if (address == null || prefixLength < 0 || prefixLength > bits) {
                throw new ConfigurationException(PROPERTY + " holds '" + text + "', which is not an IP address or a"
                        + " CIDR range (such as 10.0.0.0/8 or fd00::/8)", Set.of(PROPERTY));
            }
            byte[] network = address.getAddress();
            mask(network, prefixLength);
            return new Cidr(network, prefixLength);
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != network.length) {
                return false;
            }
            mask(candidate, prefixLength);
            return java.util.Arrays.equals(candidate, network);
        }

        static void mask(byte[] address, int prefixLength) {
            for (int i = 0; i < address.length; i++) {
                int keep = Math.max(0, Math.min(8, prefixLength - 8 * i));
                address[i] &= (byte) (0xFF << (8 - keep));
            }
        }
    }
}
