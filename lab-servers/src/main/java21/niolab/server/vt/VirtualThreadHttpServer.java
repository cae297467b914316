package niolab.server.vt;

import java.io.IOException;
import java.nio.ByteBuffer;
import niolab.server.ServerOptions;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * {@code vt --protocol http}: each read is answered by {@link HttpPing} into one output buffer,
 * written in one write (per buffer-full), so a pipelined batch leaves together. A write that
 * cannot finish simply parks, so nothing is ever parked in {@link HttpConnection} as the loops
 * must: the thread's own stack is the state they keep by hand.
 */
final class VirtualThreadHttpServer extends VirtualThreadServer {
    private final int outputBytes;

    VirtualThreadHttpServer(ServerOptions options) {
        super(options);
        // The HTTP classes are initialized here, not by the first connections' virtual threads,
        // which would wait for each other pinned: HttpPing by this read, the parser by this object.
        outputBytes = Math.max(options.bufferSize, HttpPing.MAX_RESPONSE_BYTES);
        new HttpConnection();
    }

    @Override
    protected void serve(VtConnection c) throws IOException {
        // Heap buffers, for the reasons VirtualThreadEchoServer gives.
        ByteBuffer in = ByteBuffer.allocate(options.bufferSize);
        ByteBuffer out = ByteBuffer.allocate(outputBytes);
        HttpConnection http = new HttpConnection();
        while (read(c, in) >= 0) {
            int flags;
            do {
                out.clear();
                flags = HttpPing.process(in, out, http);
                out.flip();
                if (out.hasRemaining()) writeFully(c, out); // a partial request answers nothing: no syscall
            } while ((flags & HttpPing.OUT_FULL) != 0);
            if ((flags & HttpPing.CLOSE) != 0) return;
        }
    }
}
