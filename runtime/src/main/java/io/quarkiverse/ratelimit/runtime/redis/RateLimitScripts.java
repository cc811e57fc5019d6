package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;

/**
 * The scripts as Redis runs them, assembled from the files in {@code lua/}: the entries {@code rate_limit.lua} (every
 * decision), {@code refund.lua} (giving back what a failed call consumed) and {@code concurrency.lua} (a concurrency
 * lease), {@code reset.lua} (forgetting a limit's state), {@code pause.lua} (an upstream's retry time), {@code adapt.lua}
 * (an adaptive limit lowered by an upstream's 429), {@code fleet.lua} (an instance announcing itself),
 * {@code lease.lua} (a slice of a limit leased to an instance), {@code leased.lua} (what the slices hold, for an
 * operator) and {@code refused.lua} and {@code refused_most.lua} (who is refused most), each a function of
 * {@code (KEYS, ARGV)} defined after
 * {@code prelude.lua} and, for the first two, the table of
 * algorithm modules ({@code lua/<algorithm>.lua}). Assembled two ways:
 * <ul>
 * <li>{@link #library()}: one Redis 7 function library with every entry and every module. Redis runs a library's body
 * once, when it loads it, so a call ({@code FCALL}) runs only its entry function.</li>
 * <li>{@link #decide(int)}, {@link #refund(int)}, {@link #concurrency()}: one script per entry ({@code EVALSHA}), for
 * Redis 6 and for the moment a node has lost the library. Redis runs a script's whole body on every call, building its
 * modules each time, so a script holds only the modules of the algorithms its call uses: one script per set of
 * algorithms (a bit set of {@link Algorithm} ordinals), built on first use.</li>
 * </ul>
 */
public final class RateLimitScripts {

    static final String DECIDE = "rate_limit.lua";
    static final String DECIDE_BATCH = "rate_limit_batch.lua";
    static final String REFUND = "refund.lua";
    static final String CONCURRENCY = "concurrency.lua";
    static final String CANCEL_LEASE = "cancel_lease.lua";
    static final String RESET = "reset.lua";
    static final String PAUSE = "pause.lua";
    static final String ADAPT = "adapt.lua";
    static final String FLEET = "fleet.lua";
    static final String SETTLE = "settle.lua";
    static final String LEASE = "lease.lua";
    static final String LEASED = "leased.lua";
    static final String REFUSED = "refused.lua";
    static final String REFUSED_MOST = "refused_most.lua";
    static final String PRELUDE = "prelude.lua";
    /** The library's hold of a key's writes for a run of a batch's calls ({@code lua/held_state.lua}). */
    static final String HELD_STATE = "held_state.lua";

    /** The files that define an entry function: each is registered in the library and has a script of its own. */
    static final List<String> ENTRIES = List.of(DECIDE, DECIDE_BATCH, REFUND, SETTLE, CONCURRENCY, CANCEL_LEASE,
            RESET, PAUSE, ADAPT, FLEET, LEASE, LEASED, REFUSED, REFUSED_MOST);

    /** The script files in the runtime jar; the deployment module registers them as native-image resources. */
    public static final List<String> FILES = List.of(DECIDE, DECIDE_BATCH, REFUND, PRELUDE, HELD_STATE, CONCURRENCY,
            CANCEL_LEASE, RESET, PAUSE, ADAPT, FLEET, SETTLE, LEASE, LEASED, REFUSED, REFUSED_MOST,
            "fixed_window.lua", "sliding_window_counter.lua", "sliding_window_log.lua", "gcra.lua",
            "calendar_window.lua");

    private static final int SETS = AlgorithmSet.SETS;

    private final String prelude;
    private final String decideSource;
    private final String refundSource;
    private final String pauseSource;
    private final String settleSource;
    private final String leaseSource;
    private final String[] modules = new String[Algorithm.values().length];
    private final LuaLibrary library;
    private final LuaScript concurrency;
    private final LuaScript cancelLease;
    private final LuaScript reset;
    private final LuaScript leased;
    private final LuaScript adapt;
    private final LuaScript fleet;
    private final LuaScript refused;
    private final LuaScript refusedMost;
    /** Immutable scripts published through final fields: a race builds one twice, never half of one. */
    private final LuaScript[] decideBySet = new LuaScript[SETS];
    private final LuaScript[] refundBySet = new LuaScript[SETS];
    private final LuaScript[] pauseBySet = new LuaScript[SETS];
    private final LuaScript[] settleBySet = new LuaScript[SETS];
    private final LuaScript[] leaseBySet = new LuaScript[SETS];

