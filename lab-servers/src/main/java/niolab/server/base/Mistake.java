package niolab.server.base;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The classic event-loop bugs a server can be started with on purpose, for the course:
 * {@code lab-server et --mistake accept-once}. Each one breaks the loop at one spot, marked in
 * the code with {@code // MISTAKE name:} beside the correct line it replaces, and the server
 * says so on its ready line. The loops test them through {@link Mistakes}' final fields.
 */
public enum Mistake {
    ACCEPT_ONCE("accept-once", "et", null, "one accept per edge: a burst waits in the backlog"),
    READ_ONCE("read-once", "et", null, "one read per edge: echoes stall (try --buffer-size 16)"),
    STANDING_WRITE("standing-write", "lt", null, "OP_WRITE always on: select spins though all are idle"),
    KEYS_NOT_REMOVED("keys-not-removed", "lt", null, "selectedKeys() never cleared: stale keys run again"),
    NO_ACCEPT_BACKOFF("no-accept-backoff", "lt et", null, "no pause after EMFILE: accept spins, logs each failure"),
    UNBOUNDED_OUTPUT("unbounded-output", "lt et", Protocol.ECHO, "echo: reads on while output is pending: memory grows"),
    BLOCKING_ON_LOOP("blocking-on-loop", "lt et", null, "a 1 ms sleep per read on the loop: ~1000 requests/s"),
    NAGLE("nagle", "lt et", Protocol.HTTP, "http: Nagle on, headers and body sent apart: ~40 ms"),
    HERD("herd", "lt et", null, "--loops N poll one listener: all wake, one accepts"),
    NO_LINGER("no-linger", "lt et", Protocol.HTTP, "http: closes at once after a 431: a reset may eat it");

    /** The name users type and the ready line shows. */
    public final String label;
    /** The architectures it breaks, space-separated. */
    public final String archs;
    /** The protocol whose symptom it shows, or null for both. */
    public final Protocol protocol;
    /** One line for {@code --help} (the protocol first when only one shows the symptom). */
    public final String description;

    Mistake(String label, String archs, Protocol protocol, String description) {
        this.label = label;
        this.archs = archs;
        this.protocol = protocol;
        this.description = description;
    }

    @Override
    public String toString() {
        return label;
    }

    public boolean appliesTo(String arch) {
        return (" " + archs + " ").contains(" " + arch + " ");
    }

    /** The {@code --help} lines listing the mistakes {@code arch} can make (mp: every one, with the workers it needs). */
    public static String[] helpLines(String arch) {
        boolean mp = arch.equals("mp");
        List<String> lines = new ArrayList<>();
        lines.add("%nMistakes for the course (--mistake NAME, repeatable):");
        for (Mistake m : values()) {
            if (mp) lines.add(String.format(Locale.ROOT, "  %-17s %-5s %s", m.label, m.archs.replace(' ', ','), m.description));
            else if (m.appliesTo(arch)) lines.add(String.format(Locale.ROOT, "  %-17s %s", m.label, m.description));
        }
        return lines.toArray(new String[0]);
    }

    /** Accepts the names as users type them. */
    public static final class Converter implements ITypeConverter<Mistake> {
        @Override
        public Mistake convert(String value) {
            List<String> known = new ArrayList<>();
            for (Mistake m : values()) {
                if (m.label.equalsIgnoreCase(value.trim())) return m;
                known.add(m.label);
            }
            throw new TypeConversionException("'" + value + "' is not a mistake (" + String.join(", ", known) + ")");
        }
    }
}
