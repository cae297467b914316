package niolab.server.base;

/** A subcommand that makes its architecture's server from the options it parsed. */
public interface ServerFactory {
    /** The server, made but not bound. */
    Server newServer();
}
