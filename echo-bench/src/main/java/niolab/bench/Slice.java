package niolab.bench;

/**
 * One server's slice of one round of {@code echo-bench compare}: what it served, its rate, its
 * tail and the server's CPU per request (NaN without a pid). {@code seconds} is the slice's
 * measured length; {@code rate} is decided by the load that ran it ({@link SliceLoad}).
 * {@code refused} marks a slice in which every connect was refused: the server is gone.
 * {@code round} counts over all forks; {@code fork} (from 1) is the fresh set of server processes it ran against.
 */
record Slice(int fork, int round, int position, String server, long requests, long errors, double seconds, double rate,
        double p50Us, double p99Us, double serverCpuUsPerRequest, boolean refused) {
    static Slice refused(int fork, int round, int position, String server) {
        return new Slice(fork, round, position, server, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, true);
    }

    /** A slice that served something can be paired with the other servers' slices of its round. */
    boolean served() {
        return requests > 0;
    }
}
