package niolab.common.results;

/**
 * An experiment run's {@code env.json}: the machine, JDK, pinning and kernel limits a reader
 * needs to judge the numbers, written by {@link RunRecorder} ({@code scripts/lib.sh}'s
 * {@code env_json}) and read by the report generator. {@code commit} ends in
 * {@link #DIRTY} when tracked files differed from it.
 */
public record RunEnvironment(String date, String cpu, int cores, String memory, String kernel, String jdk,
                             String javaOpts, String serverCpu, String clientCpu, String ulimitN,
                             String ipLocalPortRange, String tcpTwReuse, String commit) {
    public static final String DIRTY = "(with uncommitted changes)";
}
