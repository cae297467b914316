package niolab.course;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The second, fourth... rounds of {@link GradedBugs}, beside {@link GradedBugsTest}'s. */
class GradedBugsOddRoundsTest extends GradedBugs {
    static Stream<Arguments> rounds() throws IOException {
        return GradedBugs.ofParity(1);
    }
}
