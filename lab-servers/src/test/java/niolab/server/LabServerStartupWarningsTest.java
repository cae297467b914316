package niolab.server;

import java.util.stream.Stream;

class LabServerStartupWarningsTest extends StartupWarningsTest {
    /** mp with et workers: every worker JVM loads JNA, so its command line grants native access too. */
    @Override
    protected Stream<String> servers() {
        return Stream.of("lt", "et", "mp --workers 2 --worker-arch et");
    }
}
