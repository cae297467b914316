package niolab.server.base;

/** A subcommand that makes its architecture's server from a config (the one it parsed, or one {@link MultiLoopServer} derived from it). */
public interface ServerFactory {
    /** The server for {@code config}, made but not bound. */
    Server newServer(ServerConfig config);
}
