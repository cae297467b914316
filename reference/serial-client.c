/*
 * serial-client: the original write-up's serial run written as plainly as C allows, the ruler that
 * echo-bench's serial mode is measured against.
 *
 *   serial-client [-n N] [--runs R] [--warmup W] [--size BYTES] [host:]port
 *
 * Each request is a fresh TCP connection and exactly six syscalls: socket, setsockopt
 * (TCP_NODELAY), connect, write, read (until the whole echo is back: once for 64 bytes), close.
 * Every echo is compared byte for byte. It prints echo-bench's table (run qps min p50 p90 p99
 * p999 max elapsed; latencies in µs, elapsed in s): latency runs from socket() to the last byte
 * of the echo, elapsed from the first request to the last echo, as echo-bench measures them;
 * the cpu line is this process's CPU time (user and system) per request, as echo-bench's.
 *
 * There is no per-request timeout: bounding a blocking read costs a syscall (poll, or
 * setsockopt SO_RCVTIMEO), and this client exists to show what the bare six cost. Whoever runs
 * it bounds the whole run (scripts/bench-serial.sh uses timeout(1)). Any error ends the run
 * with one line and exit code 1; bad flags exit 2.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct options {
    long requests;
    long runs;
    long warmup;
    long size;
    struct sockaddr_storage target;
    socklen_t target_len;
    const char *target_text;
};

/* CPU time this process has used, user and system, in ns. */
static int64_t cpu_ns(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((int64_t) ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000
           + ((int64_t) ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void usage_error(const char *message, const char *arg) {
    fprintf(stderr, "error: %s%s%s\n", message, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "usage: serial-client [-n N] [--runs R] [--warmup W] [--size BYTES] [host:]port\n");
    exit(2);
}

static long parse_count(const char *flag, const char *value, long min) {
    char *end;
    errno = 0;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || errno || *end || v < min) {
        fprintf(stderr, "error: %s takes a whole number of at least %ld\n", flag, min);
        exit(2);
    }
    return v;
}

/* "host:port", "[v6]:port" or a bare port meaning 127.0.0.1; numeric addresses only. */
static void parse_target(struct options *o, const char *text) {
    char host[64] = "127.0.0.1";
    const char *port = text;
    const char *colon = strrchr(text, ':');
    if (colon) {
        size_t n = (size_t) (colon - text);
        if (n >= 2 && text[0] == '[' && text[n - 1] == ']') {
            text++;
            n -= 2;
        }
        if (n == 0 || n >= sizeof host) usage_error("not host:port", o->target_text);
        memcpy(host, text, n);
        host[n] = 0;
        port = colon + 1;
    }
    long p = parse_count("port", port, 1);
    if (p > 65535) usage_error("port out of range", o->target_text);
    memset(&o->target, 0, sizeof o->target);
    struct sockaddr_in *v4 = (struct sockaddr_in *) &o->target;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) &o->target;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t) p);
        o->target_len = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t) p);
        o->target_len = sizeof *v6;
    } else {
        usage_error("not a numeric address", host);
    }
}

static void parse_options(struct options *o, int argc, char **argv) {
    *o = (struct options) {.requests = 100, .runs = 1, .warmup = 0, .size = 64, .target_text = "127.0.0.1:9988"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-n") || !strcmp(a, "--requests")) {
            o->requests = parse_count(a, v, 1), i++;
        } else if (!strcmp(a, "--runs")) {
            o->runs = parse_count(a, v, 1), i++;
        } else if (!strcmp(a, "--warmup")) {
            o->warmup = parse_count(a, v, 0), i++;
        } else if (!strcmp(a, "--size")) {
            o->size = parse_count(a, v, 1), i++;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: serial-client [-n N] [--runs R] [--warmup W] [--size BYTES] [host:]port\n");
            exit(0);
        } else if (a[0] == '-') {
            usage_error("unknown option", a);
        } else {
            o->target_text = a;
        }
    }
    parse_target(o, o->target_text);
}

