package niolab.netty;

import static niolab.server.base.Counter.ACCEPTS;
import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.BYTES_OUT;
import static niolab.server.base.Counter.CLOSES;
import static niolab.server.base.Counter.READS;
import static niolab.server.base.Counter.RESETS;
import static niolab.server.base.Counter.WRITES;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.io.IOException;
import niolab.server.base.Counters;

/**
 * The lab's counters for one connection, kept at the head of its pipeline where only bytes
 * pass (below any codec), so every Netty peer counts the same things the same way: accepts,
 * closes, reads (channelRead calls), bytes in and out, writes (flushes that carried bytes,
 * not syscalls: Netty does not expose those) and resets (I/O errors). Plain slot increments
 * on the loop's own {@link Counters}: nothing allocated, nothing shared across threads.
 */
final class CountingHandler extends ChannelDuplexHandler {
    private final Counters counters;
    private boolean unflushed;

    CountingHandler(Counters counters) {
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.inc(ACCEPTS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        counters.inc(CLOSES);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        counters.inc(READS);
        counters.add(BYTES_IN, ((ByteBuf) msg).readableBytes()); // the head of a stream pipeline reads only ByteBufs
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf && buf.isReadable()) {
            counters.add(BYTES_OUT, buf.readableBytes());
            unflushed = true;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (unflushed) {
            unflushed = false;
            counters.inc(WRITES);
        }
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) counters.inc(RESETS); // reset by peer, broken pipe: this connection only
        ctx.fireExceptionCaught(cause);
    }
}
