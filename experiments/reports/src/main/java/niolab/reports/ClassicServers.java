package niolab.reports;

/** The seed write-up's three servers, in the order and with the labels the reports that compare them share. */
public final class ClassicServers {
    public static final String[] ARCHS = {"lt", "et", "mp"};
    public static final String[] LABELS = {"LT", "ET", "MP"};

    private ClassicServers() {
    }
}
