package niolab.bench;

/** The very first connection was refused: there is no server to measure. */
public final class TargetDownException extends RuntimeException {
    public TargetDownException(String hostPort) {
        super("connection refused by " + hostPort + " (is the server running?)");
    }
}
