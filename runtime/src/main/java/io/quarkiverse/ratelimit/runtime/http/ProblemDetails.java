package io.quarkiverse.ratelimit.runtime.http;

import java.nio.charset.StandardCharsets;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Builds small {@code application/problem+json} bodies (RFC 9457) without a JSON library. The problem types of refused
 * calls are those of the IETF RateLimit fields draft (draft-ietf-httpapi-ratelimit-headers-10), each listing the
 * limits that refused in {@code violated-policies}.
 */
public final class ProblemDetails {

    public static final String MEDIA_TYPE = "application/problem+json";

    private static final MediaType PROBLEM_JSON = new MediaType("application", "problem+json");

    /** A quota (rate or concurrency limit) refused the call: 429. */
    static final String QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

    /** The limit could not be checked and fails closed: 503. */
    static final String TEMPORARY_REDUCED_CAPACITY = "https://iana.org/assignments/http-problem-types"
            + "#temporary-reduced-capacity";

    /** Problems with no type of their own (RFC 9457: the status says it all). */
    static final String ABOUT_BLANK = "about:blank";

    private final StringBuilder json = new StringBuilder(256).append('{');

    public ProblemDetails(int status, String title, String detail) {
        this(ABOUT_BLANK, status, title, detail);
    }

    ProblemDetails(String type, int status, String title, String detail) {
        member("type", type);
        member("title", title);
        member("status", status);
        member("detail", detail);
    }

    ProblemDetails member(String name, String value) {
        separator();
        string(name);
        json.append(':');
        string(value);
        return this;
    }

    ProblemDetails member(String name, long value) {
        separator();
        string(name);
        json.append(':').append(value);
        return this;
    }

    /** The draft's {@code violated-policies}: the names of the limits that refused, as in {@code RateLimit-Policy}. */
    ProblemDetails violatedPolicies(Iterable<String> names) {
        separator();
        string("violated-policies");
        json.append(":[");
        boolean first = true;
        for (String name : names) {
            if (!first) {
                json.append(',');
            }
            string(name);
            first = false;
        }
        json.append(']');
        return this;
    }

    public String toJson() {
        return json + "}";
    }

    /**
     * {@code response} with this body. The body goes as UTF-8 bytes and the media type as a constant: a {@code String}
     * entity is encoded char by char on every response, and a media type given as a string is parsed each time
     * (measured under a blocked tenant's flood: the largest costs of a refused call).
     */
    Response build(Response.ResponseBuilder response) {
        return body(response).build();
    }

    /** {@code response} with this body, to be built by the caller. */
    Response.ResponseBuilder body(Response.ResponseBuilder response) {
        return response.entity(toJson().getBytes(StandardCharsets.UTF_8)).type(PROBLEM_JSON);
    }

    private static boolean needsNoEscape(char c) {
        return c >= 0x20 && c != '"' && c != '\\';
    }

    private void separator() {
        if (json.length() > 1) {
            json.append(',');
        }
    }

    private void string(String value) {
        json.append('"');
        appendEscaped(json, value);
        json.append('"');
    }

    static void appendEscaped(StringBuilder out, String value) {
        int plain = 0;
        while (plain < value.length() && needsNoEscape(value.charAt(plain))) {
            plain++;
        }
        if (plain == value.length()) {
            out.append(value); // the usual text: copied at once
            return;
        }
        out.append(value, 0, plain);
        for (int i = plain; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }
}
