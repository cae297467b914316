package niolab.reports;

/** The original write-up's three servers, in the order and with the labels the reports that compare them share. */
public final class ClassicServers {
    public static final String[] ARCHS = niolab.common.ServerCatalog.selection("short-run").toArray(new String[0]);
    public static final String[] LABELS = labels(ARCHS);

    private static String[] labels(String[] archs) {
        String[] labels = new String[archs.length];
        for (int i = 0; i < archs.length; i++) labels[i] = archs[i].toUpperCase(java.util.Locale.ROOT);
        return labels;
    }

    private ClassicServers() {
    }
}
