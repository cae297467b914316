package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.InetAddress;

/**
 * Coverage-guided fuzzing of how {@code echo-bench compare} reads a server argument:
 * {@code NAME=HOST:PORT[,pid=PID]} or {@code NAME='COMMAND ... {port}'}. Its contract: a
 * target, or the one {@link CompareTarget.BadTarget} line the user sees, never another
 * exception; a value is a command or an address, and a command's {@code {port}} is replaced by
 * the port; what users write from a name, an address literal, a port and a pid reads back as
 * them. Hosts are IP literals or {@code localhost} only: a fuzzer must not send names to DNS.
 */
class CompareTargetFuzzTest {
    @FuzzTest
    void anyArgument(FuzzedDataProvider data) {
        String arg = data.consumeRemainingAsString();
        int eq = arg.indexOf('=');
        String value = eq >= 0 ? arg.substring(eq + 1) : "";
        if (CompareTarget.isCommand(value)) {
            int port = 1 + Math.floorMod(arg.hashCode(), 65535);
            String command = value.replace(ForkedServer.PORT, Integer.toString(port));
            assertThat(command).doesNotContain(ForkedServer.PORT);
            return;
        }
        if (!literalHost(value)) return;
        try {
            CompareTarget t = CompareTarget.parse(arg);
            assertThat(t.name()).isEqualTo(arg.substring(0, eq));
            assertThat(t.address().getPort()).isBetween(1, 65535);
            assertThat(t.pid()).isGreaterThanOrEqualTo(0);
        } catch (CompareTarget.BadTarget expected) {
            if (arg.indexOf('\n') < 0) assertThat(expected.getMessage()).as("one line").doesNotContain("\n");
        }
    }

    @FuzzTest
    void aWrittenTargetReadsBack(FuzzedDataProvider data) {
        String typed = data.consumeAsciiString(20).replaceAll("[^A-Za-z0-9._+-]", "");
        String name = typed.isEmpty() ? "s" : typed;
        byte[] ip = data.consumeBytes(data.consumeBoolean() ? 4 : 16);
        if (ip.length != 4 && ip.length != 16) return;
        int port = data.consumeInt(1, 65535);
        long pid = data.consumeBoolean() ? data.consumeLong(1, 9_999_999_999L) : 0;
        InetAddress address;
        try {
            address = InetAddress.getByAddress(ip);
        } catch (java.net.UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
        String host = address.getHostAddress();
        String arg = name + "=" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + (pid > 0 ? ",pid=" + pid : "");
        assertThat(CompareTarget.isCommand(arg.substring(name.length() + 1))).as(arg).isFalse();
        CompareTarget t = CompareTarget.parse(arg);
        assertThat(t.name()).isEqualTo(name);
        assertThat(t.address().getAddress()).isEqualTo(address);
        assertThat(t.address().getPort()).isEqualTo(port);
        assertThat(t.pid()).isEqualTo(pid);

        String bad = data.consumeRemainingAsString();
        if (!bad.isEmpty() && !bad.matches("[1-9][0-9]{0,9}")) {
            assertThatThrownBy(() -> CompareTarget.parse(name + "=" + host + ":" + port + ",pid=" + bad)).isInstanceOf(CompareTarget.BadTarget.class);
        }
    }

    /** Whether the host part of HOST:PORT[,pid=PID] needs no name lookup: an IP literal or localhost. */
    private static boolean literalHost(String value) {
        String rest = value.indexOf(',') >= 0 ? value.substring(0, value.indexOf(',')) : value;
        int colon = rest.lastIndexOf(':');
        if (colon <= 0) return true; // refused before any lookup
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        if (host.equals("localhost") || host.matches(IPV4)) return true;
        if (!host.matches("[0-9A-Fa-f:.]+")) return false;
        try {
            InetAddress.getByName("[" + host + "]"); // in brackets, only an IPv6 literal is tried: never a lookup
            return true;
        } catch (java.net.UnknownHostException notALiteral) {
            return false;
        }
    }

    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final String IPV4 = OCTET + "\\." + OCTET + "\\." + OCTET + "\\." + OCTET;
}
