package niolab.server.base;

import java.util.Locale;

/**
 * The lab's architectures, as {@code lab-server <arch>} names them and the ready line shows them.
 * The constants repeat the catalog's architectures on purpose: code that acts per architecture
 * (mistakes, the backend's default posture, mp's workers) names them where a misspelling fails to
 * compile, and {@code ServerCatalogCoverageTest} fails when the two lists differ.
 */
public enum Arch {
    LT, ET, VT, URING, MP, BIO;

    /** The name users type: {@code lt}, {@code et}... */
    public final String label = name().toLowerCase(Locale.ROOT);

    @Override
    public String toString() {
        return label;
    }

    /** The architecture {@code label} names, or null if it names none. */
    public static Arch of(String label) {
        for (Arch a : values()) {
            if (a.label.equals(label)) return a;
        }
        return null;
    }
}
