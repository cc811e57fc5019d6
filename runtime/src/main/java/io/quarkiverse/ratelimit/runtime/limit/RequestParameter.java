package io.quarkiverse.ratelimit.runtime.limit;

import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * A {@code String} parameter of a REST endpoint that the request holds exactly as the method receives it: a path,
 * query or header parameter without a default value or {@code @Encoded}. A decision that reads only such parameters
 * can be taken from the request, before the method's arguments exist.
 */
public final class RequestParameter {

    /** Where the request holds the value. */
    public enum Source {
        PATH,
        QUERY,
        HEADER
    }

    private final Source source;
    private final String name;

    @RecordableConstructor
    public RequestParameter(Source source, String name) {
        this.source = source;
        this.name = name;
    }

    public Source getSource() {
        return source;
    }

    /** The JAX-RS name: the path template's, the query parameter's or the header's. */
    public String getName() {
        return name;
    }

    @Override
    public String toString() {
        return source.name().toLowerCase() + " parameter " + name;
    }
}
