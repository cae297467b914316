package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadyLineTest {
    @Test
    void formatThenParseGivesTheSameLine() {
        String line = ReadyLine.format("127.0.0.1", 9988, "lt, echo");
        assertThat(line).isEqualTo("listening on 127.0.0.1:9988 (lt, echo)");
        assertThat(ReadyLine.parse(line)).isEqualTo(new ReadyLine("127.0.0.1", 9988, "lt, echo"));
        assertThat(ReadyLine.parse(line).toString()).isEqualTo(line);
    }

    @Test
    void anIpv6HostIsBracketedOnTheLineAndBareWhenParsed() {
        String line = ReadyLine.format("::1", 41234, "mp: 2 x et, http, mistake: read-once");
        assertThat(line).isEqualTo("listening on [::1]:41234 (mp: 2 x et, http, mistake: read-once)");
        ReadyLine r = ReadyLine.parse(line);
        assertThat(r.host()).isEqualTo("::1");
        assertThat(r.port()).isEqualTo(41234);
        assertThat(r.label()).isEqualTo("mp: 2 x et, http, mistake: read-once");
    }

    @Test
    void theCReferenceServersLineParses() {
        // reference/c-server.c's print_ready_line: the same format, written in C
        assertThat(ReadyLine.parse("listening on 127.0.0.1:9988 (c, http)")).isEqualTo(new ReadyLine("127.0.0.1", 9988, "c, http"));
    }

    @Test
    void otherLinesAreNotReadyLines() {
        assertThat(ReadyLine.parse("[w1] listening on 127.0.0.1:9988 (lt, echo)")).isNull();
        assertThat(ReadyLine.parse("counters: accepts=1")).isNull();
        assertThat(ReadyLine.parse("listening on 127.0.0.1 (lt, echo)")).isNull();
        assertThat(ReadyLine.parse("listening on 127.0.0.1:99999999999 (lt, echo)")).isNull();
    }
}
