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
 * in {@code docs/modules/ROOT/examples}, which this application compiles and {@link DocumentedExamplesTest} runs; every
 * Java block of the README is such a region, word for word (GitHub does not include).
 */
class DocumentationExamplesTest {

    private static final Path DOCS = Path.of("..", "docs", "modules", "ROOT");
    private static final Path EXAMPLES = DOCS.resolve("examples");
    private static final Pattern ADOC_JAVA_BLOCK = Pattern.compile("\\[source,java[^\\]]*\\]\\n----\\n(.*?)\\n----",
            Pattern.DOTALL);
    private static final Pattern INCLUDE = Pattern.compile("include::example\\$([^\\[]+)\\[tags?=([^\\]]+)\\]");
    private static final Pattern README_JAVA_BLOCK = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL);

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
                    assertThat(include.matches()).as("a Java block of %s that is not one include of an example:%n%s",
                            page.getFileName(), content).isTrue();
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
        List<String> regions = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(EXAMPLES)) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher tag = Pattern.compile("// tag::([\\w-]+)\\[\\]").matcher(Files.readString(source));
                while (tag.find()) {
                    regions.add(region(Files.readString(source), tag.group(1)));
                }
            }
        }
        Matcher block = README_JAVA_BLOCK.matcher(Files.readString(Path.of("..", "README.md")));
        int blocks = 0;
        while (block.find()) {
            blocks++;
            assertThat(regions).as("the README's Java block is no example's region:%n%s", block.group(1))
                    .contains(block.group(1));
        }
        assertThat(blocks).isPositive();
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
