package niolab.reports;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the experiments found, in {@code experiments/README.md}: the block between
 * {@code <!-- BEGIN GENERATED findings -->} and {@code <!-- END GENERATED findings -->}, filled
 * from {@code experiments/templates/readme-findings.md}, whose {@code {{EXP:key}}} are values the
 * reports compute from their results (the same code: the findings and the reports cannot
 * disagree). {@code make reports} writes it, as {@code make labs} writes the lab sheets' blocks.
 */
final class Findings {
    static final String TEMPLATE = "templates/readme-findings.md";
    private static final Pattern BLOCK = Pattern.compile("(<!-- BEGIN GENERATED findings[^>]*-->\\n)(.*?)(<!-- END GENERATED findings -->)",
            Pattern.DOTALL);

    private Findings() {
    }

    /** The experiments' README, or null when there is none with the block (a handout, a copy). */
    static Path readme(Path experimentsDir) {
        Path readme = experimentsDir.toAbsolutePath().normalize().resolve("README.md");
        try {
            return Files.isRegularFile(readme) && BLOCK.matcher(Files.readString(readme, StandardCharsets.UTF_8)).find() ? readme : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The README with its findings block regenerated from every experiment's results. */
    static String render(Path experimentsDir, String readme) throws IOException {
        return render(experimentsDir, readme, Map.of());
    }

    /**
     * The same, reading the reports already {@code computed} (by name) and computing only the
     * experiments with results that are not among them.
     */
    static String render(Path experimentsDir, String readme, Map<String, Report> computed) throws IOException {
        Report values = new Report();
        for (Experiment e : ExperimentReports.withResults(experimentsDir)) {
            Report one = computed.containsKey(e.name()) ? computed.get(e.name()) : ExperimentReports.compute(experimentsDir, e);
            for (Map.Entry<String, String> v : one.values.entrySet()) values.put(e.name() + ":" + v.getKey(), v.getValue());
        }
        String body = values.fill(Files.readString(experimentsDir.resolve(TEMPLATE), StandardCharsets.UTF_8), TEMPLATE);
        Matcher m = BLOCK.matcher(readme);
        if (!m.find()) throw new IllegalArgumentException("README.md has no <!-- BEGIN GENERATED findings --> block");
        return readme.substring(0, m.end(1)) + body + readme.substring(m.start(3));
    }
}
