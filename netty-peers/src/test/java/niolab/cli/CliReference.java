package niolab.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.bench.EchoBench;
import niolab.netty.NettyPeers;
import niolab.server.LabServer;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * docs/cli/: the command-line reference, one Markdown page per command and subcommand, rendered
 * from picocli's model of bin/lab-server (the lab's servers and the Netty peers) and bin/echo-bench,
 * so that the reference says what the parser accepts and nothing else. {@code make docs} runs this
 * file in java's source-file mode over the built jars ({@code java -cp JARS CliReference.java DIR});
 * CliReferenceTest renders into a temporary directory and fails when docs/cli/ differs.
 *
 * <p>It lives in netty-peers' tests because the peers are the last of the parsers' modules to be
 * built: lab-servers is a dependency already and echo-bench a test one, so the module sees every
 * command, and the modules after it need not wait for it. Hidden options are rendered too, marked so: a reference leaves nothing the parser
 * accepts unexplained.
 */
public final class CliReference {
    private CliReference() {
    }

    /** Renders every page into {@code dir}: {@code java -cp JARS CliReference.java docs/cli}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java -cp JARS CliReference.java DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            for (Path p : (Iterable<Path>) old::iterator) if (p.toString().endsWith(".md")) Files.delete(p);
        }
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
        System.out.println("wrote " + pages().size() + " pages to " + dir);
    }

    /** The commands the reference covers: each launcher's root, whose subcommands follow. */
    public static List<CommandSpec> roots() {
        return List.of(LabServer.commandLine().getCommandSpec(), NettyPeers.commandLine().getCommandSpec(),
                new CommandLine(new EchoBench()).getCommandSpec());
    }

    /** Every command, roots and subcommands, in page order. */
    public static List<CommandSpec> commands() {
        List<CommandSpec> all = new ArrayList<>();
        for (CommandSpec root : roots()) {
            // the Netty peers' root is bin/lab-server again: its subcommands are pages, it is not
            if (!(root.userObject() instanceof NettyPeers)) all.add(root);
            addSubcommands(root, all);
        }
        return all;
    }

    private static void addSubcommands(CommandSpec spec, List<CommandSpec> into) {
        for (CommandLine sub : spec.subcommands().values()) {
            into.add(sub.getCommandSpec());
            addSubcommands(sub.getCommandSpec(), into);
        }
    }

