package niolab.bench;

import java.nio.ByteBuffer;

/** Echo: the request is the payload, the response must be the same bytes in the same order. */
public final class EchoCodec implements Codec {
    private final byte[] payload;

    public EchoCodec(byte[] payload) {
        this.payload = payload.clone();
    }

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public int requestLength() {
        return payload.length;
    }

    @Override
    public int maxResponseLength() {
        return payload.length;
    }

    @Override
    public void encodeRequest(ByteBuffer out) {
        out.put(payload);
    }

    @Override
    public int decodeResponse(ByteBuffer in) {
        int p = in.position();
        if (in.limit() - p < payload.length) return NEED_MORE;
        // absolute gets: no slice or array copy per response
        for (int i = 0; i < payload.length; i++) {
            if (in.get(p + i) != payload[i]) return MISMATCH;
        }
        in.position(p + payload.length);
        return payload.length;
    }
}
