package niolab.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * HTTP /ping over plain ByteBufs with the lab's own parser ({@link HttpPing}), not Netty's
 * HttpServerCodec: the comparison with the hand-written servers is then about the event loop
 * and the transport, not about two HTTP codecs. A read's answers leave in one flush.
 */
final class PingHandler extends PeerHandler {
    private final HttpConnection conn;

    PingHandler(PeerLoop loop) {
        super(loop);
        conn = new HttpConnection(loop.requestWork);
    }

    @Override
    protected void onRead(ChannelHandlerContext ctx, ByteBuf buf) {
        ByteBuffer in = loop.in;
        ByteBuffer out = loop.out;
        try {
            while (buf.isReadable()) {
                in.clear().limit(Math.min(in.capacity(), buf.readableBytes()));
                buf.readBytes(in);
                in.flip();
                int flags;
                do {
                    out.clear();
                    flags = HttpPing.process(in, out, conn);
                    out.flip();
                    if (out.hasRemaining()) send(ctx, ctx.alloc().directBuffer(out.remaining()).writeBytes(out));
                } while ((flags & HttpPing.OUT_FULL) != 0);
                if ((flags & HttpPing.CLOSE) != 0) {
                    closeAfterWrites(ctx);
                    return;
                }
            }
        } finally {
            buf.release();
        }
    }
}