    public RateLimitScripts() {
        this.prelude = LuaScript.load(PRELUDE).source();
        this.decideSource = LuaScript.load(DECIDE).source();
        this.refundSource = LuaScript.load(REFUND).source();
        this.pauseSource = LuaScript.load(PAUSE).source();
        this.settleSource = LuaScript.load(SETTLE).source();
        this.leaseSource = LuaScript.load(LEASE).source();
        String concurrencySource = LuaScript.load(CONCURRENCY).source();
        String cancelLeaseSource = LuaScript.load(CANCEL_LEASE).source();
        String resetSource = LuaScript.load(RESET).source();
        String leasedSource = LuaScript.load(LEASED).source();
        String adaptSource = LuaScript.load(ADAPT).source();
        String fleetSource = LuaScript.load(FLEET).source();
        String refusedSource = LuaScript.load(REFUSED).source();
        String refusedMostSource = LuaScript.load(REFUSED_MOST).source();
        String batchSource = LuaScript.load(DECIDE_BATCH).source();
        for (Algorithm algorithm : Algorithm.values()) {
            modules[algorithm.ordinal()] = LuaScript.load(moduleFile(algorithm)).source();
        }
        String heldState = LuaScript.load(HELD_STATE).source();
        // joined, not concatenated: a concatenation of twenty parts costs a JVM that has just started tens of
        // milliseconds to link (its method handles are built on first use)
        this.library = LuaLibrary.of(String.join("\n", prelude, heldState, algorithms(SETS - 1), decideSource,
                batchSource, refundSource, settleSource, concurrencySource, cancelLeaseSource, resetSource, pauseSource,
                adaptSource, fleetSource, leaseSource, leasedSource, refusedSource, refusedMostSource),
                ENTRIES.stream().map(RateLimitScripts::entryName).toList(), entryName(DECIDE_BATCH));
        this.concurrency = entry("concurrency", concurrencySource, CONCURRENCY);
        this.cancelLease = entry("cancel_lease", cancelLeaseSource, CANCEL_LEASE);
        this.reset = entry("reset", resetSource, RESET);
        this.leased = entry("leased", leasedSource, LEASED);
        this.adapt = entry("adapt", adaptSource, ADAPT);
        this.fleet = entry("fleet", fleetSource, FLEET);
        this.refused = entry("refused", refusedSource, REFUSED);
        this.refusedMost = entry("refused_most", refusedMostSource, REFUSED_MOST);
    }

    /** The script of an entry with no algorithm module: the prelude, the entry's file and its call. */
    private LuaScript entry(String name, String source, String file) {
        return new LuaScript(name, prelude + "\n" + source + entryCall(file), function(file));
    }

    /** The function library with every entry and every algorithm ({@code FUNCTION LOAD}, Redis 7). */
    public LuaLibrary library() {
        return library;
    }

    /** The function of an entry file's code in the library ({@link LuaLibrary#function}). */
    String function(String entryFile) {
        return library.function(entryName(entryFile));
    }

    /** The batch's function ({@code rate_limit_batch.lua}), which has no script of its own. */
    String batchFunction() {
        return function(DECIDE_BATCH);
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
        return bySet(decideBySet, DECIDE, decideSource, algorithmSet);
    }

    /** The refund script ({@code refund.lua}) with the modules of {@code algorithmSet}. */
    public LuaScript refund(int algorithmSet) {
        return bySet(refundBySet, REFUND, refundSource, algorithmSet);
    }

    /** The settlement script ({@code settle.lua}) with the modules of {@code algorithmSet}. */
    public LuaScript settle(int algorithmSet) {
        return bySet(settleBySet, SETTLE, settleSource, algorithmSet);
    }

