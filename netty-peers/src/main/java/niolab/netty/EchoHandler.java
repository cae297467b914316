package niolab.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/** Echo, the Netty way: the read buffer itself is written back (no copy), flushed per batch. */
final class EchoHandler extends PeerHandler {
    EchoHandler(PeerLoop loop) {
        super(loop);
    }

    @Override
    protected void onRead(ChannelHandlerContext ctx, ByteBuf buf) {
        if (loop.readWork != null) loop.readWork.request(); // --work-ns: a calibrated cost per request
        send(ctx, buf);
    }
}
