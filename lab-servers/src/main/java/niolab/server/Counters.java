package niolab.server;

/**
 * What a server did, counted by its event-loop thread.
 *
 * <p>Plain fields, written only by the loop thread: a volatile or atomic increment per event
 * would cost more than the counting is worth. Other threads (the stats printer, the shutdown
 * path after the loop has ended) read them; a periodic reading may lag by an event or two.
 */
public final class Counters {
    public long accepts;
    public long acceptFailures;
    public long closes;
    public long reads;
    public long readsEagain;
    public long writes;
    public long writesEagain;
    public long partialWrites;
    public long bytesIn;
    public long bytesOut;
    public long resets;
    /** select() or epoll_wait() calls that returned. */
    public long waits;
    /** Ready keys or epoll events handled across all waits. */
    public long events;
    public long idleCloses;

    /** One line, {@code name=value} pairs; {@code waitName} is {@code selects} or {@code epoll_waits}. */
    public String format(String waitName) {
        return "accepts=" + accepts
                + " accept_failures=" + acceptFailures
                + " closes=" + closes
                + " reads=" + reads
                + " reads_eagain=" + readsEagain
                + " writes=" + writes
                + " writes_eagain=" + writesEagain
                + " partial_writes=" + partialWrites
                + " bytes_in=" + bytesIn
                + " bytes_out=" + bytesOut
                + " resets=" + resets
                + " idle_closes=" + idleCloses
                + " " + waitName + "=" + waits
                + " events=" + events
                + String.format(" events_per_wait=%.2f", waits == 0 ? 0.0 : (double) events / waits);
    }

    /** Adds another server's counters into this one (the mp master sums its workers). */
    public void add(Counters o) {
        accepts += o.accepts; acceptFailures += o.acceptFailures; closes += o.closes;
        reads += o.reads; readsEagain += o.readsEagain; writes += o.writes;
        writesEagain += o.writesEagain; partialWrites += o.partialWrites;
        bytesIn += o.bytesIn; bytesOut += o.bytesOut; resets += o.resets;
        waits += o.waits; events += o.events; idleCloses += o.idleCloses;
    }
}
