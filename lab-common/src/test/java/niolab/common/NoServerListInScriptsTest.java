package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The scripts read their servers from the catalog ({@code selection NAME}, {@code server_words},
 * {@code catalog_field}): no line of code in scripts/, experiments/scripts/, bench.sh, bin/ or the
 * Makefile lists two catalog names in a row, or starts one as {@code NAME:NAME}. Comments may
 * name servers; a list there describes a default, and the code is what runs. Nor does the Java
 * of the reports, the course or the tools that run servers hold an array or {@code List.of} of
 * three or more catalog names: they read a selection. (A pair names one comparison, a claim's
 * server and its baseline, and stays where the claim is declared.)
 */
class NoServerListInScriptsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final String NAMES = nameAlternation();
    /** A catalog name as a whole word, not part of a path, a variable, a longer name or a spec. */
    private static final String NAME = "(?<![\\w./$:-])" + NAMES + "(?![\\w:-])";
    /** Two or more catalog names separated by spaces, commas or bars: {@code lt et mp}, {@code lt,c}, {@code lt|et}. */
    private static final Pattern LIST = Pattern.compile(NAME + "(?:[ ,|]+" + NAME + ")+");
    /** A Java array or List.of of three or more quoted catalog names: {@code {"lt", "et", "mp"}}. */
    private static final Pattern JAVA_LIST = Pattern.compile("(?:\\{|List\\.of\\()\\s*\"" + NAMES + "\"(?:\\s*,\\s*\"" + NAMES + "\"){2,}\\s*[})]");
    /** A compare spec naming a server twice: {@code lt:lt}, {@code lt-a:lt}. */
    private static final Pattern SPEC = Pattern.compile("(?<![\\w./$:-])" + NAMES + "(?:-[ab])?:" + NAMES + "(?![\\w-])");

    @Test
    void noScriptListsServers() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : scripts()) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                for (String hit : hits(lines.get(i))) found.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + hit);
            }
        }
        assertThat(found).as("server lists outside the catalog (use selection NAME, server_words, catalog_field)").isEmpty();
    }

    @Test
    void noJavaClassListsServers() throws IOException {
        List<String> found = new ArrayList<>();
        for (String dir : new String[] {"experiments/reports/src/main/java", "course/src/main/java", "lab-servers/src/main/java",
                "echo-bench/src/main/java", "aot-training/src/main/java"}) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")).sorted()::iterator) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        Matcher m = JAVA_LIST.matcher(lines.get(i));
                        while (m.find()) found.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found).as("server lists in Java outside the catalog (use ServerCatalog.selection)").isEmpty();
        assertThat(JAVA_LIST.matcher("String[] HTTP = {\"lt\", \"et\", \"mp\"};").find()).isTrue();
        assertThat(JAVA_LIST.matcher("List.of(\"lt\", \"et\", \"mp\", \"netty-nio\")").find()).isTrue();
        assertThat(JAVA_LIST.matcher("claim(\"vt\", \"vt\", \"lt\")").find()).isFalse();
    }

    @Test
    void aListIsFound() {
        assertThat(hits("for a in lt et mp; do")).containsExactly("lt et mp");
        assertThat(hits("  compare ab.json 1 lt:lt vt:vt")).containsExactly("lt:lt", "vt:vt");
        assertThat(hits("summarize --ratios server=lt,c")).containsExactly("lt,c");
        assertThat(hits("# lt et mp in a comment")).isEmpty();
        assertThat(hits("SERVERS=${SERVERS:-$(selection http)}; start_server lt \"$PORT\"")).isEmpty();
        assertThat(hits("make -s reference; rm -rf \"$dir/c\" build/lt-b.txt")).isEmpty();
    }

    /** The lists on a line of code; none on a comment line. */
    private static List<String> hits(String line) {
        List<String> hits = new ArrayList<>();
        if (line.strip().startsWith("#")) return hits;
        for (Pattern p : new Pattern[] {LIST, SPEC}) {
            Matcher m = p.matcher(line);
            while (m.find()) hits.add(m.group());
        }
        return hits;
    }

    /** Every catalog name, longest first, as one group. */
    private static String nameAlternation() {
        List<String> names = new ArrayList<>();
        for (ServerCatalog.Server s : ServerCatalog.servers()) names.add(Pattern.quote(s.name()));
        names.sort(Comparator.comparingInt(String::length).reversed());
        return "(?:" + String.join("|", names) + ")";
    }

    private static List<Path> scripts() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("bench.sh"), ROOT.resolve("Makefile")));
        for (String dir : new String[] {"scripts", "experiments/scripts", "bin"}) {
            try (Stream<Path> s = Files.list(ROOT.resolve(dir))) {
                s.filter(Files::isRegularFile).sorted().forEach(files::add);
            }
        }
        return files;
    }
}
