package niolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The tree states invariants and reasons, not a diary: no "issue NN" and no dated prose in any
 * tracked text file. A figure measured once lives in a report computed from its results; a date
 * says when, which the history already knows, and an issue number names a tracker the reader of
 * the tree does not have.
 */
class TreeTextTest {
    static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?\\d+\\b");
    private static final String MONTH = "(January|February|March|April|May|June|July|August|September|October|November|December)";
    /** A day and a month in either order, or a month and a year: "1 December", "December 1", "December 2026". */
    static final Pattern DATE = Pattern.compile("\\b\\d{1,2} " + MONTH + "\\b|\\b" + MONTH + " \\d{1,4}\\b");

    /** Files allowed to match, each with the reason; an entry that no longer matches fails too, so the list shrinks. */
    private static final Map<String, String> EXCEPTIONS = Map.of(
            "LICENSE", "the Apache License's own text, which names its version's date",
            "docs/suite-times.tsv", "a log of measured suite times: each row's note says when and on what it ran",
            "test-kit/src/test/java/niolab/testkit/TreeTextTest.java", "this test's own examples");

    @Test
    void noTrackedTextFileNamesAnIssueOrADateOutsideTheExceptions() throws IOException {
        Path root = MarkdownLinks.repositoryRoot();
        Set<Path> tracked = MarkdownLinks.gitFiles(root);
        Assumptions.assumeTrue(tracked != null, "not a git checkout: the tracked files are unknown");
        List<String> found = new ArrayList<>();
        List<String> excepted = new ArrayList<>();
        int read = 0;
        for (Path file : tracked) {
            String name = root.relativize(file).toString().replace('\\', '/');
            // the committed results are data the runs wrote, with their timestamps
            if (name.startsWith("experiments/results/") || !Files.isRegularFile(file)) continue;
            String text = text(file);
            if (text == null) continue;
            read++;
            List<String> hits = hits(text);
            if (hits.isEmpty()) continue;
            if (EXCEPTIONS.containsKey(name)) excepted.add(name);
            else for (String hit : hits) found.add(name + ":" + hit);
        }
        assertThat(read).as("text files read").isGreaterThan(200);
        assertThat(found).as("issue numbers and dates in the tree (file:line: match); state the reason instead").isEmpty();
        assertThat(excepted).as("exceptions that still match (drop the others from EXCEPTIONS)")
                .containsExactlyInAnyOrderElementsOf(EXCEPTIONS.keySet().stream().filter(f -> Files.exists(root.resolve(f))).toList());
    }

    @Test
    void theGrepFindsIssueNumbersAndDatesAndNotTheirLookAlikes() {
        assertThat(hits("as issue 28 quotes it\nsee Issues #3\nmeasured on 1 December\nDecember 2026\nsince May 4"))
                .containsExactly("1: issue 28", "2: Issues #3", "3: 1 December", "4: December 2026", "5: May 4");
        assertThat(hits("it may 4 times\nthis issue is\n10 requests, March of the clients\nseed 28\nmp --workers 4")).isEmpty();
    }

    /** Each match as "line: text", one per match. */
    static List<String> hits(String text) {
        List<String> hits = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            for (Pattern p : List.of(ISSUE, DATE)) {
                Matcher m = p.matcher(lines[i]);
                while (m.find()) hits.add((i + 1) + ": " + m.group());
            }
        }
        return hits;
    }

    /** The file as UTF-8 text, or null for a binary file (a NUL byte, or bytes that are not UTF-8). */
    private static String text(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) if (b == 0) return null;
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