/* One request on a fresh connection; returns 0 and sets *echoed_at, or -1 with errno set (EPROTO: wrong bytes). */
static int request(const struct options *o, const uint8_t *payload, uint8_t *echo, int64_t *echoed_at) {
    int fd = socket(o->target.ss_family, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) goto fail;
    if (connect(fd, (const struct sockaddr *) &o->target, o->target_len) < 0) goto fail;
    for (long sent = 0; sent < o->size;) {
        ssize_t w = write(fd, payload + sent, (size_t) (o->size - sent));
        if (w < 0) goto fail;
        sent += w;
    }
    for (long got = 0; got < o->size;) {
        ssize_t r = read(fd, echo + got, (size_t) (o->size - got));
        if (r < 0) goto fail;
        if (r == 0) {
            errno = ECONNABORTED; /* closed before the whole echo came back */
            goto fail;
        }
        got += r;
    }
    *echoed_at = now_ns();
    if (memcmp(payload, echo, (size_t) o->size) != 0) {
        errno = EPROTO;
        goto fail;
    }
    close(fd);
    return 0;
fail:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

static int compare_longs(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return (x > y) - (x < y);
}

/* Nearest rank, as a histogram's value at a percentile: the smallest value with p% at or below it. */
static long percentile(const long *sorted, long n, double p) {
    long rank = (long) (p / 100.0 * (double) n + 0.999999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

struct run_result {
    double qps;
    double columns[6]; /* min p50 p90 p99 p999 max, µs */
    double elapsed_s;
    double cpu_us;     /* this process's CPU per request, µs */
};

static struct run_result measure(const struct options *o, long n, const uint8_t *payload, uint8_t *echo, long *latency_us) {
    int64_t cpu0 = cpu_ns(), start = now_ns(), last = start;
    for (long i = 0; i < n; i++) {
        int64_t t0 = now_ns();
        if (request(o, payload, echo, &last) < 0) {
            if (errno == ECONNREFUSED && i == 0) {
                fprintf(stderr, "error: connection refused by %s (is the server running?)\n", o->target_text);
            } else {
                fprintf(stderr, "error: request %ld: %s\n", i + 1,
                        errno == EPROTO ? "the echo differs from the request"
                        : errno == ECONNABORTED ? "the connection closed before the whole echo came back"
                        : strerror(errno));
            }
            exit(1);
        }
        latency_us[i] = (long) ((last - t0) / 1000);
    }
    struct run_result r;
    r.cpu_us = (double) (cpu_ns() - cpu0) / 1000.0 / (double) n;
    qsort(latency_us, (size_t) n, sizeof *latency_us, compare_longs);
    r.elapsed_s = (double) (last - start) / 1e9;
    r.qps = r.elapsed_s > 0 ? (double) n / r.elapsed_s : 0;
    const double ps[] = {0, 50, 90, 99, 99.9, 100};
    for (int k = 0; k < 6; k++) r.columns[k] = (double) (k == 0 ? latency_us[0] : percentile(latency_us, n, ps[k]));
    return r;
}

static void print_row(const char *label, const struct run_result *r) {
    printf("%-6s %10.1f %8ld %8ld %8ld %8ld %8ld %8ld %9.3f\n", label, r->qps, lround(r->columns[0]), lround(r->columns[1]),
           lround(r->columns[2]), lround(r->columns[3]), lround(r->columns[4]), lround(r->columns[5]), r->elapsed_s);
}

int main(int argc, char **argv) {
    struct options o;
    parse_options(&o, argc, argv);
    uint8_t *payload = malloc((size_t) o.size);
    uint8_t *echo = malloc((size_t) o.size);
    long *latency_us = malloc(sizeof(long) * (size_t) (o.requests > o.warmup ? o.requests : o.warmup));
    if (!payload || !echo || !latency_us) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }
    uint64_t x = 0x9E3779B97F4A7C15u; /* any fixed bytes: the check is that they come back */
    for (long i = 0; i < o.size; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        payload[i] = (uint8_t) x;
    }
    printf("# serial-client -> %s: serial short connections, %ld requests x %ld runs, %ld-byte payload\n",
           o.target_text, o.requests, o.runs, o.size);
    fflush(stdout);
    if (o.warmup > 0) {
        struct run_result w = measure(&o, o.warmup, payload, echo, latency_us);
        printf("warmup: %ld requests, %.1f qps, p50 %ld us, %.3f s (not counted)\n", o.warmup, w.qps, lround(w.columns[1]),
               w.elapsed_s);
    }
    printf("%-6s %10s %8s %8s %8s %8s %8s %8s %9s\n", "run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed");
    struct run_result mean = {0};
    for (long run = 1; run <= o.runs; run++) {
        struct run_result r = measure(&o, o.requests, payload, echo, latency_us);
        char label[24];
        snprintf(label, sizeof label, "%ld", run);
        print_row(label, &r);
        mean.qps += r.qps / (double) o.runs;
        mean.elapsed_s += r.elapsed_s / (double) o.runs;
        mean.cpu_us += r.cpu_us / (double) o.runs;
        for (int k = 0; k < 6; k++) mean.columns[k] += r.columns[k] / (double) o.runs;
    }
    print_row("mean", &mean);
    printf("cpu: client %.1f us/request\n", mean.cpu_us);
    return 0;
}
