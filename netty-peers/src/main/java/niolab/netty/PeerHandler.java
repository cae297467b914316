package niolab.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;

/**
 * What the peers that speak the lab's own protocols over Netty do around them: write without a
 * promise per buffer, flush once per read batch, stop reading while output waits (as
 * {@code lt} does), and close after the last answer when the client half-closes or the
 * protocol says so. {@link CountingHandler}, ahead of it in the pipeline, keeps the counters.
 */
abstract class PeerHandler extends ChannelInboundHandlerAdapter {
    protected final PeerLoop loop;
    private boolean written;
    private boolean closing;
    private boolean closeScheduled;

    PeerHandler(PeerLoop loop) {
        this.loop = loop;
    }

    /** Handles one read; owns {@code buf} (release it, or pass it on to {@link #send}). */
    protected abstract void onRead(ChannelHandlerContext ctx, ByteBuf buf);

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        if (closing) {
            buf.release(); // the answer that closes has been written; what follows is dropped
            return;
        }
        onRead(ctx, buf);
    }

    protected final void send(ChannelHandlerContext ctx, ByteBuf out) {
        ctx.write(out, ctx.voidPromise());
        written = true;
    }

    /** Close once everything written so far has gone out. */
    protected final void closeAfterWrites(ChannelHandlerContext ctx) {
        closing = true;
        ctx.channel().config().setAutoRead(false);
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        if (written) {
            written = false;
            ctx.flush();
        }
        if (closing && !closeScheduled) {
            closeScheduled = true; // more read-complete events may come before the close is done
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public final void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Backpressure: while the outbound buffer is over its high-water mark, read nothing.
        if (!closing) ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client half-closed: everything it sent has been answered, so finish and close.
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // this connection only; the loop serves the others
    }
}
