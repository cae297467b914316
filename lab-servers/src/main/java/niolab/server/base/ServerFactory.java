package niolab.server.base;

/** A subcommand that makes its architecture's server from options it parsed (or a copy of them: {@link MultiLoopServer}). */
public interface ServerFactory {
    /** The server for {@code options}, made but not bound. */
    Server newServer(ServerOptions options);
}
