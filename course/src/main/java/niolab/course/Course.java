package niolab.course;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The course as its labs' manifests declare it: one file a lab, {@code labs/NN-name/lab.tsv}
 * beside its sheet {@code labs/NN-name.md}, read here and nowhere else by every course tool (the
 * grader, the handout, the notes, the hand-in, the whole-course proof).
 *
 * <p>A manifest is a few tables, each under a {@code [section]} line; a row's fields are
 * tab-separated, blank lines and {@code #} comments are skipped, and a row with the wrong number
 * of fields is an error naming its line:
 * <ul>
 * <li>{@code [regions]} region, the source file holding it, its stub (the handout's lines): the
 *     regions this lab owns, which the student writes.</li>
 * <li>{@code [checkpoints]} id, points, module, test ({@code class} or {@code class#method}),
 *     what it checks, hint: what {@code make grade LAB=N} runs and scores, in dependency order
 *     (a checkpoint after those whose failure would break it too). 0 points: given, the stubs
 *     pass it too.</li>
 * <li>{@code [hints]} id, region, when, hint: under a failed checkpoint, the first row of it
 *     whose {@code when} (a case-insensitive regex, {@code *} for any) matches the failed
 *     assertion, the region it blames, and its hint ({@code -}: the checkpoint's own).</li>
 * <li>{@code [needs]} id, regions: the regions of other labs a checkpoint runs (comma-separated),
 *     as grading the lab with every other lab's regions as stubs finds them (HandoutTest, on
 *     demand); while one is still its stub the grader names that lab first instead of blaming
 *     this one, and a grade of this lab covers them. The id {@code steps} stands for the sheet's own steps (a run
 *     the sheet measures): they join the sheet's generated needs line, not the grade.</li>
 * <li>{@code [bugs]} checkpoint, region, the reference line, the broken line ({@code \n} for a
 *     line break): a classic mistake the whole-course proof plants in the region's file and the
 *     checkpoint must catch. Teacher-only: the handout's manifests leave this section out.</li>
 * </ul>
 */
public final class Course {
    /** Where the labs live, relative to the lab's root. */
    public static final String LABS = "labs";
    static final String MANIFEST = "lab.tsv";
    static final String BUGS = "bugs";
    /** The [needs] id of the sheet's steps, which no grading runs. */
    public static final String STEPS = "steps";
    private static final Pattern LAB_DIR = Pattern.compile("(\\d\\d)-[a-z0-9-]+");
    private static final Pattern SECTION = Pattern.compile("^\\[([a-z]+)\\]\\s*$");
    private static final Map<String, Integer> FIELDS = Map.of("regions", 3, "checkpoints", 6, "hints", 4, "needs", 2, BUGS, 4);

    /** A region the student writes: its lab, the file that holds it, its stub's file (paths relative to the root). */
    public record Region(String id, int lab, String file, String stub) {
    }

    /** A checkpoint: a test (class or class#method) of a module, scored {@code points}. */
    public record Checkpoint(int lab, String id, int points, String module, String test, String checks, String hint) {
        /** The test class, fully qualified. */
        public String testClass() {
            int hash = test.indexOf('#');
            return hash < 0 ? test : test.substring(0, hash);
        }

        /** The test method, or null for the whole class. */
        public String method() {
            int hash = test.indexOf('#');
            return hash < 0 ? null : test.substring(hash + 1);
        }

        /** A checkpoint of 0 points is given: it runs and shows, and scores nothing, since the stub passes it too. */
        public boolean given() {
            return points == 0;
        }

        /** The command that runs this checkpoint alone. */
        String alone() {
            return "make grade LAB=" + lab + " ONLY=" + id;
        }
    }

    /** A hint row: the region a failure of checkpoint {@code id} blames and, when {@code when} (null: any) matches, its text ("-": the checkpoint's). */
    public record Hint(String id, String region, Pattern when, String text) {
    }

    /** A planted mistake: {@code line} of the region's file becomes {@code broken}, and {@code checkpoint} fails. */
    public record Bug(int lab, String checkpoint, String region, String line, String broken) {
    }

    /** One lab: its number, its folder's name (the sheet is {@code labs/NAME.md}), and its manifest's tables. */
    public record Lab(int number, String name, List<Region> regions, List<Checkpoint> checkpoints, List<Hint> hints,
            Map<String, List<String>> needs, List<Bug> bugs) {
        /** The sheet, relative to the root. */
        public String sheet() {
            return LABS + "/" + name + ".md";
        }
    }

    private final List<Lab> labs;
    private final Map<String, Region> regions = new LinkedHashMap<>();

    private Course(List<Lab> labs) {
        this.labs = labs;
        for (Lab l : labs) {
            for (Region r : l.regions()) regions.put(r.id(), r);
        }
    }

    /** Every lab's manifest under {@code root}, in the labs' order. */
    public static Course read(Path root) throws IOException {
        List<Lab> labs = new ArrayList<>();
        Path dir = root.resolve(LABS);
        if (!Files.isDirectory(dir)) throw new IOException("no " + LABS + "/ folder in " + root.toAbsolutePath().normalize() + ": run this in the lab's root");
        List<Path> folders;
        try (Stream<Path> all = Files.list(dir)) {
            folders = all.filter(p -> LAB_DIR.matcher(p.getFileName().toString()).matches() && Files.isRegularFile(p.resolve(MANIFEST)))
                    .sorted().toList();
        }
        for (Path f : folders) labs.add(lab(f.resolve(MANIFEST)));
        if (labs.isEmpty()) throw new IOException("no lab manifest under " + dir + " (labs/NN-name/" + MANIFEST + ")");
        Course course = new Course(labs);
        course.check(dir);
        return course;
    }

    private static Lab lab(Path file) throws IOException {
        String name = file.getParent().getFileName().toString();
        int n = Integer.parseInt(name.substring(0, 2));
        Map<String, List<String[]>> t = tables(file);
        List<Region> regions = new ArrayList<>();
        for (String[] f : t.get("regions")) regions.add(new Region(f[0], n, f[1], f[2]));
        List<Checkpoint> checkpoints = new ArrayList<>();
        for (String[] f : t.get("checkpoints")) {
            try {
                checkpoints.add(new Checkpoint(n, f[0], Integer.parseInt(f[1]), f[2], f[3], f[4], f[5]));
            } catch (NumberFormatException e) {
                throw new IllegalStateException(file + ": checkpoint " + f[0] + ": the points are a whole number, not '" + f[1] + "'");
            }
        }
        List<Hint> hints = new ArrayList<>();
        for (String[] f : t.get("hints")) {
            hints.add(new Hint(f[0], f[1], f[2].equals("*") ? null : Pattern.compile(f[2], Pattern.CASE_INSENSITIVE), f[3]));
        }
        Map<String, List<String>> needs = new LinkedHashMap<>();
        for (String[] f : t.get("needs")) needs.put(f[0], List.of(f[1].split("\\s*,\\s*")));
        List<Bug> bugs = new ArrayList<>();
        for (String[] f : t.get(BUGS)) bugs.add(new Bug(n, f[0], f[1], unescaped(f[2]), unescaped(f[3])));
        return new Lab(n, name, List.copyOf(regions), List.copyOf(checkpoints), List.copyOf(hints), needs, List.copyOf(bugs));
    }

    /** The manifest's tables by section (each present, maybe empty), each row's fields stripped. */
    private static Map<String, List<String[]>> tables(Path file) throws IOException {
        Map<String, List<String[]>> tables = new LinkedHashMap<>();
        for (String s : FIELDS.keySet()) tables.put(s, new ArrayList<>());
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String section = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) continue;
            var header = SECTION.matcher(line);
            if (header.matches()) {
                section = header.group(1);
                if (!FIELDS.containsKey(section)) throw new IllegalStateException(file + ":" + (i + 1) + ": no section [" + section + "]: " + FIELDS.keySet());
                continue;
            }
            if (section == null) throw new IllegalStateException(file + ":" + (i + 1) + ": a row before any [section]");
            String[] f = line.split("\t");
            if (f.length != FIELDS.get(section)) {
                throw new IllegalStateException(file + ":" + (i + 1) + ": [" + section + "] rows have " + FIELDS.get(section)
                        + " tab-separated fields, this one " + f.length);
            }
            for (int k = 0; k < f.length; k++) f[k] = f[k].strip();
            tables.get(section).add(f);
        }
        return tables;
    }

    private static String unescaped(String field) {
        return field.replace("\\n", "\n");
    }

    /** Ids unique across the course, and every hint, need and bug naming a checkpoint and regions that exist. */
    private void check(Path dir) {
        Set<String> ids = new LinkedHashSet<>();
        for (Checkpoint c : checkpoints()) {
            if (!ids.add(c.id())) throw new IllegalStateException(dir + ": checkpoint " + c.id() + " is declared twice");
        }
        for (Lab l : labs) {
            String where = dir.resolve(l.name()).resolve(MANIFEST).toString();
            for (Hint h : l.hints()) known(where, "hint", h.id(), ids, h.region().equals("-") ? List.of() : List.of(h.region()));
            for (Map.Entry<String, List<String>> e : l.needs().entrySet()) {
                known(where, "need", e.getKey(), e.getKey().equals(STEPS) ? Set.of(STEPS) : ids, e.getValue());
            }
            for (Bug b : l.bugs()) known(where, "bug", b.checkpoint(), ids, List.of(b.region()));
        }
    }

    private void known(String where, String what, String id, Set<String> ids, Collection<String> regionIds) {
        if (!ids.contains(id)) throw new IllegalStateException(where + ": a " + what + " of checkpoint " + id + ", which no lab declares");
        for (String r : regionIds) {
            if (!regions.containsKey(r)) throw new IllegalStateException(where + ": a " + what + " of " + id + " names region " + r + ", which no lab declares");
        }
    }

    public List<Lab> labs() {
        return labs;
    }

    /** Lab {@code n}, or null. */
    public Lab lab(int n) {
        for (Lab l : labs) {
            if (l.number() == n) return l;
        }
        return null;
    }

    /** Every checkpoint, lab by lab, each lab's in its order. */
    public List<Checkpoint> checkpoints() {
        List<Checkpoint> all = new ArrayList<>();
        for (Lab l : labs) all.addAll(l.checkpoints());
        return all;
    }

    /** Every hint row, in order: the first that matches a failure wins. */
    public List<Hint> hints() {
        List<Hint> all = new ArrayList<>();
        for (Lab l : labs) all.addAll(l.hints());
        return all;
    }

    /** Checkpoint id to the regions of other labs it runs (the sheets' steps left out). */
    public Map<String, List<String>> needs() {
        Map<String, List<String>> all = new LinkedHashMap<>();
        for (Lab l : labs) all.putAll(l.needs());
        all.remove(STEPS);
        return all;
    }

    public List<Bug> bugs() {
        List<Bug> all = new ArrayList<>();
        for (Lab l : labs) all.addAll(l.bugs());
        return all;
    }

    /** Every region, by id, in the labs' order. */
    public Map<String, Region> regions() {
        return regions;
    }

    /**
     * The labs a class must take with {@code chosen}: those, and every lab whose regions their
     * checkpoints or steps run ([needs], steps included), and so on, in order.
     */
    public Set<Integer> withNeeds(Collection<Integer> chosen) {
        Set<Integer> taken = new TreeSet<>();
        List<Integer> todo = new ArrayList<>(chosen);
        while (!todo.isEmpty()) {
            int n = todo.remove(todo.size() - 1);
            if (!taken.add(n) || lab(n) == null) continue;
            for (List<String> needed : lab(n).needs().values()) {
                for (String r : needed) todo.add(regions.get(r).lab());
            }
        }
        return taken;
    }

    /**
     * The labs whose regions a grade of {@code lab} runs: the lab itself and the owners of the
     * regions its checkpoints need, in order.
     */
    public Set<Integer> gradedWith(int lab) {
        Set<Integer> labs = new TreeSet<>(List.of(lab));
        Lab l = lab(lab);
        if (l == null) return labs;
        for (Map.Entry<String, List<String>> e : l.needs().entrySet()) {
            if (e.getKey().equals(STEPS)) continue;
            for (String r : e.getValue()) labs.add(regions.get(r).lab());
        }
        return labs;
    }
}
