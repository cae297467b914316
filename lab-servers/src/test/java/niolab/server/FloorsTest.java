package niolab.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * lab-servers' packages stand in floors, and every import points down: {@code niolab.server}
 * (the command line: {@link LabServer}, the registry of architectures) on top; the
 * architectures and what they share by protocol ({@code proto}, {@code backend}) between; and
 * {@code niolab.server.base} (the loop skeleton, counters, timers, listeners, options and the
 * runner every server stands on) at the bottom. An import that points up fails here with the
 * offending class and line; so does a cycle between any two packages.
 */
@AnalyzeClasses(packages = "niolab.server", importOptions = ImportOption.DoNotIncludeTests.class)
class FloorsTest {
    private static final String TOP = "niolab.server";
    private static final String[] MIDDLE = {"niolab.server.lt..", "niolab.server.et..", "niolab.server.vt..",
        "niolab.server.bio..", "niolab.server.uring..", "niolab.server.mp..", "niolab.server.proto..", "niolab.server.backend.."};
    private static final String BOTTOM = "niolab.server.base..";

    @ArchTest
    static final ArchRule importsPointDown = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("command line").definedBy(TOP)
            .layer("architectures").definedBy(MIDDLE)
            .layer("base").definedBy(BOTTOM)
            .whereLayer("command line").mayNotBeAccessedByAnyLayer()
            .whereLayer("architectures").mayOnlyBeAccessedByLayers("command line")
            .whereLayer("base").mayOnlyBeAccessedByLayers("architectures", "command line");

    @ArchTest
    static final ArchRule noCycleBetweenPackages = slices().matching("niolab.server.(*)..").should().beFreeOfCycles();

    /** A new package must be put on a floor: one no floor names would escape the rule above. */
    @ArchTest
    static final ArchRule everyClassIsOnAFloor = classes().should().resideInAnyPackage(onAFloor());

    private static String[] onAFloor() {
        String[] all = new String[MIDDLE.length + 2];
        all[0] = TOP;
        all[1] = BOTTOM;
        System.arraycopy(MIDDLE, 0, all, 2, MIDDLE.length);
        return all;
    }
}
