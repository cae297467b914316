package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Quantiles of Student's t against the published tables (four decimals). */
class StudentTTest {
    private static final Offset<Double> TABLE = Offset.offset(5e-4);

    @Test
    void matchesTheTablesAt975() {
        double[][] table = {{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764}, {5, 2.5706}, {9, 2.2622}, {10, 2.2281}, {19, 2.0930},
                {30, 2.0423}, {120, 1.9799}};
        for (double[] row : table) assertThat(StudentT.quantile(0.975, row[0])).as("df %s", row[0]).isCloseTo(row[1], TABLE);
    }

    @Test
    void otherLevelsAndTheNormalLimit() {
        assertThat(StudentT.quantile(0.95, 5)).isCloseTo(2.0150, TABLE);
        assertThat(StudentT.quantile(0.995, 3)).isCloseTo(5.8409, TABLE);
        assertThat(StudentT.quantile(0.975, 1e6)).isCloseTo(1.9600, TABLE);
        assertThat(StudentT.quantile(0.025, 4)).isCloseTo(-2.7764, TABLE);
        assertThat(StudentT.quantile(0.5, 7)).isZero();
        assertThat(StudentT.cdf(StudentT.quantile(0.9, 6), 6)).isCloseTo(0.9, Offset.offset(1e-9));
        assertThat(StudentT.logGamma(5)).isCloseTo(Math.log(24), Offset.offset(1e-12));
        assertThatThrownBy(() -> StudentT.quantile(1, 3)).hasMessageContaining("outside");
        assertThatThrownBy(() -> StudentT.quantile(0.9, 0)).hasMessageContaining("degrees of freedom");
    }
}
