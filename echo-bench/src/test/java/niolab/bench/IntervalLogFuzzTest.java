package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Coverage-guided fuzzing of the reader of {@code --hlog} interval logs, which {@code echo-bench
 * merge} reads from other hosts. Its contract: the series of every tag, or one {@link
 * TagSeries.BadLog} line, never another exception; and what {@link IntervalLog} writes reads
 * back with every value counted, its tag, and its schedule lag to the decimals written.
 */
class IntervalLogFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("fuzz", ".hlog");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FILE.toFile().deleteOnExit();
    }

    @FuzzTest
    void anyFile(byte[] bytes) throws IOException {
        Files.write(FILE, bytes);
        List<String> warnings = new ArrayList<>();
        try {
            Map<String, TagSeries> tags = TagSeries.read(List.of(FILE), warnings);
            assertThat(tags).as("a log read has a tag").isNotEmpty();
            for (TagSeries s : tags.values()) assertThat(s.startMillis).isLessThanOrEqualTo(s.endMillis);
        } catch (TagSeries.BadLog expected) {
            assertThat(expected.getMessage()).contains(FILE.toString());
        }
    }

    @FuzzTest
    void aWrittenLogReadsBack(FuzzedDataProvider data) throws Exception {
        String tag = data.consumeAsciiString(16).replaceAll("[^A-Za-z0-9._-]", "");
        if (tag.isEmpty()) tag = "gen";
        boolean rate = data.consumeBoolean();
        Histogram all = new Histogram(3);
        long late = 0;
        double maxLag = 0;
        double target = Math.round(data.consumeDouble() % 1e6 * 10) / 10.0;
        if (!(target >= 0)) target = 0;
        try (IntervalLog log = new IntervalLog(FILE, tag)) {
            long t = System.nanoTime();
            log.begin(t, "fuzz");
            int intervals = data.consumeInt(1, 5);
            for (int i = 0; i < intervals; i++) {
                Histogram corrected = new Histogram(3);
                Histogram uncorrected = rate ? new Histogram(3) : null;
                int values = data.consumeInt(1, 20);
                for (int v = 0; v < values; v++) {
                    long us = data.consumeLong(1, 60_000_000L);
                    corrected.recordValue(us);
                    all.recordValue(us);
                    if (uncorrected != null) uncorrected.recordValue(Math.max(1, us / 2));
                }
                long end = t + data.consumeLong(1_000_000L, 10_000_000_000L);
                log.interval(t, end, corrected, uncorrected);
                t = end;
            }
            if (rate) {
                late = data.consumeLong(0, Long.MAX_VALUE / 2);
                long lagNanos = data.consumeLong(0, 1_000_000_000_000L);
                maxLag = Math.round(lagNanos / 1e3) / 1e3; // written with three decimals of a millisecond
                log.schedule(1, target, late, lagNanos);
            }
        }
        Map<String, TagSeries> tags = TagSeries.read(List.of(FILE), new ArrayList<>());
        assertThat(tags).containsKey(tag);
        TagSeries s = tags.get(tag);
        assertThat(s.latencyUs.getTotalCount()).isEqualTo(all.getTotalCount());
        assertThat(s.latencyUs.getMaxValue()).isEqualTo(all.getMaxValue());
        assertThat(s.latencyUs.getMinValue()).isEqualTo(all.getMinValue());
        if (rate) {
            assertThat(tags).containsKey(tag + IntervalLog.UNCORRECTED);
            assertThat(s.late).isEqualTo(late);
            assertThat(s.targetRate).isEqualTo(target);
            assertThat(s.maxLagMillis).isCloseTo(maxLag, org.assertj.core.data.Offset.offset(0.0011));
        } else {
            assertThat(tags).hasSize(1);
        }
    }
}
