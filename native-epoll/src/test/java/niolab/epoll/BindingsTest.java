package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import org.junit.jupiter.api.Test;
import niolab.testkit.Capability;

class BindingsTest {

    @Test
    void jnaIsTheDefaultAndOneInstance() {
        assertThat(Bindings.named("jna")).isSameAs(Bindings.jna());
        assertThat(Bindings.jna().name()).isEqualTo("jna");
    }

    @Test
    void anUnknownNameSaysWhatIsExpected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bindings.named("jni"));
        assertThat(e).hasMessage("unknown binding 'jni' (expected jna or ffm)");
    }

    @Test
    void ffmBeforeJdk22IsOneClearLine() {
        int feature = Runtime.version().feature();
        Capability.JDK_22.assumeMissing("this JVM has FFM");
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, Bindings::ffm);
        assertThat(e).hasMessage("--binding ffm needs JDK 22 or newer (this JVM is " + feature + ")");
    }

    @Test
    void ffmOnJdk22OrNewerIsANewInstancePerCaller() {
        Capability.JDK_22.assume();
        Syscalls ffm = Bindings.named("ffm");
        assertThat(ffm.name()).isEqualTo("ffm");
        assertThat(Bindings.ffm()).isNotSameAs(ffm);
    }
}