    /** The pause script ({@code pause.lua}) with the modules of {@code algorithmSet}. */
    public LuaScript pause(int algorithmSet) {
        return bySet(pauseBySet, PAUSE, pauseSource, algorithmSet);
    }

    /** The lease script ({@code lease.lua}: a slice of a limit leased to an instance) with {@code algorithmSet}'s modules. */
    public LuaScript lease(int algorithmSet) {
        return bySet(leaseBySet, LEASE, leaseSource, algorithmSet);
    }

    /** The script of {@code file} with the modules of {@code algorithmSet}, assembled once and kept in {@code built}. */
    private LuaScript bySet(LuaScript[] built, String file, String source, int algorithmSet) {
        LuaScript script = built[algorithmSet];
        if (script == null) {
            script = assemble(file, source, algorithmSet);
            built[algorithmSet] = script;
        }
        return script;
    }

    /** Acquires a concurrency lease ({@code lua/concurrency.lua}). */
    public LuaScript concurrency() {
        return concurrency;
    }

    /** Gives up a concurrency lease nobody waits for ({@code lua/cancel_lease.lua}). */
    public LuaScript cancelLease() {
        return cancelLease;
    }

    /** Lowers an adaptive limit after an upstream's 429, and announces it ({@code lua/adapt.lua}). */
    public LuaScript adapt() {
        return adapt;
    }

    /** Announces an instance to the fleet, or lets it leave, and counts the live ones ({@code lua/fleet.lua}). */
    public LuaScript fleet() {
        return fleet;
    }

    /** Adds an instance's refused callers to this minute's tally ({@code lua/refused.lua}). */
    public LuaScript refused() {
        return refused;
    }

    /** The callers refused most over the last minutes, fleet-wide ({@code lua/refused_most.lua}). */
    public LuaScript refusedMost() {
        return refusedMost;
    }

    /** The units leased out of limits' counts and not given back ({@code lua/leased.lua}). */
    public LuaScript leased() {
        return leased;
    }

    /** Deletes limits' state and announces it ({@code lua/reset.lua}). */
    public LuaScript reset() {
        return reset;
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

    /**
     * The file of an algorithm's module: its module name, but for the token bucket, which is GCRA's module (the time a
     * bucket is full again is GCRA's theoretical arrival time: {@code lua/gcra.lua} says why they decide alike).
     */
    static String moduleFile(Algorithm algorithm) {
        return (algorithm == Algorithm.TOKEN_BUCKET ? moduleName(Algorithm.GCRA) : moduleName(algorithm)) + ".lua";
    }

    /** A name for the set in file names: its modules joined by {@code +}. */
    public static String setName(int algorithmSet) {
        List<String> names = new ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            if (AlgorithmSet.contains(algorithmSet, algorithm)) {
                names.add(moduleName(algorithm));
            }
        }
        return String.join("+", names);
    }

    private LuaScript assemble(String file, String source, int algorithmSet) {
        if (algorithmSet <= 0 || algorithmSet >= SETS) {
            throw new IllegalArgumentException("No algorithm set " + algorithmSet);
        }
        String name = entryName(file) + "[" + setName(algorithmSet) + "]";
        return new LuaScript(name, prelude + "\n" + algorithms(algorithmSet) + "\n" + source + entryCall(file),
                function(file));
    }

    /** {@code ALGORITHMS}, the table of the modules of {@code algorithmSet} by name, each built by its file. */
    private String algorithms(int algorithmSet) {
        StringBuilder table = new StringBuilder("local ALGORITHMS = {\n");
        for (Algorithm algorithm : Algorithm.values()) {
            if (AlgorithmSet.contains(algorithmSet, algorithm)) {
                table.append("  ['").append(moduleName(algorithm)).append("'] = (function()\n")
                        .append(modules[algorithm.ordinal()])
                        .append("\nend)(),\n");
            }
        }
        return table.append("}\n").toString();
    }

    /** An entry file defines {@code local function <file name without .lua>(KEYS, ARGV)}. */
    static String entryName(String file) {
        return file.substring(0, file.length() - ".lua".length());
    }

    /** The end of a script: its entry function called with Redis's KEYS and ARGV. */
    private static String entryCall(String file) {
        return "\nreturn " + entryName(file) + "(KEYS, ARGV)\n";
    }
}
