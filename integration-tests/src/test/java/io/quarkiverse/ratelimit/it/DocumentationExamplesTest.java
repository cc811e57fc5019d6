package io.quarkiverse.ratelimit.it;

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
 * A code example in the docs is code: every Java block of the docs' pages is an include of a tagged region of a source
 * in {@code docs/modules/ROOT/examples}, which this application compiles and {@link DocumentedExamplesTest} runs, or
 * such a region word for word (a page read on a code host, which does not include, shows it whole); so is every Java
 * block of the README. And the user pages speak of the product, not of its making: no test class named as evidence
 * (a command that runs one is a measurement's), no history of the work.
 */
class DocumentationExamplesTest {

    private static final Path DOCS = Path.of("..", "docs", "modules", "ROOT");
    private static final Path EXAMPLES = DOCS.resolve("examples");
    private static final Pattern ADOC_JAVA_BLOCK = Pattern.compile("\\[source,java[^\\]]*\\]\\n----\\n(.*?)\\n----",
            Pattern.DOTALL);
    private static final Pattern INCLUDE = Pattern.compile("include::example\\$([^\\[]+)\\[tags?=([^\\]]+)\\]");
    /** A test class's name, but one in a command that runs it ({@code -Dit.test=...}, a measurement's command). */
    private static final Pattern TEST_CLASS = Pattern.compile("(?<!test=)\\b([A-Z][a-z][A-Za-z]*(?:Test|IT))\\b");
    /** The tests the testing page shows users as examples of their own. */
    private static final List<String> EXAMPLE_TESTS = List.of("QuarkusTest", "QuarkusUnitTest",
            "QuarkusIntegrationTest", "QuarkusDevModeTest", "GreetingResourceTest", "ExportResourceTest");
    /** Words that tell the history of the work, not what the product does. */
    private static final List<String> HISTORY = List.of("earlier build", "in our tests", "our machine",
            "this project's", "first run found", "before the breaker", "we measured", "we found", "used to be",
            "of earlier builds");
    private static final Pattern README_JAVA_BLOCK = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL);
    private static final Pattern ADOC_PROPERTIES_BLOCK = Pattern
            .compile("\\[source,properties[^\\]]*\\]\\n----\\n(.*?)\\n----", Pattern.DOTALL);
    private static final Pattern README_PROPERTIES_BLOCK = Pattern.compile("```properties\\n(.*?)\\n```", Pattern.DOTALL);

    @Test
    void everyJavaBlockOfThePagesIncludesATaggedRegionOfAnExample() throws IOException {
        List<String> blocks = new ArrayList<>();
        try (Stream<Path> pages = Files.list(DOCS.resolve("pages"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).toList()) {
                Matcher block = ADOC_JAVA_BLOCK.matcher(Files.readString(page));
                while (block.find()) {
                    String content = block.group(1).strip();
                    blocks.add(page.getFileName() + ": " + content);
                    Matcher include = INCLUDE.matcher(content);
                    if (!include.matches()) {
                        assertThat(regions()).as("a Java block of %s that is neither an include of an example nor"
                                + " one's region word for word:%n%s", page.getFileName(), content)
                                .contains(block.group(1));
                        continue;
                    }
                    Path example = EXAMPLES.resolve(include.group(1));
                    assertThat(example).as(page.getFileName() + " includes").exists();
                    for (String tag : include.group(2).split(";")) {
                        assertThat(region(Files.readString(example), tag)).as("%s: tag %s of %s",
                                page.getFileName(), tag, example).isNotBlank();
                    }
                }
            }
        }
        assertThat(blocks).as("Java blocks in the pages").hasSizeGreaterThanOrEqualTo(7);
    }

    @Test
    void everyJavaBlockOfTheReadmeIsARegionOfAnExampleWordForWord() throws IOException {
        List<String> regions = regions();
        Matcher block = README_JAVA_BLOCK.matcher(Files.readString(Path.of("..", "README.md")));
        int blocks = 0;
        while (block.find()) {
            blocks++;
            assertThat(regions).as("the README's Java block is no example's region:%n%s", block.group(1))
                    .contains(block.group(1));
        }
        assertThat(blocks).isPositive();
    }

    /**
     * A properties file has no comment after a value: {@code limit=100   # per tenant} sets the limit to the whole text,
     * which fails start-up when pasted. Comments go on lines of their own.
     */
    @Test
    void noPropertiesBlockHasACommentAfterAValue() throws IOException {
        List<String> found = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        try (Stream<Path> pages = Files.list(DOCS.resolve("pages"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).toList()) {
                Matcher block = ADOC_PROPERTIES_BLOCK.matcher(Files.readString(page));
                while (block.find()) {
                    texts.add(page.getFileName() + "\n" + block.group(1));
                }
            }
        }
        Matcher readme = README_PROPERTIES_BLOCK.matcher(Files.readString(Path.of("..", "README.md")));
        while (readme.find()) {
            texts.add("README.md\n" + readme.group(1));
        }
        for (String text : texts) {
            java.util.Properties properties = new java.util.Properties();
            properties.load(new java.io.StringReader(text.substring(text.indexOf('\n') + 1)));
            properties.forEach((key, value) -> {
                if (value.toString().matches("(?s).*\\s#.*")) {
                    found.add(text.substring(0, text.indexOf('\n')) + ": " + key + "=" + value);
                }
            });
        }
        assertThat(texts).as("properties blocks").hasSizeGreaterThanOrEqualTo(10);
        assertThat(found).as("values that would hold a comment").isEmpty();
    }

    @Test
    void userPagesNameNoTestAsEvidenceAndTellNoHistory() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> pages = Files.list(DOCS.resolve("pages"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc"))
                    .filter(p -> !p.getFileName().toString().equals("contributing.adoc")).toList()) {
                String text = Files.readString(page);
                Matcher testName = TEST_CLASS.matcher(text);
                while (testName.find()) {
                    if (!EXAMPLE_TESTS.contains(testName.group(1))) {
                        found.add(page.getFileName() + ": " + testName.group());
                    }
                }
                for (String words : HISTORY) {
                    if (text.toLowerCase(java.util.Locale.ROOT).contains(words)) {
                        found.add(page.getFileName() + ": \"" + words + "\"");
                    }
                }
            }
        }
        assertThat(found).as("test classes named as evidence, or history, in user pages").isEmpty();
    }

    /** Every tagged region of every example. */
    private static List<String> regions() throws IOException {
        List<String> regions = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(EXAMPLES)) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher tag = Pattern.compile("// tag::([\\w-]+)\\[\\]").matcher(Files.readString(source));
                while (tag.find()) {
                    regions.add(region(Files.readString(source), tag.group(1)));
                }
            }
        }
        return regions;
    }

    /** The lines between {@code // tag::<tag>[]} and {@code // end::<tag>[]}, indentation kept; "" when absent. */
    static String region(String source, String tag) {
        String start = "// tag::" + tag + "[]";
        String end = "// end::" + tag + "[]";
        int from = source.indexOf(start);
        int to = source.indexOf(end);
        if (from < 0 || to < from) {
            return "";
        }
        String region = source.substring(source.indexOf('\n', from) + 1, to);
        return region.substring(0, region.lastIndexOf('\n'));
    }
}
