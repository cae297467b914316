package niolab.server;

/**
 * Pins a carrier on purpose, for {@link VtNoPinningTest} to show that its recording would catch
 * a server that did: a virtual thread parks (sleeps) inside a class initializer, which the JVM
 * runs under a native frame, so the thread cannot leave its carrier while it waits.
 */
public final class VtPinningProbe {
    private VtPinningProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.ofVirtual().start(ParksInItsInitializer::touch).join();
    }

    private static final class ParksInItsInitializer {
        static {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
            // initializing the class was the point
        }
    }
}
