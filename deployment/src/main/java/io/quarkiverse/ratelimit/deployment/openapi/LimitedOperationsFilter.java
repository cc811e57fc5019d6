package io.quarkiverse.ratelimit.deployment.openapi;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Adds to the OpenAPI document, while Quarkus builds it, the refusals of every limited REST operation: {@code 429} with
 * its problem body and headers, {@code 503}, {@code 403} and the missing tenant's status where they apply, and the
 * {@code x-rate-limit} extension. Operations are found by HTTP method and path template; a document served under a
 * root path (the REST path, an {@code @ApplicationPath}) is matched by its longest suffix that is an endpoint's path.
 */
final class LimitedOperationsFilter implements OASFilter {

    static final String PROBLEM_SCHEMA = "RateLimitProblem";
    static final String EXTENSION = "x-rate-limit";
    /** The {@code algorithm} of a concurrency limit's item in {@link #EXTENSION}. */
    static final String CONCURRENCY = "concurrency";
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String HEADERS_REF = "#/components/headers/";

    /** By {@code METHOD /path/{template}}. */
    private final Map<String, LimitedOperation> operations;

    LimitedOperationsFilter(Map<String, LimitedOperation> operations) {
        this.operations = operations;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        boolean described = false;
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            Map<PathItem.HttpMethod, Operation> byMethod = path.getValue().getOperations();
            if (byMethod == null) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> operation : byMethod.entrySet()) {
                LimitedOperation limited = find(operation.getKey().name(), path.getKey());
                if (limited != null) {
                    describe(operation.getValue(), limited);
                    described = true;
                }
            }
        }
        if (described) {
            addComponents(openAPI);
        }
    }

    /** The operation of {@code path}, or of its longest suffix that is an endpoint's path (under a root path). */
    private LimitedOperation find(String method, String path) {
        String candidate = path;
        while (true) {
            LimitedOperation limited = operations.get(method + " " + candidate);
            if (limited != null) {
                return limited;
            }
            int next = candidate.indexOf('/', 1);
            if (next < 0) {
                return null;
            }
            candidate = candidate.substring(next);
        }
    }

    private static void describe(Operation operation, LimitedOperation limited) {
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        APIResponse tooMany = OASFactory.createAPIResponse()
                .description("Too Many Requests: a limit of this operation refused the call; retry after Retry-After"
                        + " seconds")
                .content(problem())
                .addHeader("Retry-After", OASFactory.createHeader().ref(HEADERS_REF + "Retry-After"));
        if (limited.limits().stream().anyMatch(limit -> !CONCURRENCY.equals(limit.get("algorithm")))) {
            // a rate limit's refusal tells each limit's state; a concurrency limit's, only when to retry
            tooMany.addHeader("RateLimit", OASFactory.createHeader().ref(HEADERS_REF + "RateLimit"))
                    .addHeader("RateLimit-Policy", OASFactory.createHeader().ref(HEADERS_REF + "RateLimit-Policy"));
        }
        responses.addAPIResponse("429", tooMany);
        if (limited.failsClosed()) {
            addIfAbsent(responses, "503", OASFactory.createAPIResponse()
                    .description("Service Unavailable: a limit could not be checked and fails closed")
                    .content(problem())
                    .addHeader("Retry-After", OASFactory.createHeader().ref(HEADERS_REF + "Retry-After")));
        }
        if (limited.tenantBlockable()) {
            addIfAbsent(responses, "403", OASFactory.createAPIResponse()
                    .description("Forbidden: the caller's tenant is blocked").content(problem()));
        }
        if (limited.missingTenantStatus() > 0) {
            addIfAbsent(responses, String.valueOf(limited.missingTenantStatus()), OASFactory.createAPIResponse()
                    .description("The call names no tenant, which its limits require").content(problem()));
        }
        operation.addExtension(EXTENSION, limited.limits());
    }

    /** A status the application documents itself keeps its own description. */
    private static void addIfAbsent(APIResponses responses, String status, APIResponse response) {
        if (!responses.hasAPIResponse(status)) {
            responses.addAPIResponse(status, response);
        }
    }

    private static Content problem() {
        return OASFactory.createContent().addMediaType(PROBLEM_JSON, OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM_SCHEMA)));
    }

    private static void addComponents(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        components.addSchema(PROBLEM_SCHEMA, OASFactory.createSchema()
                .type(List.of(Schema.SchemaType.OBJECT))
                .description("An RFC 9457 problem; for a 429 of the IETF RateLimit fields draft's quota-exceeded type")
                .addProperty("type", string("https://iana.org/assignments/http-problem-types#quota-exceeded"))
                .addProperty("title", string("Too Many Requests"))
                .addProperty("status", OASFactory.createSchema().type(List.of(Schema.SchemaType.INTEGER)))
                .addProperty("detail", string(null))
                .addProperty("violated-policies", OASFactory.createSchema()
                        .type(List.of(Schema.SchemaType.ARRAY)).items(string(null))
                        .description("The names of the limits that refused, as in RateLimit-Policy"))
                .addProperty("retry-after-seconds", OASFactory.createSchema()
                        .type(List.of(Schema.SchemaType.INTEGER)).description("As Retry-After says")));
        components.addHeader("RateLimit", header("What is left of each limit of the call: \"name\";r=remaining;"
                + "t=seconds until it is whole again (draft-ietf-httpapi-ratelimit-headers)", Schema.SchemaType.STRING));
        components.addHeader("RateLimit-Policy", header("Each limit of the call: \"name\";q=quota;w=window in"
                + " seconds (draft-ietf-httpapi-ratelimit-headers)", Schema.SchemaType.STRING));
        components.addHeader("Retry-After", header("Seconds until the call can be admitted", Schema.SchemaType.INTEGER));
    }

    private static Schema string(String example) {
        Schema schema = OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING));
        return example == null ? schema : schema.examples(List.of(example));
    }

    private static Header header(String description, Schema.SchemaType type) {
        return OASFactory.createHeader().description(description)
                .schema(OASFactory.createSchema().type(List.of(type)));
    }
}
