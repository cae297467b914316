/*
 * keepalive-client: keep-alive echo load written as plainly as C allows, the ruler beside
 * echo-bench --keepalive, so that a Java client is never the unseen limit of a server's rate.
 *
 *   keepalive-client [-c CONNECTIONS] [-d SECONDS] [--warmup SECONDS] [--size BYTES] [host:]port
 *
 * One thread, epoll (level-triggered). Each of the CONNECTIONS connections (default 50) sends
 * a payload of --size bytes (64), reads until the whole echo is back, compares it byte for byte,
 * and sends the next: closed loop, one request in flight per connection, as echo-bench's
 * --keepalive. After --warmup seconds (default 0, not counted) it counts for -d seconds (10)
 * and prints one line:
 *
 *   requests 1234567 in 10.000 s: 123456.7 requests/s, client cpu 3.21 us/request (50 connections, 64 bytes)
 *
 * Any error (refused, reset, an echo that differs, a connection closed early) ends the run with
 * one line and exit code 1; bad flags exit 2.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn {
    int fd;
    long got; /* bytes of the current echo received */
};

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t cpu_ns(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((int64_t) ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000
           + ((int64_t) ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

static void usage_error(const char *message, const char *arg) {
    fprintf(stderr, "error: %s%s%s\n", message, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "usage: keepalive-client [-c CONNECTIONS] [-d SECONDS] [--warmup SECONDS] [--size BYTES] [host:]port\n");
    exit(2);
}

static long parse_count(const char *flag, const char *value, long min, long max) {
    char *end;
    errno = 0;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || errno || *end || v < min || v > max) {
        fprintf(stderr, "error: %s takes a whole number from %ld to %ld\n", flag, min, max);
        exit(2);
    }
    return v;
}

static void fail(const char *what) {
    fprintf(stderr, "error: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Writes the whole payload: 64 bytes fit an empty socket buffer, so a short write is an error here. */
static void send_payload(int fd, const uint8_t *payload, long size) {
    ssize_t w = write(fd, payload, (size_t) size);
    if (w != size) {
        if (w >= 0) errno = EMSGSIZE;
        fail("write");
    }
}

int main(int argc, char **argv) {
    long connections = 50, seconds = 10, warmup = 0, size = 64;
    const char *target = "127.0.0.1:9988";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-c") || !strcmp(a, "--connections")) connections = parse_count(a, v, 1, 60000), i++;
        else if (!strcmp(a, "-d") || !strcmp(a, "--duration")) seconds = parse_count(a, v, 1, 86400), i++;
        else if (!strcmp(a, "--warmup")) warmup = parse_count(a, v, 0, 86400), i++;
        else if (!strcmp(a, "--size")) size = parse_count(a, v, 1, 65536), i++;
        else if (a[0] == '-') usage_error("unknown option", a);
        else target = a;
    }
    char host[64] = "127.0.0.1";
    const char *colon = strrchr(target, ':'), *port = colon ? colon + 1 : target;
    if (colon) {
        size_t n = (size_t) (colon - target);
        if (n == 0 || n >= sizeof host) usage_error("not host:port", target);
        memcpy(host, target, n);
        host[n] = 0;
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) parse_count("port", port, 1, 65535))};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) usage_error("not a numeric IPv4 address", host);

    uint8_t *payload = malloc((size_t) size), *echo = malloc((size_t) size);
    struct conn *conns = calloc((size_t) connections, sizeof *conns);
    struct epoll_event *events = calloc((size_t) connections, sizeof *events);
    if (!payload || !echo || !conns || !events) fail("malloc");
    for (long i = 0; i < size; i++) payload[i] = (uint8_t) ('a' + i % 26);
    int ep = epoll_create1(0);
    if (ep < 0) fail("epoll_create1");
    for (long i = 0; i < connections; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        if (fd < 0) fail("socket");
        if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) fail("setsockopt");
        if (connect(fd, (struct sockaddr *) &addr, sizeof addr) < 0) {
            if (errno == ECONNREFUSED) fprintf(stderr, "error: connection refused by %s (is the server running?)\n", target), exit(1);
            fail("connect");
        }
        conns[i].fd = fd;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &conns[i]};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) fail("epoll_ctl");
        send_payload(fd, payload, size);
    }

    int64_t start = now_ns(), counting_from = start + warmup * 1000000000LL, end = counting_from + seconds * 1000000000LL;
    int64_t cpu0 = 0, t = start;
    long requests = 0;
    int counting = warmup == 0;
    if (counting) cpu0 = cpu_ns();
    while (t < end) {
        int n = epoll_wait(ep, events, (int) connections, 100);
        if (n < 0 && errno != EINTR) fail("epoll_wait");
        for (int k = 0; k < n; k++) {
            struct conn *c = events[k].data.ptr;
            ssize_t r = read(c->fd, echo + c->got, (size_t) (size - c->got));
            if (r < 0) fail("read");
            if (r == 0) fprintf(stderr, "error: the server closed a connection before the whole echo came back\n"), exit(1);
            c->got += r;
            if (c->got < size) continue;
            if (memcmp(echo, payload, (size_t) size) != 0) fprintf(stderr, "error: an echo differs from its request\n"), exit(1);
            c->got = 0;
            if (counting) requests++;
            send_payload(c->fd, payload, size);
        }
        t = now_ns();
        if (!counting && t >= counting_from) {
            counting = 1;
            cpu0 = cpu_ns();
            end = t + seconds * 1000000000LL;
        }
    }
    double elapsed = (double) (t - (end - seconds * 1000000000LL)) / 1e9;
    double cpu_us = requests ? (double) (cpu_ns() - cpu0) / 1000.0 / (double) requests : 0;
    printf("requests %ld in %.3f s: %.1f requests/s, client cpu %.2f us/request (%ld connections, %ld bytes)\n",
           requests, elapsed, (double) requests / elapsed, cpu_us, connections, size);
    return 0;
}
