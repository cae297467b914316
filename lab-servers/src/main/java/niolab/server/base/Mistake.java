package niolab.server.base;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The classic event-loop bugs a server can be started with on purpose, for the course:
 * {@code lab-server et --mistake accept-once}. Each one breaks the loop at one spot, marked in
 * the code with {@code // MISTAKE name:} beside the correct line it replaces, and the server
 * says so on its ready line. The loops test them through {@link Mistakes}' final fields.
 */
public enum Mistake {
    ACCEPT_ONCE("accept-once", On.ET, null, "one accept per edge: a burst waits in the backlog"),
    READ_ONCE("read-once", On.ET, null, "one read per edge: echoes stall (try --buffer-size 16)"),
    STANDING_WRITE("standing-write", On.LT, null, "OP_WRITE always on: select spins though all are idle"),
    KEYS_NOT_REMOVED("keys-not-removed", On.LT, null, "selectedKeys() never cleared: stale keys run again"),
    NO_ACCEPT_BACKOFF("no-accept-backoff", On.LT_ET, null, "no pause after EMFILE: accept spins, logs each failure"),
    UNBOUNDED_OUTPUT("unbounded-output", On.LT_ET, Protocol.ECHO, "echo: reads on while output is pending: memory grows"),
    BLOCKING_ON_LOOP("blocking-on-loop", On.LT_ET, null, "a 1 ms sleep per read on the loop: ~1000 requests/s"),
    NAGLE("nagle", On.LT_ET, Protocol.HTTP, "http: Nagle on, headers and body sent apart: ~40 ms"),
    HERD("herd", On.LT_ET, null, "--loops N poll one listener: all wake, one accepts"),
    NO_LINGER("no-linger", On.LT_ET, Protocol.HTTP, "http: closes at once after a 431: a reset may eat it");

    // Constants of a constant's own class: an enum's initialisers may not read its own statics.
    private static final class On {
        static final Set<Arch> LT = EnumSet.of(Arch.LT);
        static final Set<Arch> ET = EnumSet.of(Arch.ET);
        static final Set<Arch> LT_ET = EnumSet.of(Arch.LT, Arch.ET);
    }

    /** The name users type and the ready line shows. */
    public final String label;
    /** The architectures it breaks. */
    public final Set<Arch> archs;
    /** The protocol whose symptom it shows, or null for both. */
    public final Protocol protocol;
    /** One line for {@code --help} (the protocol first when only one shows the symptom). */
    public final String description;

    Mistake(String label, Set<Arch> archs, Protocol protocol, String description) {
        this.label = label;
        this.archs = archs;
        this.protocol = protocol;
        this.description = description;
    }

    @Override
    public String toString() {
        return label;
    }

    public boolean appliesTo(Arch arch) {
        return archs.contains(arch);
    }

    /** The architectures it breaks, joined by {@code separator}: {@code lt,et}. */
    public String archs(String separator) {
        return archs.stream().map(Arch::toString).collect(Collectors.joining(separator));
    }

    /** The {@code --help} lines listing the mistakes {@code arch} can make (mp: every one, with the workers it needs). */
    public static String[] helpLines(Arch arch) {
        boolean mp = arch == Arch.MP;
        List<String> lines = new ArrayList<>();
        lines.add("%nMistakes for the course (--mistake NAME, repeatable):");
        for (Mistake m : values()) {
            if (mp) lines.add(String.format(Locale.ROOT, "  %-17s %-5s %s", m.label, m.archs(","), m.description));
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
