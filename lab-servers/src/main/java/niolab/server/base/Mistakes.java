package niolab.server.base;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * The {@link Mistake}s a server was started with, as final booleans. A loop tests one field at
 * the marked spot ({@code if (mistakes.acceptOnce) return;}): a load and a branch that always
 * goes the same way, no allocation, nothing the correct path pays for measurably.
 *
 * <pre>
 *   Mistakes m = config.mistakes();                   // built once from --mistake and --epoll-exclusive
 *   if (Mistakes.refused(config, Arch.LT)) return 2;  // one line for people: not an lt mistake, ...
 *   label + m.label                                   // "lt, echo, mistake: standing-write"
 * </pre>
 */
public final class Mistakes {
    public final boolean acceptOnce;
    public final boolean readOnce;
    public final boolean standingWrite;
    public final boolean keysNotRemoved;
    public final boolean noAcceptBackoff;
    public final boolean unboundedOutput;
    public final boolean blockingOnLoop;
    public final boolean nagle;
    public final boolean herd;
    public final boolean noLinger;
    /** Not a mistake: the kernel's fix for {@link #herd} on et, one loop woken per connection. */
    public final boolean epollExclusive;
    /** What the ready line adds: empty, or {@code ", mistake: accept-once"}. */
    public final String label;

    Mistakes(Collection<Mistake> mistakes, boolean epollExclusive) {
        Set<Mistake> set = mistakes.isEmpty() ? EnumSet.noneOf(Mistake.class) : EnumSet.copyOf(mistakes);
        acceptOnce = set.contains(Mistake.ACCEPT_ONCE);
        readOnce = set.contains(Mistake.READ_ONCE);
        standingWrite = set.contains(Mistake.STANDING_WRITE);
        keysNotRemoved = set.contains(Mistake.KEYS_NOT_REMOVED);
        noAcceptBackoff = set.contains(Mistake.NO_ACCEPT_BACKOFF);
        unboundedOutput = set.contains(Mistake.UNBOUNDED_OUTPUT);
        blockingOnLoop = set.contains(Mistake.BLOCKING_ON_LOOP);
        nagle = set.contains(Mistake.NAGLE);
        herd = set.contains(Mistake.HERD);
        noLinger = set.contains(Mistake.NO_LINGER);
        this.epollExclusive = epollExclusive;
        StringBuilder b = new StringBuilder();
        for (Mistake m : set) b.append(b.length() == 0 ? (set.size() == 1 ? ", mistake: " : ", mistakes: ") : ", ").append(m.label);
        if (epollExclusive) b.append(", epoll-exclusive");
        label = b.toString();
    }

    /** Prints {@link #check}'s line, if there is one, and says so: the command then exits 2. */
    public static boolean refused(ServerConfig config, Arch arch) {
        String why = check(config, arch);
        if (why != null) System.err.println("error: " + why);
        return why != null;
    }

    /**
     * Why {@code config} cannot run on {@code arch} ({@code lt}, {@code et}; for mp, its
     * workers' architecture), as one line for people; null when they can.
     */
    public static String check(ServerConfig config, Arch arch) {
        for (Mistake m : config.mistakeList()) {
            if (!m.appliesTo(arch)) {
                return "--mistake " + m + " breaks " + m.archs(" and ") + ", not " + arch + " (--help lists the mistakes)";
            }
            if (m.protocol != null && m.protocol != config.protocol()) {
                return "--mistake " + m + " shows with --protocol " + m.protocol + ", not " + config.protocol();
            }
        }
        Mistakes m = config.mistakes();
        if (m.herd && config.loops() < 2) return "--mistake herd needs --loops 2 or more: it shares one listener among the loops";
        if (m.epollExclusive && !(arch == Arch.ET && m.herd)) {
            return "--epoll-exclusive registers the listener --mistake herd shares: et --loops N --mistake herd --epoll-exclusive";
        }
        return null;
    }
}
