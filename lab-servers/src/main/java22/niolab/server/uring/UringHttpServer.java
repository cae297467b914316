package niolab.server.uring;

import java.io.IOException;
import java.nio.ByteBuffer;
import niolab.server.base.ServerConfig;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;
import niolab.uring.UringCapabilities;

/**
 * {@code uring --protocol http}: {@link HttpPing} answers everything a connection holds into
 * one response buffer, so a pipelined batch leaves in one send. Input is given back as soon as
 * it is parsed; what arrives while a response is in flight waits in its buffers (that is the
 * backpressure) and is answered, in one batch, when the send completes.
 */
public final class UringHttpServer extends UringServer {
    private static final ByteBuffer NO_INPUT = ByteBuffer.allocate(0);
    private ResponseBuffers responses;

    public UringHttpServer(ServerConfig config, UringMode mode, UringCapabilities capabilities) {
        super(config, mode, capabilities);
    }

    @Override
    protected void openOnLoopThread() throws IOException {
        super.openOnLoopThread();
        responses = new ResponseBuffers(arena, Math.max(ProvidedBuffers.sizeFor(bufferSize), HttpPing.MAX_RESPONSE_BYTES));
    }

    @Override
    protected void respond(UringConnection c) {
        HttpConnection h = c.http;
        if (h == null) c.http = h = new HttpConnection(requestWork); // once per slot; reset on reuse
        int response = responses.take();
        ByteBuffer out = responses.cleared(response);
        int flags;
        do {
            // After OUT_FULL with all input parsed, the owed response still needs a call.
            ByteBuffer in = c.heldHead >= 0 ? input.view(c.heldHead) : NO_INPUT;
            int from = in.position();
            flags = HttpPing.process(in, out, h);
            if (c.heldHead >= 0) input.consume(c, in.position() - from);
        } while (flags == 0 && c.heldHead >= 0);
        c.moreToAnswer = (flags & HttpPing.OUT_FULL) != 0;
        if ((flags & HttpPing.CLOSE) != 0) {
            input.releaseAll(c); // nothing after the closing request is answered
            c.closeAfterSend = true;
        }
        if (out.position() == 0) { // a partial request: nothing to say yet
            responses.giveBack(response);
            if (c.closeAfterSend) closeAfterAnswer(c);
            return;
        }
        c.response = response;
        send(c, responses.address(response), out.position());
    }

    @Override
    protected void sent(UringConnection c, int n) {
        if (n < c.sendLength) {
            send(c, c.sendAddress + n, c.sendLength - n);
            return;
        }
        responses.giveBack(c.response);
        c.response = -1;
        if (c.closeAfterSend) closeAfterAnswer(c);
        else if (c.heldHead >= 0 || c.moreToAnswer) respond(c);
    }

    @Override
    protected void released(UringConnection c) {
        if (c.response < 0) return;
        responses.giveBack(c.response);
        c.response = -1;
    }
}
