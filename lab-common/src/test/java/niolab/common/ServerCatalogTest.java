package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The catalog read as the scripts and reports read it: commands with their count, labels, selections, where options act. */
class ServerCatalogTest {
    @Test
    void aVariantsCommandAndLabelTakeItsCount() {
        assertThat(ServerCatalog.server("lt-loops").words(4)).containsExactly("lt", "--loops", "4");
        assertThat(ServerCatalog.server("mp").label(2)).isEqualTo("mp --workers 2");
        assertThat(ServerCatalog.server("et-ffm").words(2)).containsExactly("et", "--binding", "ffm");
        assertThat(ServerCatalog.server("et-ffm").minJdk()).isEqualTo(22);
    }

    @Test
    void theArchitecturesAreLabServersOwnAndTheWorkersAreASubset() {
        assertThat(ServerCatalog.architectures()).containsExactly("bio", "lt", "et", "vt", "uring", "mp");
        assertThat(ServerCatalog.workerArchitectures()).containsExactly("lt", "et", "vt", "uring");
        assertThat(ServerCatalog.named("netty")).containsExactly("netty-nio", "netty-epoll", "netty-uring", "netty-http");
    }

    @Test
    void everySelectionNamesEntriesAndAnUnknownNameIsOneLine() {
        for (String s : ServerCatalog.selections()) {
            for (String name : ServerCatalog.selection(s)) assertThat(ServerCatalog.has(name)).as(s + ": " + name).isTrue();
        }
        assertThatThrownBy(() -> ServerCatalog.server("lx")).hasMessageStartingWith("no server named 'lx' (known: bio, lt, et,");
        assertThatThrownBy(() -> ServerCatalog.selection("nope")).hasMessageStartingWith("no selection named 'nope'");
    }

    @Test
    void aRestrictedOptionActsWhereTheCatalogSaysAndAnyOtherEverywhere() {
        assertThat(ServerCatalog.actsIn("--sndbuf")).containsExactly("lt", "et");
        assertThat(ServerCatalog.acts("--loops", "uring")).isTrue();
        assertThat(ServerCatalog.acts("--loops", "vt")).isFalse();
        assertThat(ServerCatalog.restricted("--port")).isFalse();
        assertThat(ServerCatalog.actsIn("--port")).containsExactlyElementsOf(ServerCatalog.architectures());
        assertThat(ServerCatalog.words(ServerCatalog.actsIn("--loops"), "and")).isEqualTo("lt, et and uring");
    }
}
