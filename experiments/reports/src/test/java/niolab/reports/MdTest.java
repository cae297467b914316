package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** The reports' number formatting never rounds a deciding interval edge onto the bound it is compared with. */
class MdTest {
    @Test
    void anEdgeJustShortOfOneShowsTheDigitsThatDecide() {
        // uring-basic's committed rate: 0.96 [0.94, 0.996], a claim of "at least 1" that fails
        Interval i = new Interval(0.96, 0.94, 0.996);
        assertThat(Md.interval(i)).isEqualTo("0.96 [0.94, 0.996]");
        assertThat(Md.ratio(new Interval(0.997, 0.994, 1.0003))).isEqualTo("0.997× [0.994, 1.0003]");
        // an edge that does not round onto the bound keeps the usual decimals
        assertThat(Md.interval(new Interval(0.96, 0.90, 0.98))).isEqualTo("0.96 [0.90, 0.98]");
        // an edge exactly on the bound is shown as it is
        assertThat(Md.interval(new Interval(0.96, 0.90, 1.0))).isEqualTo("0.96 [0.90, 1.00]");
    }

    @Test
    void aClaimsEdgeIsShownAgainstItsOwnBound() {
        Claim fails = Claim.atLeast("basic at least et's", new Interval(0.96, 0.94, 0.996), 10, 1.0);
        assertThat(fails.row()).containsExactly("basic at least et's", "0.96", "[0.94, 0.996]", "10", "≥ 1.00", "fails");
        Claim within = Claim.within("w", new Interval(1.0, 0.897, 1.2), 10, 0.9, 1.1);
        assertThat(within.interval()).isEqualTo("[0.897, 1.20]");
        assertThat(Md.edge(2, 1.19996, 1.2)).isEqualTo("1.19996");
        assertThat(Md.edge(2, 0.9999999, 1)).isEqualTo("1.000000");
        assertThat(List.of(Md.edge(3, 0.5, 1))).containsExactly("0.500");
    }
}
