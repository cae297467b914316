package niolab.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The relative links of a tree of Markdown files, each checked against the tree: its file must
 * exist (and be one git would commit, where the tree is a git checkout), and its {@code #anchor},
 * when it points into a Markdown file, must name a heading there by GitHub's rules. The links are
 * found by commonmark-java, so a link in a code span or a fenced block is text, as on GitHub. A
 * template (a file in a {@code templates/} directory) is read from the directory it renders into,
 * its {@code templates/}'s parent, since its links are written for the page it becomes. A file
 * that {@code labs/teacher-only.txt} keeps out of the student handout may be linked only from
 * another such file: the handout must have no dead link either.
 *
 * <pre>{@code
 * Path root = MarkdownLinks.repositoryRoot();
 * List<String> dead = new MarkdownLinks(root, MarkdownLinks.committedMarkdown(root)).dead();
 * }</pre>
 */
final class MarkdownLinks {
    /** A scheme ({@code https:}, {@code mailto:}) or a protocol-relative {@code //host}: not ours to check. */
    private static final Pattern EXTERNAL = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*:|//)");
    /** Anchors written as HTML ({@code <a id="x">}, {@code <a name="x">}) count as headings do on GitHub. */
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s[^>]*\\b(?:id|name)\\s*=\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

    /** The globs, relative to the root, of what {@code make handout} leaves out. */
    static final String TEACHER_ONLY = "labs/teacher-only.txt";

    private final Path root;
    private final List<Path> files;
    private final Set<Path> committed;
    private final Parser parser = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();
    private final Map<Path, Set<String>> anchors = new HashMap<>();
    private final List<PathMatcher> teacherOnly = new ArrayList<>();
    private int linksChecked;

    /** {@code files}: the Markdown files to read, relative to {@code root}; their targets may be any file there. */
    MarkdownLinks(Path root, List<Path> files) {
        this.root = root.toAbsolutePath().normalize();
        this.files = files;
        this.committed = gitFiles(this.root, "--others", "--exclude-standard", "--", ".");
        Path list = this.root.resolve(TEACHER_ONLY);
        if (Files.isRegularFile(list)) {
            for (String line : read(list).split("\n")) {
                String glob = line.strip();
                if (!glob.isEmpty() && !glob.startsWith("#")) teacherOnly.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
            }
        }
    }

    /** One line per dead link: {@code file:line: target: why}. */
    List<String> dead() {
        List<String> dead = new ArrayList<>();
        for (Path file : files) {
            Path abs = root.resolve(file).normalize();
            Node doc = parser.parse(read(abs));
            doc.accept(new AbstractVisitor() {
                @Override
                public void visit(Link link) {
                    check(file, abs, link, link.getDestination(), dead);
                    visitChildren(link);
                }

                @Override
                public void visit(Image image) {
                    check(file, abs, image, image.getDestination(), dead);
                    visitChildren(image);
                }
            });
        }
        return dead;
    }

    /** How many relative links {@link #dead()} looked at: a check that saw none proves nothing. */
    int linksChecked() {
        return linksChecked;
    }

    private void check(Path file, Path abs, Node at, String destination, List<String> dead) {
        if (destination == null || destination.isEmpty() || EXTERNAL.matcher(destination).find()) return;
        linksChecked++;
        int hash = destination.indexOf('#');
        String path = decode(hash < 0 ? destination : destination.substring(0, hash));
        String fragment = hash < 0 ? "" : decode(destination.substring(hash + 1));
        Path target = path.isEmpty() ? abs
                : path.startsWith("/") ? root.resolve(path.substring(1)).normalize() : baseOf(abs).resolve(path).normalize();
        String where = file.toString().replace('\\', '/') + ":" + line(at) + ": " + destination + ": ";
        if (!target.startsWith(root)) {
            dead.add(where + "points outside the repository");
        } else if (!Files.exists(target)) {
            dead.add(where + "no such file");
        } else if (committed != null && !isCommitted(target)) {
            dead.add(where + "not a file git would commit");
        } else if (!fragment.isEmpty() && target.toString().endsWith(".md") && !anchorsOf(target).contains(fragment)) {
            dead.add(where + "no heading with that anchor in " + root.relativize(target).toString().replace('\\', '/'));
        } else if (isTeacherOnly(target) && !isTeacherOnly(abs)) {
            dead.add(where + "left out of the student handout (" + TEACHER_ONLY + "), so dead there");
        }
    }

    private boolean isTeacherOnly(Path file) {
        Path relative = root.relativize(file);
        for (PathMatcher m : teacherOnly) {
            if (m.matches(relative)) return true;
        }
        return false;
    }

    private static Path baseOf(Path mdFile) {
        Path dir = mdFile.getParent();
        return dir.getFileName() != null && dir.getFileName().toString().equals("templates") ? dir.getParent() : dir;
    }

    private boolean isCommitted(Path target) {
        if (committed.contains(target)) return true;
        if (!Files.isDirectory(target)) return false;
        for (Path p : committed) {
            if (p.startsWith(target)) return true;
        }
        return false;
    }

    /** The anchors GitHub gives a file's headings (a repeated slug gets -1, -2, ...), and its HTML anchors. */
    private Set<String> anchorsOf(Path mdFile) {
        return anchors.computeIfAbsent(mdFile, f -> {
            Set<String> found = new HashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            parser.parse(read(f)).accept(new AbstractVisitor() {
                @Override
                public void visit(Heading heading) {
                    String slug = slug(text(heading));
                    int n = seen.merge(slug, 1, Integer::sum) - 1;
                    found.add(n == 0 ? slug : slug + "-" + n);
                }

                @Override
                public void visit(HtmlInline html) {
                    htmlAnchors(html.getLiteral(), found);
                }

                @Override
                public void visit(HtmlBlock html) {
                    htmlAnchors(html.getLiteral(), found);
                }
            });
            return found;
        });
    }

    private static void htmlAnchors(String html, Set<String> found) {
        Matcher m = HTML_ANCHOR.matcher(html);
        while (m.find()) found.add(m.group(1));
    }

    /**
     * GitHub's anchor for a heading's text (github-slugger): lower case, every character dropped
     * that is not a letter, a digit, a mark, {@code -} or {@code _}, and each space a {@code -}.
     */
    static String slug(String headingText) {
        StringBuilder sb = new StringBuilder();
        headingText.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (c == ' ') sb.append('-');
            else if (c == '-' || c == '_' || Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK) sb.appendCodePoint(c);
        });
        return sb.toString();
    }

    /** The text a heading shows: its words and code spans, without the markup around them. */
    private static String text(Node node) {
        StringBuilder sb = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                sb.append(text.getLiteral());
            }

            @Override
            public void visit(Code code) {
                sb.append(code.getLiteral());
            }
        });
        return sb.toString().strip();
    }

    private static int line(Node node) {
        return node.getSourceSpans().isEmpty() ? 0 : node.getSourceSpans().get(0).getLineIndex() + 1;
    }

    /** Percent-escapes decoded; a {@code +} stays a plus, as in a URL's path. */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) return s;
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository's root: the topmost directory above the working directory that holds a pom.xml. */
    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath().normalize();
        Path root = null;
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pom.xml"))) root = d;
        }
        if (root == null) throw new IllegalStateException("no pom.xml above " + dir);
        return root;
    }

    /**
     * The Markdown files of {@code root} that git has (tracked: a scratch file of one's own is not
     * checked), relative to it; where git or the checkout is missing (a copied tree, a handout),
     * every .md file outside build output and dot directories.
     */
    static List<Path> committedMarkdown(Path root) {
        Set<Path> git = gitFiles(root, "--", "*.md");
        List<Path> files = new ArrayList<>();
        if (git != null) {
            for (Path p : git) {
                if (Files.isRegularFile(p)) files.add(root.relativize(p));
            }
        } else {
            walk(root, files);
        }
        files.sort(null);
        return files;
    }

    private static void walk(Path root, List<Path> files) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    boolean skip = !dir.equals(root) && (name.startsWith(".") || name.equals("target") || name.equals("node_modules") || name.equals("node"));
                    return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.getFileName().toString().endsWith(".md")) files.add(root.relativize(file));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The files git tracks under {@code root} (and with {@code --others --exclude-standard} those
     * it would add), absolute; null when {@code root} is no git checkout or git cannot say within 30 s.
     */
    static Set<Path> gitFiles(Path root, String... options) {
        if (!Files.exists(root.resolve(".git"))) return null;
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString(), "ls-files", "-z", "--cached"));
        command.addAll(List.of(options));
        try {
            Path out = Files.createTempFile("niolab-ls-files", ".txt");
            try {
                Process git = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(out.toFile())
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                if (!git.waitFor(30, TimeUnit.SECONDS)) {
                    git.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    return null;
                }
                if (git.exitValue() != 0) return null;
                Set<Path> files = new HashSet<>();
                for (String name : Files.readString(out, StandardCharsets.UTF_8).split("\0")) {
                    if (!name.isEmpty()) files.add(root.resolve(name).normalize());
                }
                return files;
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
