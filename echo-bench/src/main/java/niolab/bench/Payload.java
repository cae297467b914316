package niolab.bench;

import java.util.SplittableRandom;

/** The request payload: seeded random bytes, so a rerun sends exactly the same data. */
public final class Payload {
    private Payload() {
    }

    public static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < size; i++) b[i] = (byte) r.nextInt(256);
        return b;
    }
}
