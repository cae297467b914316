package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NativeBufferTest {

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void theViewAndTheAddressAreTheSameZeroedBytes(String binding) {
        Syscalls sys = BindingsUnderTest.open(binding);
        try (NativeBuffer a = NativeBuffer.allocate(sys, 64); NativeBuffer b = NativeBuffer.allocate(sys, 64)) {
            assertThat(a.view().capacity()).isEqualTo(64);
            assertThat(a.view().isDirect()).isTrue();
            for (int i = 0; i < 64; i++) assertThat(b.view().get(i)).as("byte %d", i).isZero();

            a.view().put(0, (byte) 7).put(63, (byte) 9);
            assertThat(sys.memcpy(b.address() + 1, a.address(), 64 - 1)).isEqualTo(b.address() + 1);
            assertThat(b.view().get(1)).isEqualTo((byte) 7);
            assertThat(b.view().get(63)).isZero();
            assertThat(b.view().get(0)).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void theAddressOfADirectBufferIsItsElementZeroWhateverItsPosition(String binding) {
        Syscalls sys = BindingsUnderTest.open(binding);
        try (NativeBuffer a = NativeBuffer.allocate(sys, 64)) {
            ByteBuffer view = a.view();
            view.position(10);
            assertThat(sys.address(view)).isEqualTo(a.address());
            ByteBuffer slice = view.slice();
            assertThat(sys.address(slice)).isEqualTo(a.address() + 10);
        }
    }
}
