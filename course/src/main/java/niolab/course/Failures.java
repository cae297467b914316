package niolab.course;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failed assertion as the grade table shows it: its parts on lines of their own, what a bare
 * network exception means for the server under test, and the server's own error line.
 */
final class Failures {
    private Failures() {
    }

    /**
     * What a bare network exception means for the server under test, where its message alone
     * ("Read timed out", "Connection refused") says neither what was expected nor what came.
     */
    static String meaning(String type) {
        return switch (type) {
            case "java.net.SocketTimeoutException" ->
                "\n    expected: an answer; came: nothing more before the test's socket timeout (the server stalled)";
            case "java.net.ConnectException" ->
                "\n    expected: a server on the port; came: a refused connect (the server had stopped, or never started)";
            case "java.net.SocketException" ->
                "\n    expected: an open connection; came: the server had closed or reset it";
            default -> "";
        };
    }

    /** The first line a server printed as {@code error: ...} (a worker's, {@code [wN] error: ...}, too) in {@code text}, or null. */
    static String serverSaid(String text) {
        Matcher m = SERVER_ERROR.matcher(text);
        return m.find() ? m.group(1).strip() : null;
    }

    /** A failure that says the server was gone: its error line may be under another case of the class. */
    static final Pattern GONE = Pattern.compile("(?i)broken pipe|connection reset|the server closed");

    private static final Pattern SERVER_ERROR = Pattern.compile("(?m)^(?:\\[w\\d+\\] )?(error: \\S.*)$");

    /** Where an assertion's parts start: its description, what was expected, what came instead. */
    private static final Pattern PART = Pattern.compile(
            "(?i)(?<!not )(?=\\b(?:expected:|expecting|but was|but found|but could not|but some|but had|to be |to contain|to have|to match|to start|to end|not to |when comparing))");

    /**
     * The failed assertion on a few lines: its description, then what was expected and what came
     * instead, each part cut at 120 characters, five parts at most, so that a large actual
     * value still leaves the expected one in sight.
     */
    static String summary(String message) {
        String flat = message.replaceAll("\\s+", " ").strip();
        List<String> parts = new ArrayList<>();
        for (String part : PART.split(flat)) {
            if (!part.isBlank()) parts.add(shortened(part.strip(), 120));
        }
        if (parts.size() > 5) {
            int more = parts.size() - 5;
            parts = new ArrayList<>(parts.subList(0, 5));
            parts.add("(" + more + " more parts)");
        }
        return parts.isEmpty() ? "(no message)" : String.join("\n    ", parts);
    }

    /** A line of at most {@code max} characters. */
    static String shortened(String line, int max) {
        return line.length() > max ? line.substring(0, max - 3) + "..." : line;
    }
}
