package niolab.reports;

/**
 * An experiment run's {@code env.json}, as {@code experiments/scripts/env.sh} writes it: the
 * machine, JDK, pinning and kernel limits a reader needs to judge the numbers.
 */
public record RunEnvironment(String date, String cpu, int cores, String memory, String kernel, String jdk,
                             String javaOpts, String serverCpu, String clientCpu, String ulimitN,
                             String ipLocalPortRange, String tcpTwReuse, String commit) {

    /** A two-column markdown table, one row per field, values in code spans. */
    public String table() {
        String[][] rows = {
                {"date (UTC)", date}, {"CPU", cpu}, {"cores", Integer.toString(cores)}, {"memory", memory},
                {"kernel", kernel}, {"JDK", jdk}, {"JVM flags (JAVA_OPTS)", javaOpts},
                {"server pinned to CPU", serverCpu}, {"client pinned to CPU", clientCpu},
                {"ulimit -n", ulimitN}, {"ip_local_port_range", ipLocalPortRange},
                {"tcp_tw_reuse", tcpTwReuse}, {"commit", commit}};
        StringBuilder sb = new StringBuilder("| | |\n|---|---|");
        for (String[] r : rows) {
            String v = r[1] == null || r[1].isEmpty() ? "(none)" : r[1];
            sb.append("\n| ").append(r[0]).append(" | `").append(v.replace("|", "\\|")).append("` |");
        }
        return sb.toString();
    }
}
