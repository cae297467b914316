package niolab.server.mp;

import niolab.common.ReadyLine;

/** What the relay threads and the signal handlers tell the master's thread, in one queue. */
record PoolEvent(Kind kind, Worker.Life life, ReadyLine ready, int status) {
    enum Kind { READY, EXITED, WAKE }

    static PoolEvent ready(Worker.Life life, ReadyLine ready) {
        return new PoolEvent(Kind.READY, life, ready, 0);
    }

    static PoolEvent exited(Worker.Life life, int status) {
        return new PoolEvent(Kind.EXITED, life, null, status);
    }

    static PoolEvent wake() {
        return new PoolEvent(Kind.WAKE, null, null, 0);
    }
}
