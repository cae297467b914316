package niolab.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A strict little HTTP/1.1 response reader for tests: status, headers, Content-Length body. */
public final class Http {
    private Http() {
    }

    /** One response: status code, headers (names lower-cased), body. */
    public record Response(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }

    /** Reads one response; {@code head} says it answers a HEAD request (no body follows). */
    public static Response read(InputStream in, boolean head) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) throw new IOException("connection closed before a response");
        if (!statusLine.startsWith("HTTP/1.1 ")) throw new IOException("bad status line: " + statusLine);
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while (!(l = line(in)).isEmpty()) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        String body = head ? "" : new String(Echo.readExactly(in, length), StandardCharsets.US_ASCII);
        return new Response(status, headers, body);
    }

    public static Response read(InputStream in) throws IOException {
        return read(in, false);
    }

    /** A CRLF-terminated line without its CRLF; null at end of stream before any byte. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                if (b.size() == 0) return null;
                throw new IOException("stream ended inside a line: " + b);
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.US_ASCII);
        if (!s.endsWith("\r")) throw new IOException("line not ended by CRLF: " + s);
        return s.substring(0, s.length() - 1);
    }
}
