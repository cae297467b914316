package niolab.course;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import niolab.course.Handout.MarkerException;

/**
 * The regions' stubs, the handout's lines, each region's in the file its manifest names
 * ({@code labs/stubs/<region>.java.txt}): parsed here once, for the handout that puts them in and
 * the grader that tells a region still to write. A stub file holds the handout's lines, indented
 * as if the marker stood at column 0; a region marked in several places takes its parts in the
 * order of the files and lines, each after a line {@code ---- part N ----} (a stub of one part
 * needs none).
 */
final class Stubs {
    static final String DIR = "labs/stubs";
    static final Pattern TODO_LAB = Pattern.compile("TODO lab (\\d+)");
    private static final Pattern PART = Pattern.compile("^---- part (\\d+) ----$");

    private final Map<String, List<List<String>>> parts;
    private final Map<String, Path> files;
    private final Map<String, Integer> used = new HashMap<>();

    Stubs(Map<String, List<List<String>>> parts, Map<String, Path> files) {
        this.parts = parts;
        this.files = files;
    }

    /** One region's stub, for tests: a single part. */
    static Stubs of(String region, String... lines) {
        return new Stubs(Map.of(region, List.of(List.of(lines))), Map.of(region, Paths.get(DIR, region + ".java.txt")));
    }

    /** Every stub file of {@code dir}, each the stub of the region its name starts with (none if the folder is absent). */
    static Stubs read(Path dir) throws IOException {
        Map<String, Path> files = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> all = Files.list(dir)) {
                for (Path f : all.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted().toList()) {
                    String name = f.getFileName().toString();
                    if (files.put(name.substring(0, name.indexOf('.')), f) != null) {
                        throw new MarkerException(f, 1, "a second stub file for region " + name.substring(0, name.indexOf('.')));
                    }
                }
            }
        }
        return read(files);
    }

    /** The stubs of {@code regions}, each from the file its manifest names, under {@code root}. */
    static Stubs read(Path root, java.util.Collection<Course.Region> regions) throws IOException {
        Map<String, Path> files = new TreeMap<>();
        for (Course.Region r : regions) files.put(r.id(), root.resolve(r.stub()));
        return read(files);
    }

    private static Stubs read(Map<String, Path> files) throws IOException {
        Map<String, List<List<String>>> parts = new TreeMap<>();
        for (Map.Entry<String, Path> e : files.entrySet()) parts.put(e.getKey(), parts(e.getValue()));
        return new Stubs(parts, files);
    }

    /** A stub file's parts, each a list of lines. */
    private static List<List<String>> parts(Path f) throws IOException {
        if (!Files.isRegularFile(f)) throw new IOException("no stub file " + f + " (a manifest's [regions] names it)");
        List<String> lines = new ArrayList<>(List.of(Files.readString(f, StandardCharsets.UTF_8).split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) lines.remove(lines.size() - 1); // the final newline
        List<List<String>> ofRegion = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher part = PART.matcher(lines.get(i));
            if (part.matches()) {
                if (Integer.parseInt(part.group(1)) != ofRegion.size() + 1) {
                    throw new MarkerException(f, i + 1, "part " + part.group(1) + " where part " + (ofRegion.size() + 1) + " was due");
                }
                ofRegion.add(new ArrayList<>());
            } else {
                if (ofRegion.isEmpty()) ofRegion.add(new ArrayList<>()); // a stub of one part needs no header
                ofRegion.get(ofRegion.size() - 1).add(lines.get(i));
            }
        }
        return ofRegion;
    }

    /** The next part of {@code region}'s stub, for a region opened at {@code file:line}. */
    List<String> next(String region, Path file, int line) {
        List<List<String>> ofRegion = parts.get(region);
        if (ofRegion == null) throw new MarkerException(file, line, "region " + region + " has no stub: write it in " + DIR + "/" + region + ".java.txt");
        int n = used.merge(region, 1, Integer::sum);
        if (n > ofRegion.size()) {
            throw new MarkerException(file, line, "region " + region + " is marked " + n + " times, its stub " + files.get(region) + " has " + ofRegion.size() + " part(s)");
        }
        return ofRegion.get(n - 1);
    }

    /** The lab whose TODO the region's stub names ({@code TODO lab 3}), or "?" if none does. */
    String lab(String region) {
        for (List<String> part : parts.getOrDefault(region, List.of())) {
            for (String line : part) {
                Matcher m = TODO_LAB.matcher(line);
                if (m.find()) return m.group(1);
            }
        }
        return "?";
    }

    /** The parts no region took, as {@code file: what}; empty when every stub was used. */
    List<String> unused() {
        List<String> left = new ArrayList<>();
        for (Map.Entry<String, List<List<String>>> e : parts.entrySet()) {
            int n = used.getOrDefault(e.getKey(), 0);
            if (n < e.getValue().size()) {
                left.add(files.get(e.getKey()) + ": " + (n == 0 ? "no region " + e.getKey() + " in the sources" : "part " + (n + 1) + " unused"));
            }
        }
        return left;
    }

    /**
     * Whether {@code region} is still its stub in {@code source} (the text of the file holding
     * it): the file holds each part of the stub line for line, indentation and blank lines aside.
     */
    boolean stillStub(String region, String source) {
        String text = "\n" + normalized(source) + "\n";
        for (List<String> part : parts.getOrDefault(region, List.of())) {
            String lines = normalized(String.join("\n", part));
            if (!lines.isEmpty() && !text.contains("\n" + lines + "\n")) return false;
        }
        return parts.containsKey(region);
    }

    private static String normalized(String text) {
        StringJoiner lines = new StringJoiner("\n");
        for (String line : text.split("\n")) {
            if (!line.isBlank()) lines.add(line.strip());
        }
        return lines.toString();
    }
}
