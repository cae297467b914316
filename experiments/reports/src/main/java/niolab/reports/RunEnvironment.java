package niolab.reports;

/**
 * An experiment run's {@code env.json}, as {@code scripts/lib.sh}'s {@code env_json} writes it:
 * the machine, JDK, pinning and kernel limits a reader needs to judge the numbers. The load,
 * steal time and noise floor come from the run's conditions.json and noise.json where it has
 * them (see {@link Results#environment}); results written before them say "not recorded".
 */
public record RunEnvironment(String date, String cpu, int cores, String memory, String kernel, String jdk,
                             String javaOpts, String serverCpu, String clientCpu, String ulimitN,
                             String ipLocalPortRange, String tcpTwReuse, String commit) {
    static final String DIRTY = "(with uncommitted changes)";

    /**
     * A two-column markdown table, one row per field, values in code spans; {@code load},
     * {@code steal} and {@code noiseFloor} as the run recorded them, or null where it did not.
     */
    public String table(String load, String steal, String noiseFloor) {
        String[][] rows = {
                {"date (UTC)", date}, {"CPU", cpu}, {"cores", Integer.toString(cores)}, {"memory", memory},
                {"kernel", kernel}, {"JDK", jdk}, {"JVM flags (JAVA_OPTS)", javaOpts},
                {"server pinned to CPU", serverCpu}, {"client pinned to CPU", clientCpu},
                {"ulimit -n", ulimitN}, {"ip_local_port_range", ipLocalPortRange},
                {"tcp_tw_reuse", tcpTwReuse}, {"commit", commit},
                {"load average (1 min)", load == null ? "not recorded" : load},
                {"steal time", steal == null ? "not recorded" : steal},
                {"noise floor (A/A)", noiseFloor == null ? "not recorded" : noiseFloor}};
        StringBuilder sb = new StringBuilder("| | |\n|---|---|");
        for (String[] r : rows) {
            String v = r[1] == null || r[1].isEmpty() ? "(none)" : r[1];
            sb.append("\n| ").append(r[0]).append(" | `").append(v.replace("|", "\\|")).append("` |");
        }
        if (commit != null && commit.contains(DIRTY)) {
            sb.append("\n\nThis run was made from a work tree with uncommitted changes: the code that produced these figures"
                    + " is not exactly the recorded commit, and no commit holds it.");
        }
        return sb.toString();
    }
}
