package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Collection;

/**
 * The name in use a misspelt one most likely meant: the closest by edit distance (letters inserted, deleted, replaced
 * or two swapped), if it is close enough to be a slip rather than another name.
 */
final class ClosestName {

    private ClosestName() {
    }

    /** {@code "; did you mean 'greeting'?"}, or {@code ""} when no name in use is close to {@code name}. */
    static String suggestion(String name, Collection<String> inUse) {
        String closest = null;
        int best = Integer.MAX_VALUE;
        for (String candidate : inUse) {
            int distance = distance(name, candidate);
            if (distance < best) {
                best = distance;
                closest = candidate;
            }
        }
        // a slip changes a letter or two; a third of a short name is already another name
        return closest != null && best <= Math.max(1, Math.min(2, name.length() / 3)) ? "; did you mean '" + closest + "'?"
                : "";
    }

    /** The optimal string alignment distance: insertions, deletions, replacements and swaps of two neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int replace = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + replace);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
