package io.quarkiverse.ratelimit.it;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

/**
 * A stub of an LLM, as an OpenAI-compatible API answers: the answer and the tokens it used, prompt and answer
 * ({@code usage.total_tokens}). Deterministic for the demo and its tests: a prompt asking for {@code n words} is answered
 * with {@code n} words (at most the answer's limit), a token a word.
 */
@ApplicationScoped
public class ChatModel {

    private static final Pattern WORDS_ASKED = Pattern.compile("(\\d+) words");

    public record Answer(String text, long totalTokens) {
    }

    /** The tokens of a text: a word each. */
    static long tokens(String text) {
        String trimmed = text == null ? "" : text.trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    public Uni<Answer> complete(String prompt, long maxAnswerTokens) {
        long words = Math.min(maxAnswerTokens, wordsAskedFor(prompt));
        String text = "word ".repeat((int) words).trim();
        return Uni.createFrom().item(new Answer(text, tokens(prompt) + words));
    }

    private static long wordsAskedFor(String prompt) {
        Matcher asked = WORDS_ASKED.matcher(prompt == null ? "" : prompt);
        return asked.find() ? Long.parseLong(asked.group(1)) : 10;
    }
}
