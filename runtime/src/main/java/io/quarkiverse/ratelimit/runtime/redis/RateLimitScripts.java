package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * The scripts as Redis runs them, assembled from the files in {@code lua/}: {@code rate_limit.lua} (every decision)
 * and {@code refund.lua} (giving back what a failed call consumed), each with {@code prelude.lua} and the module of
 * every algorithm a call uses inlined, and {@code concurrency.lua} with the prelude.
 * <p>
 * A call's script holds only the modules of the algorithms its limits use: Redis runs a script's whole body on every
 * call, so a module the call does not need would cost CPU on every decision. There is one script per set of
 * algorithms (a bit set of {@link Algorithm} ordinals), built on first use.
 */
public final class RateLimitScripts {

    static final String DECIDE = "rate_limit.lua";
    static final String REFUND = "refund.lua";
    static final String CONCURRENCY = "concurrency.lua";
    static final String PRELUDE = "prelude.lua";
    private static final String PRELUDE_MARKER = "--@prelude";
    private static final String ALGORITHMS_MARKER = "  --@algorithms";

    /** The script files in the runtime jar; the deployment module registers them as native-image resources. */
    public static final List<String> FILES = List.of(DECIDE, REFUND, PRELUDE, CONCURRENCY, "fixed_window.lua",
            "sliding_window_counter.lua", "sliding_window_log.lua", "token_bucket.lua", "gcra.lua");

    private static final int SETS = 1 << Algorithm.values().length;

    private final String decideSource;
    private final String refundSource;
    private final String[] modules = new String[Algorithm.values().length];
    private final LuaScript concurrency;
    /** Immutable scripts published through final fields: a race builds one twice, never half of one. */
    private final LuaScript[] decideBySet = new LuaScript[SETS];
    private final LuaScript[] refundBySet = new LuaScript[SETS];

    public RateLimitScripts() {
        String prelude = LuaScript.load(PRELUDE).source();
        this.decideSource = replaceMarker(DECIDE, LuaScript.load(DECIDE).source(), PRELUDE_MARKER, prelude);
        this.refundSource = replaceMarker(REFUND, LuaScript.load(REFUND).source(), PRELUDE_MARKER, prelude);
        this.concurrency = new LuaScript(CONCURRENCY,
                replaceMarker(CONCURRENCY, LuaScript.load(CONCURRENCY).source(), PRELUDE_MARKER, prelude));
        for (Algorithm algorithm : Algorithm.values()) {
            modules[algorithm.ordinal()] = LuaScript.load(moduleName(algorithm) + ".lua").source();
        }
    }

    /** The set of algorithms {@code limits} use, as {@link #decide(int)} and {@link #refund(int)} take it. */
    public static int algorithmSet(List<LimitDefinition> limits) {
        int set = 0;
        for (int i = 0; i < limits.size(); i++) {
            set |= 1 << limits.get(i).getAlgorithm().ordinal();
        }
        return set;
    }

    /** Every set of one algorithm and the set of all of them. */
    public static List<Integer> singleAndAllAlgorithmSets() {
        List<Integer> sets = new ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            sets.add(1 << algorithm.ordinal());
        }
        sets.add(SETS - 1);
        return sets;
    }

    /** The decision script ({@code rate_limit.lua}) with the modules of {@code algorithmSet}. */
    public LuaScript decide(int algorithmSet) {
        LuaScript script = decideBySet[algorithmSet];
        if (script == null) {
            script = assemble(DECIDE, decideSource, algorithmSet);
            decideBySet[algorithmSet] = script;
        }
        return script;
    }

    /** The refund script ({@code refund.lua}) with the modules of {@code algorithmSet}. */
    public LuaScript refund(int algorithmSet) {
        LuaScript script = refundBySet[algorithmSet];
        if (script == null) {
            script = assemble(REFUND, refundSource, algorithmSet);
            refundBySet[algorithmSet] = script;
        }
        return script;
    }

    /** Acquires a concurrency lease ({@code lua/concurrency.lua}). */
    public LuaScript concurrency() {
        return concurrency;
    }

    private static final String[] MODULE_NAMES = new String[Algorithm.values().length];

    static {
        for (Algorithm algorithm : Algorithm.values()) {
            MODULE_NAMES[algorithm.ordinal()] = algorithm.name().toLowerCase(Locale.ROOT);
        }
    }

    /** The module an algorithm's limits name in {@code ARGV}: its file name without {@code .lua}. */
    public static String moduleName(Algorithm algorithm) {
        return MODULE_NAMES[algorithm.ordinal()];
    }

    /** A name for the set in file names: its modules joined by {@code +}. */
    public static String setName(int algorithmSet) {
        List<String> names = new ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            if ((algorithmSet & (1 << algorithm.ordinal())) != 0) {
                names.add(moduleName(algorithm));
            }
        }
        return String.join("+", names);
    }

    private LuaScript assemble(String file, String source, int algorithmSet) {
        if (algorithmSet <= 0 || algorithmSet >= SETS) {
            throw new IllegalArgumentException("No algorithm set " + algorithmSet);
        }
        StringBuilder inlined = new StringBuilder();
        for (Algorithm algorithm : Algorithm.values()) {
            if ((algorithmSet & (1 << algorithm.ordinal())) != 0) {
                inlined.append("  ['").append(moduleName(algorithm)).append("'] = (function()\n")
                        .append(modules[algorithm.ordinal()])
                        .append("\nend)(),\n");
            }
        }
        String name = file.replace(".lua", "") + "[" + setName(algorithmSet) + "]";
        return new LuaScript(name, replaceMarker(file, source, ALGORITHMS_MARKER, inlined.toString().stripTrailing()));
    }

    private static String replaceMarker(String file, String source, String marker, String replacement) {
        int at = source.indexOf(marker);
        if (at < 0 || source.indexOf(marker, at + 1) >= 0) {
            throw new IllegalStateException(file + " must hold the line " + marker.trim() + " exactly once");
        }
        return source.substring(0, at) + replacement + source.substring(at + marker.length());
    }
}
