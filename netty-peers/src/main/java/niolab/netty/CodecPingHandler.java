package niolab.netty;

import static io.netty.handler.codec.http.HttpHeaderNames.ALLOW;
import static io.netty.handler.codec.http.HttpHeaderNames.CONNECTION;
import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH;
import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_TYPE;
import static io.netty.handler.codec.http.HttpHeaderValues.APPLICATION_JSON;
import static io.netty.handler.codec.http.HttpHeaderValues.CLOSE;
import static io.netty.handler.codec.http.HttpHeaderValues.KEEP_ALIVE;
import static io.netty.handler.codec.http.HttpResponseStatus.BAD_REQUEST;
import static io.netty.handler.codec.http.HttpResponseStatus.METHOD_NOT_ALLOWED;
import static io.netty.handler.codec.http.HttpResponseStatus.NOT_FOUND;
import static io.netty.handler.codec.http.HttpResponseStatus.OK;
import static io.netty.handler.codec.http.HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
import static io.netty.handler.codec.http.HttpVersion.HTTP_1_1;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import niolab.server.base.BusyWork;
import niolab.server.proto.HttpPing;

/**
 * {@code GET /ping} the way Netty's own HttpHelloWorldServerHandler answers: a
 * {@link FullHttpResponse} per request with its headers set, written as each request is
 * decoded and flushed once per read batch. Netty's {@code HttpServerCodec} does the parsing
 * and encoding (HEAD drops the body there), {@code HttpServerKeepAliveHandler} the closing.
 *
 * <p>The request bodies and the empty last content that follow each request are not
 * {@link HttpRequest}s: they pass on to the pipeline's tail, which releases them.
 */
final class CodecPingHandler extends SimpleChannelInboundHandler<HttpRequest> {
    private static final byte[] PING_BODY = HttpPing.BODY.getBytes(StandardCharsets.US_ASCII);
    private static final AsciiString GET_HEAD = AsciiString.cached("GET, HEAD");

    /** {@code --work-ns}: paid for each request answered; null without it. */
    private final BusyWork work;
    private boolean closing;

    CodecPingHandler(BusyWork work) {
        this.work = work;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpRequest req) {
        // RFC 9112 9.6: after the request that closes the connection, none is processed, so a
        // pipelined request behind it gets no answer (Netty would otherwise write one before the close).
        if (closing) return;
        if (work != null) work.request(); // --work-ns: a calibrated cost per request
        FullHttpResponse res = respond(req);
        boolean keepAlive = req.decoderResult().isSuccess() && HttpUtil.isKeepAlive(req);
        if (!keepAlive) {
            res.headers().set(CONNECTION, CLOSE); // HttpServerKeepAliveHandler closes after it
            closing = true;
        } else if (!req.protocolVersion().isKeepAliveDefault()) {
            res.headers().set(CONNECTION, KEEP_ALIVE); // an HTTP/1.0 client asked for keep-alive
        }
        ctx.write(res, ctx.voidPromise());
    }

    private static FullHttpResponse respond(HttpRequest req) {
        DecoderResult decoded = req.decoderResult();
        if (decoded.isFailure()) {
            Throwable why = decoded.cause();
            boolean tooLarge = why instanceof TooLongHttpHeaderException || why instanceof TooLongHttpLineException;
            return empty(tooLarge ? REQUEST_HEADER_FIELDS_TOO_LARGE : BAD_REQUEST);
        }
        if (!isPing(req.uri())) return empty(NOT_FOUND);
        HttpMethod method = req.method();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            FullHttpResponse res = empty(METHOD_NOT_ALLOWED);
            res.headers().set(ALLOW, GET_HEAD);
            return res;
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HTTP_1_1, OK, Unpooled.wrappedBuffer(PING_BODY));
        res.headers().set(CONTENT_TYPE, APPLICATION_JSON).setInt(CONTENT_LENGTH, PING_BODY.length);
        return res;
    }

    /** {@code /ping}, with any query; compared in place, where QueryStringDecoder would allocate. */
    private static boolean isPing(String uri) {
        return uri.startsWith("/ping") && (uri.length() == 5 || uri.charAt(5) == '?');
    }

    private static FullHttpResponse empty(HttpResponseStatus status) {
        FullHttpResponse res = new DefaultFullHttpResponse(HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        res.headers().setInt(CONTENT_LENGTH, 0);
        return res;
    }

    /** One flush per read batch: the batch's responses leave in one write (a gathering write). */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // this connection only; CountingHandler has counted an I/O error as a reset
    }
}
