package niolab.server.base;

/** A subcommand that makes its architecture's server from config it parsed (or a copy of them: {@link MultiLoopServer}). */
public interface ServerFactory {
    /** The server for {@code config}, made but not bound. */
    Server newServer(ServerConfig config);
}
