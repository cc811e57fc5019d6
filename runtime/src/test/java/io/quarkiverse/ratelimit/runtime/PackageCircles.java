package io.quarkiverse.ratelimit.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The circles among the classes of one package: each class's source (comments, strings and imports left out) refers to
 * the package's other classes by their simple names; a group that reaches itself is a circle (Tarjan's strongly
 * connected components). A builder and the class it builds ({@code XBuilder}, {@code X}) are one.
 */
final class PackageCircles {

    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");
    private static final Pattern IMPORTS = Pattern.compile("^import [^;]*;", Pattern.MULTILINE);

    private final Map<String, Set<String>> references = new LinkedHashMap<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final List<String> circles = new ArrayList<>();

    private PackageCircles() {
    }

    /** The circles of the package in {@code folder}, each as its classes joined by {@code <->}. */
    static List<String> of(Path folder) throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String code = Files.readString(file);
                code = IMPORTS.matcher(STRINGS.matcher(COMMENTS.matcher(code).replaceAll("")).replaceAll("\"\""))
                        .replaceAll("");
                sources.put(file.getFileName().toString().replace(".java", ""), code);
            }
        }
        PackageCircles graph = new PackageCircles();
        sources.forEach((name, code) -> {
            Set<String> referred = new LinkedHashSet<>();
            for (String other : sources.keySet()) {
                if (!other.equals(name) && !other.equals(name + "Builder") && !name.equals(other + "Builder")
                        && Pattern.compile("\\b" + other + "\\b").matcher(code).find()) {
                    referred.add(other);
                }
            }
            graph.references.put(name, referred);
        });
        for (String name : graph.references.keySet()) {
            if (!graph.index.containsKey(name)) {
                graph.visit(name);
            }
        }
        return graph.circles.stream().map(circle -> folder.getFileName() + ": " + circle).toList();
    }

    private void visit(String name) {
        index.put(name, index.size());
        low.put(name, index.get(name));
        stack.push(name);
        for (String next : references.get(name)) {
            if (!index.containsKey(next)) {
                visit(next);
                low.put(name, Math.min(low.get(name), low.get(next)));
            } else if (stack.contains(next)) {
                low.put(name, Math.min(low.get(name), index.get(next)));
            }
        }
        if (low.get(name).equals(index.get(name))) {
            List<String> component = new ArrayList<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(name));
            if (component.size() > 1) {
                circles.add(String.join(" <-> ", component));
            }
        }
    }
}
