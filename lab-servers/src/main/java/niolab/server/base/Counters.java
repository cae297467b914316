package niolab.server.base;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import niolab.common.CountersLine;

/**
 * What a server did: the {@link Counter} table, one {@code long} per row, written by the loop
 * thread that owns it.
 *
 * <pre>
 *   counters.inc(READS);  counters.add(BYTES_IN, n);      // on the loop thread
 *   out.println("counters: " + counters.format());        // counters: accepts=3 ... events_per_wait=1.25
 *   Counters sum = Counters.parse(line, "epoll_waits");   // what the mp master does with a worker's line
 * </pre>
 *
 * Plain array slots, not atomics: a volatile or atomic increment per event would cost more than
 * the counting is worth. Other threads (the stats printer, the shutdown path) read them; a
 * periodic reading may lag by an event or two. A server whose connections run on many threads
 * ({@code vt}) keeps one table per thread and sums them.
 */
public final class Counters {
    /** The names the {@link Counter#WAITS} row is printed under, one per way of waiting. */
    public static final List<String> WAIT_NAMES = List.of("selects", "epoll_waits", "enters", "waits");
    private static final Counter[] ROWS = Counter.values();

    private final long[] values = new long[ROWS.length];
    private final String waitName;
    private final Set<Counter> extras;

    /** A table printing {@link Counter#WAITS} as {@code waitName} and, besides the common rows, {@code extras}. */
    public Counters(String waitName, Counter... extras) {
        this.waitName = waitName;
        this.extras = extras.length == 0 ? EnumSet.noneOf(Counter.class) : EnumSet.of(extras[0], extras);
    }

    /** Prints {@code rows} too, from now on, even while they are zero. */
    public void declare(Counter... rows) {
        for (Counter c : rows) extras.add(c);
    }

    public void inc(Counter c) {
        values[c.ordinal()]++;
    }

    public void add(Counter c, long n) {
        values[c.ordinal()] += n;
    }

    public long get(Counter c) {
        return values[c.ordinal()];
    }

    public String waitName() {
        return waitName;
    }

    /** Adds another table into this one (the mp master sums its workers, a multi-loop server its loops). */
    public void addAll(Counters o) {
        for (int i = 0; i < values.length; i++) values[i] += o.values[i];
        extras.addAll(o.extras);
    }

    /** The counters line after {@code counters: }: the common rows, the declared extras, then events per wait. */
    public String format() {
        StringBuilder b = new StringBuilder(320);
        for (Counter c : ROWS) {
            if (c.extra && !extras.contains(c)) continue;
            if (b.length() > 0) b.append(' ');
            b.append(c == Counter.WAITS ? waitName : c.label).append('=').append(values[c.ordinal()]);
        }
        long waits = get(Counter.WAITS);
        return b.append(String.format(" events_per_wait=%.2f", waits == 0 ? 0.0 : (double) get(Counter.EVENTS) / waits)).toString();
    }

    /** Reads back a line {@link #format} wrote (with or without its prefix); unknown names are ignored. */
    public static Counters parse(String line, String waitName) {
        Counters c = new Counters(waitName);
        for (Map.Entry<String, Long> e : CountersLine.parse(line).entrySet()) {
            Counter row = Counter.byLabel(e.getKey());
            if (row == null) continue;
            if (row.extra) c.extras.add(row);
            c.values[row.ordinal()] = e.getValue();
        }
        return c;
    }
}
