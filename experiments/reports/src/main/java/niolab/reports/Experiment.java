package niolab.reports;

/** Turns one experiment's raw results into the values and charts its report template uses. */
public interface Experiment {
    /** The name in {@code make exp-NAME}, {@code results/NAME/} and {@code exp-NAME.md}. */
    String name();

    void generate(Results results, Report report);

    /**
     * The smallest difference that matters to this report's comparisons, declared with its reason
     * before any run (an experiment that compares nothing keeps the default).
     */
    default Threshold threshold() {
        return Threshold.DEFAULT;
    }
}
