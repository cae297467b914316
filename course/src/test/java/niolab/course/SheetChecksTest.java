package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the sheets say a student will see is what the reference solution shows here. A sheet
 * marks a step it promises an outcome for as a fenced block tagged {@code sh check}: commands
 * that work pasted into a shell or a script (the server started with {@code & PID=$!} and
 * stopped with {@code kill $PID}, never Ctrl-C), with {@code $PORT} for every port. Right after
 * the block, one comment line per outcome, {@code <!-- expect: NAME LO..HI -->}: the last
 * {@code NAME=VALUE} (or {@code NAME: VALUE}) the block prints lies in that range, and the
 * sheet's prose states the same range, "LO to HI". The cheap tests check the markup on every
 * build; running the blocks, a few minutes of load on 127.0.0.1 against the built jars
 * ({@code make all} first), is on demand: {@code -Dniolab.course.sheetChecks=true}, which
 * records what it saw in {@code docs/sheet-checks.tsv} ({@code =5,6} runs those labs' blocks
 * alone and keeps what it saw in {@code course/target/}).
 */
class SheetChecksTest {
    private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    private static final Path RECORD = ROOT.resolve("docs/sheet-checks.tsv");
    private static final Pattern EXPECT = Pattern.compile("<!-- expect: (?:([\\w-]+) )?([a-z_]+) (-?[0-9.]+)\\.\\.(-?[0-9.]+) -->");
    private static final Pattern COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    private static final long BLOCK_TIMEOUT_S = 240;

    record Expect(String label, String name, double lo, double hi) {
        String range() {
            return lo == hi ? number(lo) : number(lo) + " to " + number(hi);
        }
    }

    record Check(String sheet, int index, int line, String script, List<Expect> expects) {
        @Override
        public String toString() {
            return sheet + ":" + line;
        }
    }

