package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A template chooses among computed cases and says a sentence once to quote it twice; an unknown key is an error. */
class ReportTest {
    @Test
    void aCaseIsKeptWhereItsValueHoldsAndADefinitionIsQuotedWhereverNamed() {
        Report r = new Report().put("cores", "2").put("scales", "no");
        String t = "A {{s}}\nB {{s}}\n{{=s}}{{?scales=yes}}{{cores}} cores scale.{{/?}}{{?scales=no}}{{cores}} cores share one.{{/?}}{{/=}}\n";
        assertThat(r.fill(t, "t")).isEqualTo("A 2 cores share one.\nB 2 cores share one.\n");
        assertThat(r.values()).doesNotContainKey("s");
    }

    @Test
    void aCaseOnAnUnknownKeyIsAnError() {
        assertThatThrownBy(() -> new Report().fill("{{?nothing=yes}}x{{/?}}", "t.md")).hasMessageContaining("t.md: no value for {{nothing}}");
    }
}
