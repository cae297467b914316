package niolab.bench;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;

/** Why a request failed. Every failure is counted under exactly one class; none is hidden. */
public enum ErrorClass {
    /** Nothing listens on the port (connect: ECONNREFUSED), or the backlog overflowed. */
    REFUSED("refused"),
    /** The server reset the connection or broke the pipe mid-request. */
    RESET("reset"),
    /** No answer within {@code --timeout}. */
    TIMEOUT("timeout"),
    /** The connection closed before the whole echo came back. */
    SHORT("short"),
    /** The response came back wrong: other bytes (echo), or not 200 with {"status":"ok"} (http). */
    MISMATCH("mismatch"),
    /** connect: EADDRNOTAVAIL, "Cannot assign requested address": no free ephemeral port (TIME-WAIT). */
    PORTS("ports_exhausted"),
    /** Anything else; the message of the first one is kept for the report. */
    OTHER("other");

    public final String label;

    ErrorClass(String label) {
        this.label = label;
    }

    /** Classifies an exception thrown by connect, write or read. */
    public static ErrorClass of(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Cannot assign requested address")) return PORTS;
        if (e instanceof SocketTimeoutException || m.contains("timed out")) return TIMEOUT;
        if (e instanceof ConnectException && m.contains("refused")) return REFUSED;
        if (e instanceof EOFException) return SHORT;
        if (m.contains("reset") || m.contains("Broken pipe") || m.contains("abort")) return RESET;
        if (e instanceof ConnectException) return REFUSED;
        return OTHER;
    }
}