    /** The checked blocks of one sheet, in order, each with the expectations that follow it. */
    static List<Check> checks(Path sheet) throws IOException {
        List<String> lines = Files.readAllLines(sheet, StandardCharsets.UTF_8);
        List<Check> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```sh check")) continue;
            int start = i + 1;
            StringBuilder script = new StringBuilder();
            for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) script.append(lines.get(i).strip()).append('\n');
            List<Expect> expects = new ArrayList<>();
            for (int j = i + 1; j < lines.size(); j++) {
                Matcher m = EXPECT.matcher(lines.get(j).strip());
                if (!m.matches()) break;
                expects.add(new Expect(m.group(1), m.group(2), Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))));
            }
            out.add(new Check(sheet.getFileName().toString(), out.size() + 1, start, script.toString(), expects));
        }
        return out;
    }

    static List<Path> sheets() throws IOException {
        try (Stream<Path> s = Files.list(ROOT.resolve("labs"))) {
            return s.filter(p -> p.getFileName().toString().matches("0[1-7]-.*\\.md")).sorted().toList();
        }
    }

    static List<Check> allChecks() throws IOException {
        List<Check> all = new ArrayList<>();
        for (Path sheet : sheets()) all.addAll(checks(sheet));
        return all;
    }

    /**
     * The last NAME=VALUE or NAME: VALUE in the output, on a line that starts with "LABEL:" when
     * the expectation has a label (a block that prints the same value for two servers), or null.
     */
    static Double observed(String output, String label, String name) {
        Pattern value = Pattern.compile("(?<![\\w])" + Pattern.quote(name) + "(?:=|: ?)(-?[0-9]+(?:\\.[0-9]+)?)");
        Double last = null;
        for (String line : output.split("\n")) {
            if (label != null && !line.startsWith(label + ":")) continue;
            Matcher m = value.matcher(line);
            while (m.find()) last = Double.parseDouble(m.group(1));
        }
        return last;
    }

    static String number(double v) {
        DecimalFormat f = new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT));
        return f.format(v);
    }

    @Test
    void everySheetChecksAnOutcomeAndStatesEachCheckedRangeInItsProse() throws IOException {
        assertThat(sheets()).hasSize(7);
        for (Path sheet : sheets()) {
            List<Check> checks = checks(sheet);
            assertThat(checks).as("%s: a block tagged sh check", sheet.getFileName()).isNotEmpty();
            String prose = COMMENT.matcher(Files.readString(sheet)).replaceAll("");
            for (Check c : checks) {
                assertThat(c.expects()).as("%s: an <!-- expect: NAME LO..HI --> line right after the block", c).isNotEmpty();
                for (Expect e : c.expects()) {
                    assertThat(e.lo()).as("%s: %s's range", c, e.name()).isLessThanOrEqualTo(e.hi());
                    assertThat(prose).as("%s: the prose states the checked range of %s", c, e.name()).contains(e.range());
                }
            }
        }
    }

    @Test
    void commandsWorkPastedIntoAScript() throws IOException {
        for (Path sheet : sheets()) {
            String text = Files.readString(sheet);
            assertThat(text).as("%s: a server started with & is stopped by its PID, not Ctrl-C", sheet.getFileName())
                    .doesNotContain("Ctrl-C");
            for (Check c : checks(sheet)) {
                assertThat(c.script()).as("%s: every port is $PORT", c).doesNotContainPattern("127\\.0\\.0\\.1:[0-9]|--port [0-9]");
                if (c.script().contains("& PID=$!")) assertThat(c.script()).as("%s: stops its server", c).contains("kill $PID");
            }
        }
    }

    @Test
    void anExpectationReadsTheLastValueNamedAndTheRangeIsWrittenAsTheProseWritesIt() {
        assertThat(observed("stats: selects=3 events=4\nstats: selects=17 empty_selects=99\n", null, "selects")).isEqualTo(17.0);
        assertThat(observed("time_wait: 1250\n", null, "time_wait")).isEqualTo(1250.0);
        assertThat(observed("nothing here", null, "selects")).isNull();
        String two = "standing-write: selects_per_s=81234\ncorrect: selects_per_s=0\n";
        assertThat(observed(two, "standing-write", "selects_per_s")).isEqualTo(81234.0);
        assertThat(observed(two, "correct", "selects_per_s")).isEqualTo(0.0);
        assertThat(observed(two, "other", "selects_per_s")).isNull();
        assertThat(new Expect(null, "x", 1000, 25000).range()).isEqualTo("1,000 to 25,000");
        assertThat(new Expect(null, "x", 0.5, 2).range()).isEqualTo("0.5 to 2");
        assertThat(new Expect(null, "accepts", 300, 300).range()).isEqualTo("300");
    }

    /**
     * Runs every checked block on this tree's built jars, each in a session of its own that is
     * killed whole afterwards, and holds each outcome to its stated range.
     */
    @Test
    @EnabledIfSystemProperty(named = "niolab.course.sheetChecks", matches = "true|[1-7](,[1-7])*",
            disabledReason = "the sheets' checked blocks run on demand (make all first): -Dniolab.course.sheetChecks=true, or =5,6 for some labs")
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void everyCheckedBlockShowsWhatItsSheetSays() throws Exception {
        List<String> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        String labs = System.getProperty("niolab.course.sheetChecks");
        String before = Files.readString(Paths.get("/proc/loadavg")).strip();
        for (Check c : allChecks()) {
            if (!labs.equals("true") && !("," + labs + ",").contains("," + c.sheet().charAt(1) + ",")) continue;
            long t0 = System.nanoTime();
            String output = run(c);
            long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
            for (Expect e : c.expects()) {
                Double v = observed(output, e.label(), e.name());
                boolean ok = v != null && v >= e.lo() && v <= e.hi();
                // by its place among the sheet's checked blocks, which prose edits around it do not move
                rows.add(String.join("\t", c.sheet() + " block " + c.index(), e.label() == null ? e.name() : e.label() + ": " + e.name(), e.range(), v == null ? "none" : number(v), ok ? "ok" : "FAILED",
                        seconds + " s"));
                if (!ok) failures.add(c + ": " + e.name() + " = " + v + ", not " + e.range() + "; output:\n" + tail(output));
            }
        }
        String after = Files.readString(Paths.get("/proc/loadavg")).strip();
        List<String> record = new ArrayList<>();
        record.add("# SheetChecksTest (-Dniolab.course.sheetChecks=" + labs + "): each checked block of labs/0N-*.md run on the reference "
                + "solution; " + Runtime.getRuntime().availableProcessors() + " cores; /proc/loadavg before: " + before + ", after: " + after);
        record.add("block\tvalue\tstated range\tobserved\tresult\tblock time");
        record.addAll(rows);
        // only a run of every lab is the record; some labs' run is kept beside the build
        Files.write(labs.equals("true") ? RECORD : Paths.get("target/sheet-checks.tsv"), record, StandardCharsets.UTF_8);
        assertThat(failures).as("checked blocks whose outcome is outside the sheet's range").isEmpty();
    }

    private static String run(Check c) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // In a directory of its own, beside the tree's bin/, so that the logs it writes stay out of the
        // tree's runs/; without bin/record, whose records are the student's.
        Path dir = Files.createTempDirectory("sheet-check");
        Files.createSymbolicLink(dir.resolve("bin"), ROOT.resolve("bin"));
        String script = c.script().replaceAll("bin/record [1-7] ", "");
        // setsid: the block and every server it starts share a process group, which is killed whole
        // afterwards even when the block stopped before its own kill.
        ProcessBuilder pb = new ProcessBuilder("setsid", "bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PORT", Integer.toString(port));
        Process p = pb.start();
        p.getOutputStream().close();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        reader.start();
        boolean done = p.waitFor(BLOCK_TIMEOUT_S, TimeUnit.SECONDS);
        for (String signal : new String[] {"-TERM", "-KILL"}) {
            new ProcessBuilder("kill", signal, "--", "-" + p.pid()).redirectErrorStream(true).start().waitFor(5, TimeUnit.SECONDS);
            if (signal.equals("-TERM")) Thread.sleep(2000);
        }
        reader.join(10_000);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        }
        if (!done) out.append("\n(the block ran past ").append(BLOCK_TIMEOUT_S).append(" s and was killed)\n");
        return out.toString();
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 15), lines.length));
    }
}
