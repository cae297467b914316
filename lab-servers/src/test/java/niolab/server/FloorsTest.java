package niolab.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;

/**
 * lab-servers' packages stand in five floors, and every import points down, to a lower floor:
 * {@code niolab.server}, the command line ({@link LabServer}, the registry of architectures),
 * on top; {@code mp}, which runs the architectures below it in worker JVMs; the architectures
 * ({@code lt}, {@code et}, {@code vt}, {@code bio}, {@code uring}); {@code backend}, the Redis
 * clients behind {@code /healthz}; and at the bottom {@code base} (the loop skeleton, counters,
 * timers, listeners, options and the runner every server stands on) with {@code proto} (the
 * HTTP parser and answers). An import that points up fails here with the offending class and
 * line; so does a cycle between any two packages (base importing proto, say).
 */
@AnalyzeClasses(packages = "niolab.server", importOptions = ImportOption.DoNotIncludeTests.class)
class FloorsTest {
    private static final String CLI = "niolab.server";
    private static final String MP = "niolab.server.mp..";
    private static final String[] ARCHITECTURES = {"niolab.server.lt..", "niolab.server.et..", "niolab.server.vt..",
        "niolab.server.bio..", "niolab.server.uring.."};
    private static final String BACKEND = "niolab.server.backend..";
    private static final String[] PROTO_AND_BASE = {"niolab.server.proto..", "niolab.server.base.."};

    @ArchTest
    static final ArchRule importsPointDown = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("command line").definedBy(CLI)
            .layer("mp").definedBy(MP)
            .layer("architectures").definedBy(ARCHITECTURES)
            .layer("backend").definedBy(BACKEND)
            .layer("proto and base").definedBy(PROTO_AND_BASE)
            .whereLayer("command line").mayNotBeAccessedByAnyLayer()
            .whereLayer("mp").mayOnlyBeAccessedByLayers("command line")
            .whereLayer("architectures").mayOnlyBeAccessedByLayers("command line", "mp")
            .whereLayer("backend").mayOnlyBeAccessedByLayers("command line", "mp", "architectures")
            .whereLayer("proto and base").mayOnlyBeAccessedByLayers("command line", "mp", "architectures", "backend");

    @ArchTest
    static final ArchRule noCycleBetweenPackages = slices().matching("niolab.server.(*)..").should().beFreeOfCycles();

    /** A new package must be put on a floor: one no floor names would escape the rule above. */
    @ArchTest
    static final ArchRule everyClassIsOnAFloor = classes().should().resideInAnyPackage(onAFloor());

    private static String[] onAFloor() {
        List<String> all = new ArrayList<>(List.of(CLI, MP, BACKEND));
        all.addAll(List.of(ARCHITECTURES));
        all.addAll(List.of(PROTO_AND_BASE));
        return all.toArray(new String[0]);
    }
}
