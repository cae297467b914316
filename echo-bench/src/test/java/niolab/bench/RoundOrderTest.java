package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The order in which `echo-bench compare` visits the servers of a round: a fresh permutation
 * each round, every order equally likely, repeated by the seed. Seeded, so each count below is
 * the same on every run; the bands are five to ten standard deviations of a fair shuffle wide.
 */
class RoundOrderTest {
    /** The order of each of {@code rounds} rounds of {@code n} servers, as "0,2,1", counted. */
    private static Map<String, Integer> orders(int n, int rounds, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] visit = new int[n];
        Map<String, Integer> count = new HashMap<>();
        for (int r = 0; r < rounds; r++) {
            Compare.shuffle(visit, random);
            count.merge(Arrays.toString(visit), 1, Integer::sum);
        }
        return count;
    }

    @Test
    void everyRoundIsAPermutationOfTheServers() {
        for (int n = 1; n <= 6; n++) {
            SplittableRandom random = new SplittableRandom(n);
            int[] visit = new int[n];
            for (int r = 0; r < 100; r++) {
                Compare.shuffle(visit, random);
                assertThat(Arrays.stream(visit).sorted().toArray()).as("round %d of %d servers", r, n)
                        .containsExactly(IntStream.range(0, n).toArray());
            }
        }
    }

    @Test
    void eachServerGoesFirstAboutEquallyOften() {
        int rounds = 3000;
        int[] first = new int[3];
        SplittableRandom random = new SplittableRandom(5);
        int[] visit = new int[3];
        for (int r = 0; r < rounds; r++) {
            Compare.shuffle(visit, random);
            first[visit[0]]++;
        }
        // a fair shuffle puts each first 1000 times, give or take 26 (one standard deviation)
        for (int server = 0; server < 3; server++) {
            assertThat(first[server]).as("rounds of %d in which server %d went first (a fixed order gives one server all of them)", rounds, server)
                    .isBetween(850, 1150);
        }
    }

    @Test
    void everyOrderIsEquallyLikely() {
        // 27,000 rounds of 3 servers: a fair shuffle gives each of the 6 orders 4,500, give or take 61;
        // swapping each slot with any slot (not one at or below it) gives 4,000 or 5,000
        Map<String, Integer> count = orders(3, 27_000, 7);
        assertThat(count).as("the orders of 3 servers seen over 27,000 rounds").hasSize(6);
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            assertThat(e.getValue()).as("rounds in order %s, of 27,000 (4,500 expected)", e.getKey()).isBetween(4200, 4800);
        }
    }

    @Test
    void theSeedRepeatsTheOrders() {
        int[] a = new int[4], b = new int[4];
        SplittableRandom ra = new SplittableRandom(42), rb = new SplittableRandom(42), other = new SplittableRandom(43);
        StringBuilder same = new StringBuilder(), again = new StringBuilder(), different = new StringBuilder();
        for (int r = 0; r < 50; r++) {
            Compare.shuffle(a, ra);
            same.append(Arrays.toString(a));
            Compare.shuffle(b, rb);
            again.append(Arrays.toString(b));
            Compare.shuffle(b, other);
            different.append(Arrays.toString(b));
        }
        assertThat(again.toString()).as("the orders of 50 rounds drawn twice from seed 42").isEqualTo(same.toString());
        assertThat(different.toString()).as("the orders of 50 rounds from seeds 42 and 43").isNotEqualTo(same.toString());
    }
}
