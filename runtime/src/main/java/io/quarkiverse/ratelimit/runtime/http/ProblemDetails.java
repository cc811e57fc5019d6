package io.quarkiverse.ratelimit.runtime.http;

/** Builds small {@code application/problem+json} bodies (RFC 9457) without a JSON library. */
public final class ProblemDetails {

    public static final String MEDIA_TYPE = "application/problem+json";

    private final StringBuilder json = new StringBuilder(256).append('{');

    public ProblemDetails(int status, String title, String detail) {
        member("type", "about:blank");
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

    /** Appends a member whose value is already JSON. */
    ProblemDetails rawMember(String name, String json) {
        separator();
        string(name);
        this.json.append(':').append(json);
        return this;
    }

    public String toJson() {
        return json + "}";
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
        for (int i = 0; i < value.length(); i++) {
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
