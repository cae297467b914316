package niolab.reports;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import niolab.reports.ProfileCategories.Category;

/**
 * A CPU profile in the collapsed format ({@code frame;frame;frame COUNT} a line, outermost frame
 * first), as async-profiler writes it and {@code make profile} keeps it: its samples by
 * {@link ProfileCategories category} and its call tree, for the flame graph.
 *
 * <pre>
 *   CollapsedProfile p = CollapsedProfile.read(Path.of("target/profile/lt-keepalive.collapsed"));
 *   double parser = p.share(Category.HTTP_PARSER);   // 0.0 .. 1.0
 * </pre>
 */
public final class CollapsedProfile {
    /** A frame of the call tree: its samples (itself and below) and its callees by name. */
    public static final class Node {
        public final String name;
        public long samples;
        public final Map<String, Node> children = new LinkedHashMap<>();

        Node(String name) {
            this.name = name;
        }
    }

    private final Map<Category, Long> byCategory = new EnumMap<>(Category.class);
    public final Node root = new Node("all");

    private CollapsedProfile() {
        for (Category c : Category.values()) byCategory.put(c, 0L);
    }

    /** Reads a collapsed file, gzip-compressed if its name ends in {@code .gz}. */
    public static CollapsedProfile read(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (file.toString().endsWith(".gz")) {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                    bytes = in.readAllBytes();
                }
            }
            return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (run the experiment first)", e);
        }
    }

    /** Parses collapsed text; {@code source} names it in errors. */
    public static CollapsedProfile parse(String text, String source) {
        CollapsedProfile p = new CollapsedProfile();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isBlank()) continue;
            int space = line.lastIndexOf(' ');
            long count;
            try {
                count = space < 0 ? -1 : Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) throw new IllegalArgumentException(source + ":" + lineNo + ": not 'frame;frame COUNT': " + abbreviate(line));
            String stack = line.substring(0, space);
            p.byCategory.merge(ProfileCategories.classify(stack), count, Long::sum);
            p.add(stack, count);
        }
        return p;
    }

    private void add(String stack, long count) {
        Node n = root;
        n.samples += count;
        for (String frame : stack.split(";")) {
            n = n.children.computeIfAbsent(frame, Node::new);
            n.samples += count;
        }
    }

    public long samples() {
        return root.samples;
    }

    /** Samples whose stack passes through a frame containing one of {@code markers} (each counted once). */
    public long samplesThrough(List<String> markers) {
        return through(root, markers);
    }

    private static long through(Node n, List<String> markers) {
        for (String m : markers) if (n.name.contains(m)) return n.samples;
        long sum = 0;
        for (Node c : n.children.values()) sum += through(c, markers);
        return sum;
    }

    public long samples(Category c) {
        return byCategory.get(c);
    }

    /** The category's fraction of all samples, 0 when there are none. */
    public double share(Category c) {
        return root.samples == 0 ? 0 : (double) byCategory.get(c) / root.samples;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
