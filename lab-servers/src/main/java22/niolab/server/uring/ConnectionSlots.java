package niolab.server.uring;

import java.util.Arrays;

/**
 * The loop's connections, by slot: the number a completion's user_data names. A slot returns
 * to the free list only once its connection is quiet (closed, and the kernel holds none of its
 * requests), so a completion always finds its own connection. Slots and their objects are
 * reused, lowest first: accepting allocates nothing once the table has grown to the most
 * connections open at once.
 */
final class ConnectionSlots {
    private final RecvBuffers input;
    private UringConnection[] all = new UringConnection[0];
    private int[] free = new int[0];
    private int freeCount;
    /** Slots taken and not yet given back: open connections, and closed ones the kernel still holds. */
    int inUse;

    ConnectionSlots(RecvBuffers input) {
        this.input = input;
    }

    UringConnection get(int slot) {
        return all[slot];
    }

    /** Every slot, free or not, for the sweeps: check {@link UringConnection#isOpen()}. */
    UringConnection[] all() {
        return all;
    }

    UringConnection take() {
        if (freeCount == 0) grow();
        inUse++;
        return all[free[--freeCount]];
    }

    void giveBack(UringConnection c) {
        c.fd = -1;
        c.closing = false;
        free[freeCount++] = c.slot;
        inUse--;
    }

    /** Cold: the first time this many connections are open at once. */
    private void grow() {
        int n = all.length;
        int grown = Math.max(64, 2 * n);
        all = Arrays.copyOf(all, grown);
        free = Arrays.copyOf(free, grown);
        for (int slot = grown - 1; slot >= n; slot--) {
            all[slot] = new UringConnection(slot);
            free[freeCount++] = slot;
        }
        input.slotsGrew(grown);
    }
}
