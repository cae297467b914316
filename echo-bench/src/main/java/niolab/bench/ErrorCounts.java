package niolab.bench;

/** Failed requests, counted by {@link ErrorClass}. */
public final class ErrorCounts {
    private final long[] counts = new long[ErrorClass.values().length];
    private String firstOther;

    public void add(ErrorClass c) {
        counts[c.ordinal()]++;
    }

    public void add(ErrorClass c, String detail) {
        if (c == ErrorClass.OTHER && firstOther == null) firstOther = detail;
        add(c);
    }

    public void addAll(ErrorCounts o) {
        for (int i = 0; i < counts.length; i++) counts[i] += o.counts[i];
        if (firstOther == null) firstOther = o.firstOther;
    }

    public long get(ErrorClass c) {
        return counts[c.ordinal()];
    }

    public long total() {
        long t = 0;
        for (long c : counts) t += c;
        return t;
    }

    /** The message of the first OTHER error, or null. */
    public String firstOther() {
        return firstOther;
    }

    /** {@code refused=0 reset=2 ...}, only the classes that occurred; {@code none} when clean. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (ErrorClass c : ErrorClass.values()) {
            if (counts[c.ordinal()] == 0) continue;
            if (sb.length() > 0) sb.append(' ');
            sb.append(c.label).append('=').append(counts[c.ordinal()]);
        }
        if (firstOther != null) sb.append(" (first other: ").append(firstOther).append(')');
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
