package niolab.server.mp;

/** What the relay threads and the signal handlers tell the master's thread, in one queue. */
record PoolEvent(Kind kind, Worker.Life life, String host, int port, String label, int status) {
    enum Kind { READY, EXITED, WAKE }

    static PoolEvent ready(Worker.Life life, String host, int port, String label) {
        return new PoolEvent(Kind.READY, life, host, port, label, 0);
    }

    static PoolEvent exited(Worker.Life life, int status) {
        return new PoolEvent(Kind.EXITED, life, null, 0, null, status);
    }

    static PoolEvent wake() {
        return new PoolEvent(Kind.WAKE, null, null, 0, null, 0);
    }
}
