package niolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Moving a section must not leave a dead link: every relative link of the lab's Markdown resolves. */
class MarkdownLinksTest {
    @Test
    void everyRelativeLinkInTheLabsMarkdownResolvesToAFileAndAHeading() {
        Path root = MarkdownLinks.repositoryRoot();
        List<Path> files = MarkdownLinks.committedMarkdown(root);
        // a walk that found nothing, or links that were never looked at, would pass for "no dead link"
        assertThat(files).contains(Path.of("README.md"), Path.of("ARCHITECTURE.md"), Path.of("labs", "README.md"));
        MarkdownLinks links = new MarkdownLinks(root, files);
        List<String> dead = links.dead();
        assertThat(dead).as("dead links (file:line: target: why)").isEmpty();
        assertThat(links.linksChecked()).isGreaterThan(files.size());
    }

    @Test
    void aDeadLinkAndADeadAnchorAreFoundAndNothingElse(@TempDir Path tree) throws IOException {
        Files.createDirectories(tree.resolve("docs"));
        Files.writeString(tree.resolve("README.md"), String.join("\n",
                "# The lab",
                "",
                "[the manual](docs/manual.md), [its servers](docs/manual.md#the-servers-lt-and-et),",
                "[the second one](docs/manual.md#notes-1), [here](#the-lab), [the docs](docs/),",
                "[the web](https://example.org/x.md), [mail](mailto:a@example.org),",
                "`[not a link](nowhere.md)`, ![a chart](docs/chart.svg)",
                "",
                "```",
                "[in a fence](gone.md)",
                "```",
                "",
                "[gone](docs/gone.md) and [moved](docs/manual.md#a-section-that-moved)",
                "[up and out](../outside.md) and [self](#nothing-here)",
                ""));
        Files.writeString(tree.resolve("docs/manual.md"), String.join("\n",
                "# Manual",
                "",
                "## The servers: `lt` and `et`",
                "",
                "## Notes",
                "",
                "## Notes",
                ""));
        Files.writeString(tree.resolve("docs/chart.svg"), "<svg/>");

        MarkdownLinks links = new MarkdownLinks(tree, List.of(Path.of("README.md"), Path.of("docs/manual.md")));
        assertThat(links.dead()).containsExactly(
                "README.md:12: docs/gone.md: no such file",
                "README.md:12: docs/manual.md#a-section-that-moved: no heading with that anchor in docs/manual.md",
                "README.md:13: ../outside.md: points outside the repository",
                "README.md:13: #nothing-here: no heading with that anchor in README.md");
        assertThat(links.linksChecked()).isEqualTo(10);
    }

    @Test
    void aTemplatesLinksAreReadFromThePageItRendersInto(@TempDir Path tree) throws IOException {
        Files.createDirectories(tree.resolve("experiments/templates"));
        Files.writeString(tree.resolve("experiments/exp-a.md"), "# A\n\n## Answer\n");
        Files.writeString(tree.resolve("experiments/templates/exp-b.md"), "[a](exp-a.md#answer) [gone](templates/exp-c.md)\n");
        MarkdownLinks links = new MarkdownLinks(tree, List.of(Path.of("experiments/templates/exp-b.md")));
        assertThat(links.dead()).containsExactly("experiments/templates/exp-b.md:1: templates/exp-c.md: no such file");
    }

    @Test
    void aPageTheHandoutKeepsMustNotLinkToATeachersFile(@TempDir Path tree) throws IOException {
        Files.createDirectories(tree.resolve("labs"));
        Files.writeString(tree.resolve("labs/teacher-only.txt"), "# left out\nlabs/notes.md\n");
        Files.writeString(tree.resolve("labs/notes.md"), "# Notes\n\n[the course](README.md)\n");
        Files.writeString(tree.resolve("labs/README.md"), "# Course\n\n[notes](notes.md)\n");
        MarkdownLinks links = new MarkdownLinks(tree, List.of(Path.of("labs/README.md"), Path.of("labs/notes.md")));
        assertThat(links.dead()).containsExactly(
                "labs/README.md:3: notes.md: left out of the student handout (labs/teacher-only.txt), so dead there");
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(MarkdownLinks.slug("`lt`: level-triggered, on a java.nio Selector")).isEqualTo("lt-level-triggered-on-a-javanio-selector");
        assertThat(MarkdownLinks.slug("HTTP: `--protocol http`")).isEqualTo("http---protocol-http");
        assertThat(MarkdownLinks.slug("What `make test` takes, and what it may skip")).isEqualTo("what-make-test-takes-and-what-it-may-skip");
        assertThat(MarkdownLinks.slug("Cold JVMs: the AOT cache (JDK 25)")).isEqualTo("cold-jvms-the-aot-cache-jdk-25");
        assertThat(MarkdownLinks.slug("snake_case and Ünïcode")).isEqualTo("snake_case-and-ünïcode");
    }

    @Test
    void inAGitCheckoutOnlyTrackedPagesAreReadAndAnIgnoredTargetIsDead(@TempDir Path tree) throws Exception {
        Files.writeString(tree.resolve(".gitignore"), "out/\n");
        Files.createDirectories(tree.resolve("out"));
        Files.writeString(tree.resolve("out/built.md"), "# Built\n");
        Files.writeString(tree.resolve("new.md"), "# New, not added yet\n");
        Files.writeString(tree.resolve("README.md"), "[built](out/built.md) [new](new.md)\n");
        Files.writeString(tree.resolve("scratch.md"), "[gone](gone.md)\n");
        git(tree, "init", "-q");
        git(tree, "add", "README.md", ".gitignore");
        List<Path> pages = MarkdownLinks.committedMarkdown(tree);
        assertThat(pages).containsExactly(Path.of("README.md"));
        assertThat(new MarkdownLinks(tree, pages).dead()).containsExactly("README.md:1: out/built.md: not a file git would commit");
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("git %s ends", args[0]).isTrue();
        assertThat(p.exitValue()).as("git %s", String.join(" ", args)).isZero();
    }

    @Test
    void aTreeWithoutGitIsWalkedSkippingBuildOutput(@TempDir Path tree) throws IOException {
        Files.createDirectories(tree.resolve("a/target"));
        Files.createDirectories(tree.resolve(".hidden"));
        Files.writeString(tree.resolve("README.md"), "# x\n");
        Files.writeString(tree.resolve("a/notes.md"), "# y\n");
        Files.writeString(tree.resolve("a/target/built.md"), "# z\n");
        Files.writeString(tree.resolve(".hidden/h.md"), "# h\n");
        assertThat(MarkdownLinks.committedMarkdown(tree)).containsExactly(Path.of("README.md"), Path.of("a/notes.md"));
    }
}
