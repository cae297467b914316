package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.bench.SerialSocket.Kind;
import org.junit.jupiter.api.Test;

/** Which calls a serial run makes: FFM only where it warms up first (and FFM is there), unless asked. */
class SerialSocketKindTest {
    @Test
    void aColdRunTakesTheChannelAndAWarmOneFfmWhereItIsThere() {
        String asked = System.getProperty(Kind.PROPERTY);
        try {
            System.clearProperty(Kind.PROPERTY);
            assertThat(Kind.forRun(false)).isEqualTo(Kind.CHANNEL);
            assertThat(Kind.forRun(true)).isEqualTo(Kind.FFM.available() ? Kind.FFM : Kind.CHANNEL);
            System.setProperty(Kind.PROPERTY, "ffm");
            assertThat(Kind.forRun(false)).isEqualTo(Kind.FFM.available() ? Kind.FFM : Kind.CHANNEL);
            System.setProperty(Kind.PROPERTY, "channel");
            assertThat(Kind.forRun(true)).isEqualTo(Kind.CHANNEL);
        } finally {
            if (asked == null) System.clearProperty(Kind.PROPERTY);
            else System.setProperty(Kind.PROPERTY, asked);
        }
    }
}