    /** File name to Markdown, README.md (the index) first. */
    public static Map<String, String> pages() {
        Map<String, String> pages = new LinkedHashMap<>();
        StringBuilder index = new StringBuilder("# Command-line reference\n\n")
                .append("Generated from the code by `make docs` (netty-peers' CliReference): do not edit these pages;\n")
                .append("a test fails when they differ from what the parsers accept. `bin/lab-server c` (the C reference\n")
                .append("server, reference/) takes lt's options and is not listed here.\n\n");
        for (CommandSpec spec : commands()) {
            String file = fileName(spec);
            pages.put(file, page(spec));
            String description = spec.usageMessage().description().length > 0 ? firstSentence(spec.usageMessage().description()[0]) : "";
            index.append("- [`").append(spec.qualifiedName(" ")).append("`](").append(file).append(")")
                    .append(description.isEmpty() ? "" : ": " + description).append('\n');
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        ordered.put("README.md", index.toString());
        ordered.putAll(pages);
        return ordered;
    }

    static String fileName(CommandSpec spec) {
        return spec.qualifiedName("-") + ".md";
    }

    static String page(CommandSpec spec) {
        StringBuilder md = new StringBuilder("# `").append(spec.qualifiedName(" ")).append("`\n\n");
        md.append("[All commands](README.md)");
        if (spec.parent() != null) md.append(" · [`").append(spec.parent().qualifiedName(" ")).append("`](").append(fileName(spec.parent())).append(")");
        md.append("\n\n");
        String synopsis = new CommandLine.Help(spec, new CommandLine.Help.ColorScheme.Builder(CommandLine.Help.Ansi.OFF).build()).synopsis(0);
        md.append("```text\n").append(synopsis.strip()).append("\n```\n\n");
        prose(md, spec.usageMessage().description());
        if (!spec.positionalParameters().isEmpty()) {
            md.append("## Arguments\n\n| Argument | Default | Description |\n|---|---|---|\n");
            for (PositionalParamSpec p : spec.positionalParameters()) {
                md.append("| `").append(cellCode(p.paramLabel())).append("` | ").append(defaultOf(p)).append(" | ").append(cell(p)).append(" |\n");
            }
            md.append('\n');
        }
        if (!spec.options().isEmpty()) {
            md.append("## Options\n\n| Option | Default | Description |\n|---|---|---|\n");
            for (OptionSpec o : spec.options()) {
                md.append("| ").append(names(o)).append(" | ").append(defaultOf(o)).append(" | ")
                        .append(o.hidden() ? "(hidden from `--help`: for programs, not people) " : "").append(cell(o)).append(" |\n");
            }
            md.append('\n');
        }
        if (!spec.subcommands().isEmpty()) {
            md.append("## Subcommands\n\n");
            for (CommandLine sub : spec.subcommands().values()) {
                CommandSpec s = sub.getCommandSpec();
                String[] d = s.usageMessage().description();
                md.append("- [`").append(s.qualifiedName(" ")).append("`](").append(fileName(s)).append(")")
                        .append(d.length > 0 ? ": " + firstSentence(d[0]) : "").append('\n');
            }
            md.append('\n');
        }
        if (!spec.usageMessage().exitCodeList().isEmpty()) {
            md.append("## Exit codes\n\n");
            for (Map.Entry<String, String> e : spec.usageMessage().exitCodeList().entrySet()) {
                md.append("- `").append(e.getKey().strip()).append("`: ").append(format(e.getValue())).append('\n');
            }
            md.append('\n');
        }
        if (spec.usageMessage().footer().length > 0) {
            md.append("## Notes\n\n");
            prose(md, spec.usageMessage().footer());
        }
        return md.toString().strip() + "\n";
    }

    /** Lines as picocli prints them: indented runs (examples) become code blocks, the rest paragraphs. */
    private static void prose(StringBuilder md, String[] lines) {
        List<String> all = new ArrayList<>();
        for (String line : lines) all.addAll(List.of(format(line).split("\n", -1)));
        boolean code = false;
        boolean blank = true;
        for (String line : all) {
            boolean indented = line.startsWith("  ");
            // picocli's headings start with %n: in Markdown a paragraph break is one blank line
            if (line.isBlank() && blank) continue;
            blank = line.isBlank();
            if (indented && !code) md.append("```text\n");
            if (!indented && code) md.append("```\n");
            code = indented;
            md.append(indented ? line.substring(2).stripTrailing() : line.strip()).append('\n');
        }
        if (code) md.append("```\n");
        md.append('\n');
    }

    private static String names(OptionSpec o) {
        StringBuilder s = new StringBuilder();
        for (String name : o.names()) s.append(s.length() == 0 ? "" : ", ").append('`').append(name).append('`');
        if (o.arity().max() > 0 || o.arity().isVariable()) s.append(" `").append(cellCode(o.paramLabel())).append('`');
        return s.toString();
    }

    /** A default the annotation fixes; an initial value computed in code is the description's to state. */
    private static String defaultOf(ArgSpec a) {
        String d = a.defaultValue();
        return d == null || d.isEmpty() ? "" : "`" + d + "`";
    }

    private static String cell(ArgSpec a) {
        return escape(String.join(" ", a.description()).strip());
    }

    /** Code in a table cell: GitHub's tables split at a | even inside backticks, unless escaped. */
    private static String cellCode(String s) {
        return s.replace("|", "\\|");
    }

    private static String firstSentence(String s) {
        String f = format(s).strip();
        int end = f.indexOf(". ");
        return escape(end < 0 ? f : f.substring(0, end + 1));
    }

    /** picocli's description format: %n a line break, %% a percent sign. */
    private static String format(String s) {
        return s.replace("%n", "\n").replace("%%", "%");
    }

    /** Table cells: one line, no column breaks, and no angle brackets read as HTML. */
    private static String escape(String s) {
        return format(s).replace("\n", " ").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The pages as they are in {@code dir}, to compare with {@link #pages()}. */
    public static Map<String, String> read(Path dir) {
        Map<String, String> found = new LinkedHashMap<>();
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                if (p.toString().endsWith(".md")) found.put(p.getFileName().toString(), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
