package niolab.server.base;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import niolab.common.ServerCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What every {@code lab-server <arch>} command does once its options are parsed: the mistakes
 * check, its own checks, {@code --loops N} into a {@link MultiLoopServer}, then {@link ServerRunner}.
 * A command writes only how it builds its server ({@link #newServer}), what it alone checks
 * ({@link #unusable}) and, if it has any, its own options ({@link #ownOptions}); it registers
 * itself in {@code META-INF/services} ({@link Architectures}). A shared option that the catalog
 * (lab-common's {@link ServerCatalog}) says does not act in it is not among its options at all.
 */
public abstract class ServerCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    protected ServerOptions options;

    /** The options as parsed, checked across options (a bad combination is a bad flag). */
    public final ServerConfig config() {
        ServerConfig config = options.config();
        options.refuseIdle(actingArch(config));
        return config;
    }

    @Override
    public final Integer call() {
        ServerConfig config = config();
        if (Mistakes.refused(config, actingArch(config))) return 2; // a flag's problem before the machine's
        int unusable = unusable(config);
        if (unusable != 0) return unusable;
        return ServerRunner.run(server(config), config);
    }

    /** What this command serves {@code config} with, made but not bound: its server, or {@code --loops N} of them. */
    public final Server server(ServerConfig config) {
        return config.loops() > 1 && loopsInThisJvm() ? new MultiLoopServer(this, config, System.out) : newServer(config);
    }

    /**
     * Zero when this command can serve {@code config} here; otherwise it has said why in one
     * line (or thrown a bad-flags ParameterException) and this is the exit code.
     */
    public int unusable(ServerConfig config) {
        return 0;
    }

    /** The architecture the options act in, whose mistakes {@code --mistake} may name: this command's (mp: its workers'). */
    protected Arch actingArch(ServerConfig config) {
        return config.arch();
    }

    /**
     * This architecture's own options, a picocli mixin (et's {@code --binding}), or null: mp
     * mixes them in too and passes them to the workers that run this architecture.
     */
    public Object ownOptions() {
        return null;
    }

    /**
     * Fits the command line made of this command: the shared options that act nowhere in
     * {@link #archsServed()} are taken out, so that its help lists only what acts and its parser
     * refuses the rest in one line ({@link ServerOptions#idle}). An option of the backend group
     * is kept (picocli cannot take one out of a group) and refused once parsed.
     */
    public void configure(CommandLine commandLine) {
        CommandSpec spec = commandLine.getCommandSpec();
        for (OptionSpec o : new ArrayList<>(spec.options())) {
            if (o.group() == null && !takes(o)) spec.remove(o);
        }
    }

    /**
     * Whether {@code o} acts in an architecture this command runs, as the catalog says; an
     * option of a group (the backend's) as its group does.
     */
    public boolean takes(OptionSpec o) {
        List<OptionSpec> judged = o.group() == null ? List.of(o) : o.group().options();
        for (String arch : archsServed()) {
            boolean acts = true;
            for (OptionSpec j : judged) acts &= ServerCatalog.acts(j.longestName(), arch);
            if (acts) return true;
        }
        return false;
    }

    /** The architectures this command can run: its own (mp: its workers'). */
    protected List<String> archsServed() {
        return List.of(getClass().getAnnotation(Command.class).name());
    }

    /** Whether {@code --loops N} makes N loops in this JVM (mp hands it to its workers instead). */
    protected boolean loopsInThisJvm() {
        return true;
    }
}
