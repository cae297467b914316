package niolab.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One echo-bench invocation in this JVM, as main runs it: its exit code and what it printed. Safe to run several at once. */
record Cli(int code, String out, String err) {
    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = EchoBench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }
}
