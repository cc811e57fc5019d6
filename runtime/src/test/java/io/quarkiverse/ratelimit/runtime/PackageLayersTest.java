package io.quarkiverse.ratelimit.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The packages of {@code runtime/} are layers, each named after a stage of a call or a concern, and imports point down
 * only: a reader who opens a package needs nothing above it to understand it. The public API
 * ({@code io.quarkiverse.ratelimit}) imports nothing internal. Inside a package, no two classes need each other: the
 * classes of a package that refer to one another in a circle are one job split in two files, or a rule on the wrong
 * side (a builder and what it builds excepted). And a class holds one job: none over 300 lines (the configuration's
 * groups each have their file).
 */
class PackageLayersTest {

    /** From the bottom up. */
    static final List<String> LAYERS = List.of("clock", "reactive", "cache", "config", "limit", "key", "store", "observe",
            "redis", "fleet", "lease",
            "policy",
            "tenant",
            "resilience", "watch", "outgoing", "admitted", "concurrency", "decide", "http", "grpc", "intercept", "admin",
            "status", "devui", "startup", "");

    private static final Path API = Path.of("src", "main", "java", "io", "quarkiverse", "ratelimit");
    private static final Path RUNTIME = API.resolve("runtime");
    private static final Path TESTING = API.resolve("testing");
    private static final Pattern INTERNAL_IMPORT = Pattern
            .compile("^import io\\.quarkiverse\\.ratelimit\\.runtime\\.(?:(\\w+)\\.)?[A-Z]\\w*", Pattern.MULTILINE);

    @Test
    void everyPackageIsALayer() throws IOException {
        try (Stream<Path> packages = Files.list(RUNTIME)) {
            assertThat(packages.filter(Files::isDirectory).map(p -> p.getFileName().toString()))
                    .allMatch(LAYERS::contains);
        }
    }

    @Test
    void importsPointDownOnly() throws IOException {
        List<String> climbs = new ArrayList<>();
        for (Path source : sources(RUNTIME)) {
            String layer = RUNTIME.relativize(source.getParent()).toString();
            Matcher imported = INTERNAL_IMPORT.matcher(Files.readString(source));
            while (imported.find()) {
                String target = imported.group(1) == null ? "" : imported.group(1);
                if (LAYERS.indexOf(target) > LAYERS.indexOf(layer)) {
                    climbs.add(RUNTIME.relativize(source) + " imports " + imported.group());
                }
            }
        }
        assertThat(climbs).as("imports from a lower layer to a higher one").isEmpty();
    }

    @Test
    void noClassesOfAPackageReferToEachOtherInACircle() throws IOException {
        List<String> circles = new ArrayList<>();
        try (Stream<Path> packages = Files.list(RUNTIME)) {
            for (Path folder : packages.filter(Files::isDirectory).toList()) {
                circles.addAll(PackageCircles.of(folder));
            }
        }
        circles.addAll(PackageCircles.of(API));
        assertThat(circles).as("classes of one package that refer to one another in a circle").isEmpty();
    }

    /**
     * The test support ({@code io.quarkiverse.ratelimit.testing}: the test clock) sits above every layer, as an
     * application does: it may use the runtime, and nothing of the runtime or the API uses it.
     */
    @Test
    void nothingButTestsImportsTheTestSupport() throws IOException {
        List<String> users = new ArrayList<>();
        for (Path source : sources(API)) {
            if (!source.startsWith(TESTING) && Files.readString(source).contains("import io.quarkiverse.ratelimit.testing.")) {
                users.add(API.relativize(source).toString());
            }
        }
        assertThat(users).as("classes that import the test support").isEmpty();
        assertThat(PackageCircles.of(TESTING)).isEmpty();
    }

    @Test
    void thePublicApiImportsNothingInternal() throws IOException {
        try (Stream<Path> api = Files.list(API)) {
            for (Path source : api.filter(p -> p.toString().endsWith(".java")).toList()) {
                assertThat(Files.readString(source)).as(source.toString())
                        .doesNotContain("import io.quarkiverse.ratelimit.runtime.");
            }
        }
    }

    @Test
    void noClassIsOverThreeHundredLines() throws IOException {
        List<String> large = new ArrayList<>();
        for (Path source : sources(RUNTIME)) {
            long lines = Files.readAllLines(source).size();
            if (lines > 300) {
                large.add(RUNTIME.relativize(source) + ": " + lines + " lines");
            }
        }
        assertThat(large).isEmpty();
    }

    private static List<Path> sources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }
}
