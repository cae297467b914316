package niolab.server.mp;

import niolab.server.Counters;

/**
 * Reads back the {@code name=value} pairs of {@link Counters#format}: a worker prints them on
 * {@code stats:} and {@code counters:} lines, and the master sums what it reads.
 */
final class CountersLine {
    private CountersLine() {
    }

    /** The counters in {@code text} (the part after {@code counters: }); unknown names are ignored. */
    static Counters parse(String text) {
        Counters c = new Counters();
        for (String pair : text.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) continue;
            String name = pair.substring(0, eq);
            long v;
            try {
                v = Long.parseLong(pair.substring(eq + 1));
            } catch (NumberFormatException e) {
                continue; // events_per_wait is derived, not summed
            }
            switch (name) {
                case "accepts": c.accepts = v; break;
                case "accept_failures": c.acceptFailures = v; break;
                case "closes": c.closes = v; break;
                case "reads": c.reads = v; break;
                case "reads_eagain": c.readsEagain = v; break;
                case "writes": c.writes = v; break;
                case "writes_eagain": c.writesEagain = v; break;
                case "partial_writes": c.partialWrites = v; break;
                case "bytes_in": c.bytesIn = v; break;
                case "bytes_out": c.bytesOut = v; break;
                case "resets": c.resets = v; break;
                case "idle_closes": c.idleCloses = v; break;
                case "selects":
                case "epoll_waits": c.waits = v; break;
                case "events": c.events = v; break;
                default: break;
            }
        }
        return c;
    }
}
