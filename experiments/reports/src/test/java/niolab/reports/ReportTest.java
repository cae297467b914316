package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A template's sections keep the sentences of the case the run found and drop the others; a definition is said once and quoted twice. */
class ReportTest {
    @Test
    void sectionsKeepTheCaseTheValuesSay() {
        Report r = new Report().put("fresh", true).put("left", "").put("shape", "step").put("n", "3");
        String t = "{{#fresh}}afresh in {{n}} forks{{/fresh}}{{^fresh}}all up at once{{/fresh}};"
                + "{{#left}} left out: {{left}}{{/left}} {{#shape=step}}a step{{/shape=step}}{{#shape=slope}}a slope{{/shape=slope}}";
        assertThat(r.fill(t, "t")).isEqualTo("afresh in 3 forks; a step");
        r.put("fresh", false).put("left", "x").put("shape", "slope");
        assertThat(r.fill(t, "t")).isEqualTo("all up at once; left out: x a slope");
    }

    @Test
    void sectionsNestAndAnUnknownCaseIsAnError() {
        Report r = new Report().put("a", true).put("b", false);
        assertThat(r.fill("{{#a}}A{{^b}} not B{{/b}}.{{/a}}", "t")).isEqualTo("A not B.");
        assertThatThrownBy(() -> r.fill("{{#c}}C{{/c}}", "t")).hasMessageContaining("no case for {{#c}}");
    }

    @Test
    void aDefinitionIsSaidOnceAndQuotedWhereverNamed() {
        Report r = new Report().put("cores", "2").put("scales", "no");
        String t = "A {{s}}\nB {{s}}\n{{=s}}{{#scales=yes}}{{cores}} cores scale.{{/scales=yes}}{{#scales=no}}{{cores}} cores share one.{{/scales=no}}{{/=}}\n";
        assertThat(r.fill(t, "t")).isEqualTo("A 2 cores share one.\nB 2 cores share one.\n");
        assertThat(r.values()).doesNotContainKey("s");
    }
}
