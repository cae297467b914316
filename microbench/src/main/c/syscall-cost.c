/*
 * The bare cost of the calls an epoll event loop makes per event, from C: the floor under
 * every binding's figure in `make bench-ffi` (a binding's overhead = its ns per call - this).
 *
 *   syscall-cost [calls-per-round [rounds]]      default 1000000 calls, 5 rounds
 *
 * Prints CSV, one row per timed round: call,round,calls,ns_per_call. The calls, on the same
 * set-up as the JMH benchmarks (microbench/src/main/java/niolab/microbench):
 *   epollWait   epoll_wait(epfd, events, 64, 0) on an epoll set with nothing in it
 *   readEagain  read(fd, buf, 64 KiB) on a non-blocking TCP socket with nothing to read
 *   send64      send(fd, 64 bytes, MSG_NOSIGNAL) on a non-blocking TCP_NODELAY socket over 127.0.0.1,
 *               timed in batches of SEND_BATCH; the peer is drained between batches, untimed
 * A first round of each call is a warm-up and is not printed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SEND_BATCH 256 /* as SyscallCosts.SEND_BATCH */
#define PAYLOAD 64

static void die(const char *what) {
    fprintf(stderr, "syscall-cost: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Both ends of a TCP connection over 127.0.0.1, non-blocking: fds[0] connected, fds[1] accepted. */
static void loopback_pair(int fds[2]) {
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof at;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *) &at, len) < 0 || listen(listener, 1) < 0
        || getsockname(listener, (struct sockaddr *) &at, &len) < 0) die("listen");
    fds[0] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fds[0] < 0 || (connect(fds[0], (struct sockaddr *) &at, len) < 0 && errno != EINPROGRESS)) die("connect");
    fds[1] = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); /* blocking listener: waits for the handshake */
    if (fds[1] < 0) die("accept4");
    close(listener);
}

static char buffer[65536];

static void drain(int fd) {
    while (read(fd, buffer, sizeof buffer) > 0) {
    }
}

static double epoll_wait_round(int epfd, long calls) {
    struct epoll_event events[64];
    long long start = now_ns();
    for (long i = 0; i < calls; i++) {
        if (epoll_wait(epfd, events, 64, 0) != 0) die("epoll_wait");
    }
    return (double) (now_ns() - start) / calls;
}

static double read_round(int fd, long calls) {
    long long start = now_ns();
    for (long i = 0; i < calls; i++) {
        if (read(fd, buffer, sizeof buffer) != -1 || errno != EAGAIN) die("read of an empty socket");
    }
    return (double) (now_ns() - start) / calls;
}

static double send_round(int sender, int receiver, long calls) {
    static const char payload[PAYLOAD];
    long batches = calls / SEND_BATCH;
    long long timed = 0;
    for (long b = 0; b < batches; b++) {
        drain(receiver);
        long long start = now_ns();
        for (int i = 0; i < SEND_BATCH; i++) {
            if (send(sender, payload, PAYLOAD, MSG_NOSIGNAL) != PAYLOAD) die("send (a full peer: drain more often)");
        }
        timed += now_ns() - start;
    }
    return (double) timed / (batches * SEND_BATCH);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (calls < SEND_BATCH || rounds < 1) {
        fprintf(stderr, "usage: syscall-cost [calls-per-round >= %d [rounds >= 1]]\n", SEND_BATCH);
        return 2;
    }
    int pair[2];
    loopback_pair(pair);
    int one = 1;
    if (setsockopt(pair[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) die("TCP_NODELAY");
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die("epoll_create1");

    printf("call,round,calls,ns_per_call\n");
    for (int r = 0; r <= rounds; r++) {
        double ns = epoll_wait_round(epfd, calls);
        if (r > 0) printf("epollWait,%d,%ld,%.2f\n", r, calls, ns);
    }
    for (int r = 0; r <= rounds; r++) {
        double ns = read_round(pair[1], calls);
        if (r > 0) printf("readEagain,%d,%ld,%.2f\n", r, calls, ns);
    }
    for (int r = 0; r <= rounds; r++) {
        double ns = send_round(pair[0], pair[1], calls);
        if (r > 0) printf("send64,%d,%ld,%.2f\n", r, calls / SEND_BATCH * SEND_BATCH, ns);
    }
    return 0;
}
