package niolab.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * The registry: every experiment the generator knows, in the order {@code make reports}
 * renders them.
 *
 * <p>Adding experiment NAME (say {@code uring}) takes four files and one line:
 * <ol>
 *   <li>{@code experiments/scripts/exp-NAME.sh} runs it: it sets {@code NAME}, sources
 *       {@code common.sh} (a fresh {@code results/NAME/} with {@code env.json}), writes its raw
 *       files there (echo-bench {@code --json}, CSV, server logs) and ends with {@code report};</li>
 *   <li>{@code experiments/templates/exp-NAME.md} is the report's text, with a {@code {{key}}}
 *       wherever a number, table or winner goes ({@code {{env}}} is always there); a sentence that
 *       depends on the run is there once per case, {@code {{?key=case}}...{{/?}}}, kept where the
 *       generator put that case, and one said in several places is defined once,
 *       {@code {{=key}}...{{/=}}}, and quoted as {@code {{key}}} ({@link Report#fill});</li>
 *   <li>{@code UringExperiment implements Experiment}, one class, reads the raw files through
 *       {@link Results} ({@link Results#bench}, {@link Results#csv}, {@link Results#counters}),
 *       summarises them with {@link Stats}, formats with {@link Md}, draws with {@link SvgChart},
 *       and puts every key of the template into the {@link Report};</li>
 *   <li>one line in {@link #ALL} below, the name in the Makefile's {@code EXPERIMENTS}
 *       ({@code make exp-NAME}) and a row in {@code experiments/README.md}'s table, in this order
 *       ({@code ExperimentsTableTest} fails on a row or a name missing);</li>
 *   <li>commit the results with the generated {@code exp-NAME.md} and charts:
 *       {@code ExperimentReportsTest} fails while they differ from what the results regenerate.</li>
 * </ol>
 */
public final class Experiments {
    private static final List<Experiment> ALL = List.of(
            new ShortRunExperiment(),
            new LongRunExperiment(),
            new ConcurrencyExperiment(),
            new SyscallsExperiment(),
            new TimeWaitExperiment(),
            new HttpExperiment(),
            new NetworkExperiment(),
            new MistakesExperiment(),
            new BackendExperiment(),
            new ColdStartExperiment(),
            new FfiExperiment(),
            new UringExperiment(),
            new ArchitecturesExperiment(),
            new NoiseExperiment(),
            new ProfileExperiment(),
            new VtExperiment());

    private Experiments() {
    }

    public static List<Experiment> all() {
        return ALL;
    }

    public static Experiment byName(String name) {
        List<String> known = new ArrayList<>();
        for (Experiment e : ALL) {
            if (e.name().equals(name)) return e;
            known.add(e.name());
        }
        throw new IllegalArgumentException("no experiment named '" + name + "' (known: " + String.join(", ", known) + ")");
    }
}
