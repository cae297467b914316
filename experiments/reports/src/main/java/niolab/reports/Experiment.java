package niolab.reports;

/** Turns one experiment's raw results into the values and charts its report template uses. */
public interface Experiment {
    /** The name in {@code make exp-NAME}, {@code results/NAME/} and {@code exp-NAME.md}. */
    String name();

    void generate(Results results, Report report);
}
