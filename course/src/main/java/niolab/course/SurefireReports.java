package niolab.course;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import niolab.course.Course.Checkpoint;
import niolab.course.Scoring.Outcome;
import niolab.course.Scoring.Score;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Surefire's XML, read here and nowhere else: a checkpoint's outcome from its test class's report,
 * and the line that ends {@code make test} ({@link #summary}), summing every module's reports.
 */
final class SurefireReports {
    private SurefireReports() {
    }

    /**
     * A report's root element. A report still being written (the grading polls for them) fails
     * to parse: the exception says so, and the parser prints nothing on the student's terminal.
     */
    private static Element parse(Path report) throws Exception {
        DocumentBuilder builder = DocumentBuilderFactory.newInstance().newDocumentBuilder();
        builder.setErrorHandler(new DefaultHandler());
        return builder.parse(report.toFile()).getDocumentElement();
    }

    /** Where Surefire writes the report of a checkpoint's test class. */
    static Path reportOf(Path root, Checkpoint c) {
        return root.resolve(c.module()).resolve("target/surefire-reports/TEST-" + c.testClass() + ".xml");
    }

    /** A checkpoint's outcome from its test class's report: a pass only when the test ran and every case passed. */
    static Score score(Path root, Checkpoint c) {
        Path report = reportOf(root, c);
        if (!Files.isRegularFile(report)) return new Score(c, Outcome.NOT_RUN, "no test report: did the build fail? (see Maven's output in " + MavenRun.LOG + ")");
        NodeList cases;
        try {
            cases = parse(report).getElementsByTagName("testcase");
        } catch (Exception e) {
            return new Score(c, Outcome.NOT_RUN, "unreadable test report " + report + ": " + e.getMessage());
        }
        int ran = 0, skipped = 0;
        String failed = null, message = "", type = "";
        for (int i = 0; i < cases.getLength(); i++) {
            Element t = (Element) cases.item(i);
            if (!isCaseOf(c, t.getAttribute("name"))) continue;
            ran++;
            if (has(t, "skipped")) {
                skipped++;
            } else if (failed == null && (has(t, "failure") || has(t, "error"))) {
                failed = t.getAttribute("name");
                message = failureText(t);
                type = failureType(t);
            }
        }
        if (ran == 0) return new Score(c, Outcome.NOT_RUN, "the test did not run: is " + c.test() + " spelled as in its class?");
        if (failed != null) {
            String line = message.strip().split("\n", 2)[0].strip();
            String said = Failures.serverSaid(message);
            if (said == null && (type.equals("java.net.ConnectException") || Failures.GONE.matcher(message).find())) {
                said = serverSaid(c, cases); // the server died, as another case of the checkpoint, or the class's, may say
            }
            return new Score(c, Outcome.FAIL, failed + " failed: " + Failures.summary(message) + Failures.meaning(type)
                    + (said == null ? "" : "\nthe server said: " + Failures.shortened(said, 160)) + "\nrun it alone: " + c.alone()
                    + " (the report: " + root.relativize(report) + ")", line);
        }
        if (skipped == ran) return new Score(c, Outcome.NOT_APPLICABLE, "skipped on this machine (an assumption did not hold)");
        return new Score(c, Outcome.PASS, null);
    }

    /** A parameterized case is reported as {@code method(String)[1]}. */
    private static boolean isCaseOf(Checkpoint c, String caseName) {
        String m = c.method();
        return m == null || caseName.equals(m) || caseName.startsWith(m + "(") || caseName.startsWith(m + "[");
    }

    /**
     * What the failed assertion said: the failure's (or error's) message; without one (an
     * exception with no message), its type and the first line of its trace.
     */
    private static String failureText(Element testcase) {
        NodeList f = testcase.getElementsByTagName(has(testcase, "failure") ? "failure" : "error");
        Element e = (Element) f.item(0);
        String message = e.getAttribute("message");
        if (!message.isBlank()) return message;
        String trace = e.getTextContent().strip();
        return e.getAttribute("type") + (trace.isEmpty() ? "" : "\n" + trace.split("\n", 2)[0]);
    }

    /** The class of the failure's (or error's) exception, as the report names it, or "". */
    private static String failureType(Element testcase) {
        NodeList f = testcase.getElementsByTagName(has(testcase, "failure") ? "failure" : "error");
        return ((Element) f.item(0)).getAttribute("type");
    }

    /**
     * The first {@code error: ...} line in a failure or error of the checkpoint's own cases or of
     * the class itself ({@code initializationError}: a shared server that died says why there).
     */
    private static String serverSaid(Checkpoint c, NodeList cases) {
        for (int i = 0; i < cases.getLength(); i++) {
            Element t = (Element) cases.item(i);
            if (!isCaseOf(c, t.getAttribute("name")) && !t.getAttribute("name").equals("initializationError")) continue;
            if (!has(t, "failure") && !has(t, "error")) continue;
            String said = Failures.serverSaid(failureText(t));
            if (said != null) return said;
        }
        return null;
    }

    private static boolean has(Element testcase, String child) {
        return testcase.getElementsByTagName(child).getLength() > 0;
    }

    static void deleteReports(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) Files.deleteIfExists(f);
        }
    }

    /**
     * The line {@code make test} ends with, summing the Surefire reports of every module (one or
     * two folders deep): {@code tests: N passed, N failed, N skipped}, and, when some were
     * skipped, what for, grouped by the capability a skip names (test-kit's Capability writes
     * {@code [label] why}) or by its whole reason when it names none:
     * {@code (3 for io_uring: the kernel refuses it; 1 for needs root)}. This and the grading
     * read Surefire's XML here and nowhere else; {@code scripts/test-summary.sh} runs it.
     */
    static String summary(Path root) throws IOException {
        List<Path> reports = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root, 5)) {
            for (Path p : all.filter(f -> f.getFileName().toString().startsWith("TEST-") && f.toString().endsWith(".xml")).sorted().toList()) {
                Path dir = root.relativize(p).getParent();
                // module/target/surefire-reports or group/module/target/surefire-reports
                if (dir != null && dir.endsWith(Paths.get("target", "surefire-reports")) && dir.getNameCount() <= 4) reports.add(p);
            }
        }
        long run = 0, failed = 0, skipped = 0;
        Map<String, int[]> count = new LinkedHashMap<>();
        Map<String, String> first = new HashMap<>();
        for (Path report : reports) {
            Element suite;
            try {
                suite = parse(report);
            } catch (Exception e) {
                throw new IOException("unreadable test report " + report + ": " + e.getMessage());
            }
            run += number(suite, "tests");
            failed += number(suite, "failures") + number(suite, "errors");
            skipped += number(suite, "skipped");
            NodeList skips = suite.getElementsByTagName("skipped");
            for (int i = 0; i < skips.getLength(); i++) {
                String why = skipReason((Element) skips.item(i));
                if (why.isEmpty()) continue;
                String key = why;
                Matcher label = Pattern.compile("^\\[([^]]*)\\] ").matcher(why);
                if (label.find()) {
                    key = label.group(1);
                    why = why.substring(label.end());
                }
                count.computeIfAbsent(key, k -> new int[1])[0]++;
                first.putIfAbsent(key, why);
            }
        }
        StringJoiner detail = new StringJoiner("; ", " (", ")").setEmptyValue("");
        for (Map.Entry<String, int[]> e : count.entrySet()) {
            String why = first.get(e.getKey());
            detail.add(e.getValue()[0] + " for " + (e.getKey().equals(why) ? "" : e.getKey() + ": ") + why);
        }
        return String.format(Locale.ROOT, "%ntests: %d passed, %d failed, %d skipped%s%n", run - failed - skipped, failed, skipped, detail);
    }

    private static long number(Element suite, String attribute) {
        String v = suite.getAttribute(attribute);
        return v.isEmpty() ? 0 : Long.parseLong(v.strip());
    }

    /** Why a case was skipped: the message, or the first line of the exception in the body; "Assumption failed: " dropped. */
    private static String skipReason(Element skipped) {
        String why = skipped.getAttribute("message");
        if (why.isBlank()) {
            String body = skipped.getTextContent().strip();
            String line = body.isEmpty() ? "" : body.split("\n", 2)[0];
            int colon = line.indexOf(": ");
            why = colon < 0 ? "" : line.substring(colon + 2);
        }
        return why.replaceFirst("^Assumption failed: ", "").strip();
    }
}
