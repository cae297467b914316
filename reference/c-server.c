/*
 * c-server: the C reference server, the ceiling the lab's Java servers are compared against.
 *
 *   c-server [--host 127.0.0.1] [--port 9988] [--protocol echo|http] [--backlog 1024]
 *   bin/lab-server c --port 9988      # the same, started as every lab server is
 *
 * One thread, one epoll instance, level-triggered, non-blocking sockets: the lt design without
 * a JVM. Per connection it makes the calls any epoll server must (accept4, setsockopt
 * TCP_NODELAY, epoll_ctl, read, write, close) and no others: close removes the descriptor from
 * the epoll set, so there is no EPOLL_CTL_DEL. It prints the lab's ready line
 * ("listening on 127.0.0.1:9988 (c, echo)") and, on SIGTERM or SIGINT, stops accepting, lets
 * its connections finish for up to 2 s, closes them and prints the lab's counters line.
 *
 * Echo: every byte comes back in order; a client that half-closes gets all of its echo, then
 * the server closes. HTTP: the lab's /ping rules (http-ping.c), pipelined requests answered in
 * order with one write per batch; after a closing answer (400, 431, Connection: close) it
 * lingers as the Java servers do (RFC 9112 9.6): shutdown(SHUT_WR), then reads and drops what
 * still comes until end of stream, --linger-bytes or --linger-time, then closes, so that a
 * reset cannot destroy the answer. Backpressure as in lt: a connection whose output is pending
 * waits for EPOLLOUT only and is not read meanwhile, so it holds at most one buffer of output
 * here; the rest waits in the kernel.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http-ping.h"

#define BUFFER_SIZE 65536
#define MAX_EVENTS 256
#define ACCEPT_BACKOFF_MS 100
#define DRAIN_GRACE_MS 2000

struct options {
    const char *host;
    const char *port;
    int http;
    int backlog;
    int reuse_port;
    int64_t linger_ms;
    long linger_bytes;
};

/* One connection, indexed by its descriptor. Pending buffers are allocated the first time a write is partial. */
struct conn {
    int open;
    int waiting_writable;       /* output pending: registered for EPOLLOUT only, not read */
    int close_after_pending;    /* http: the pending output ends with a closing response */
    uint8_t *out;               /* pending output, out[out_pos..out_len) */
    size_t out_pos, out_len;
    uint8_t *in;                /* http: requests read but not parsed yet, in[in_pos..in_len) */
    size_t in_pos, in_len;
    struct http_conn http;
    int lingering;              /* http: answered and half-closed; what comes is read and dropped */
    int64_t linger_deadline;    /* when the linger is cut off (now_ms) */
    long linger_bytes;          /* dropped so far */
    int linger_prev, linger_next; /* the linger queue, oldest first (every deadline is start + linger_ms), by fd; -1 ends */
};

/* respond's result when the batch ended with a closing answer, all of it written: linger, then close. */
#define ANSWERED_CLOSING 1

/* The lab's counters line (lab-servers' Counters.format), so scripts read every server alike. */
static struct {
    unsigned long accepts, accept_failures, closes, reads, reads_eagain, writes, writes_eagain, partial_writes;
    unsigned long bytes_in, bytes_out, resets, waits, events;
    unsigned long linger_closes, linger_bytes, linger_timeouts;
} counters;

static struct options options;
static int epfd, listen_fd = -1;
static struct conn *conns;
static int conn_capacity, live;
static uint8_t read_buffer[BUFFER_SIZE], write_buffer[BUFFER_SIZE];
static volatile sig_atomic_t stop_requested;
static int64_t accept_resume_at; /* while accepts are paused after EMFILE..., when to retry; else 0 */
static int accept_failing;
static int linger_oldest = -1, linger_newest = -1;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(int sig) {
    (void) sig;
    stop_requested = 1;
}

static int watch(int fd, uint32_t events, int op) {
    struct epoll_event ev = {.events = events, .data.fd = fd};
    return epoll_ctl(epfd, op, fd, &ev);
}

/* Takes fd off the linger queue, if it is on it; returns whether it was. */
static int unlinger(int fd) {
    struct conn *c = &conns[fd];
    if (!c->lingering) return 0;
    c->lingering = 0;
    if (c->linger_prev < 0) linger_oldest = c->linger_next; else conns[c->linger_prev].linger_next = c->linger_next;
    if (c->linger_next < 0) linger_newest = c->linger_prev; else conns[c->linger_next].linger_prev = c->linger_prev;
    return 1;
}

/* Closing also removes the descriptor from the epoll set; the slot keeps no memory. */
static void close_conn(int fd) {
    struct conn *c = &conns[fd];
    if (unlinger(fd)) counters.linger_closes++;
    free(c->out);
    free(c->in);
    *c = (struct conn) {0};
    live--;
    counters.closes++;
    close(fd);
}

/* Writes out[*pos..len); returns 0 when all of it went, 1 when the socket is full, -1 on error (reset, broken pipe). */
static int write_some(int fd, const uint8_t *out, size_t *pos, size_t len) {
    ssize_t w = write(fd, out + *pos, len - *pos);
    counters.writes++;
    if (w < 0) {
        if (errno != EAGAIN) return -1;
        counters.writes_eagain++;
        return 1;
    }
    counters.bytes_out += (unsigned long) w;
    *pos += (size_t) w;
    return *pos < len;
}

/*
 * Keeps the unwritten output and, for http, the unparsed input in[in_pos..in_len), then waits
 * for EPOLLOUT instead of EPOLLIN. Returns -1 if there is no memory for it (the caller closes).
 */
static int park(int fd, const uint8_t *out, size_t out_len, const uint8_t *in, size_t in_pos, size_t in_len, int close_after) {
    struct conn *c = &conns[fd];
    if (!c->out) {
        c->out = malloc(BUFFER_SIZE); /* once per connection, on the slow path */
        c->in = options.http ? malloc(BUFFER_SIZE) : NULL;
        if (!c->out || (options.http && !c->in)) return -1;
    }
    memcpy(c->out, out, out_len);
    c->out_pos = 0;
    c->out_len = out_len;
    if (in != c->in) { /* else the parked input is being answered: its position has moved already */
        if (in_len > in_pos) memcpy(c->in, in + in_pos, in_len - in_pos);
        c->in_pos = 0;
        c->in_len = in_len - in_pos;
    }
    c->close_after_pending = close_after;
    c->waiting_writable = 1;
    counters.partial_writes++;
    return watch(fd, EPOLLOUT, EPOLL_CTL_MOD);
}

/* Echo: write straight back what was read; a partial write parks the rest. */
static int echo(int fd, size_t n) {
    size_t pos = 0;
    int r = write_some(fd, read_buffer, &pos, n);
    if (r <= 0) return r;
    return park(fd, read_buffer + pos, n - pos, NULL, 0, 0, 0);
}

/* HTTP: answers every complete request in in[*pos..len) with one write per batch; returns -1 to close the connection. */
static int respond(int fd, const uint8_t *in, size_t *pos, size_t len) {
    struct conn *c = &conns[fd];
    int flags;
    do {
        size_t out_len = 0, out_pos = 0;
        flags = http_ping_process(&c->http, in, pos, len, write_buffer, &out_len, sizeof write_buffer);
        if (out_len == 0) continue; /* a partial request answers nothing: no syscall */
        int r = write_some(fd, write_buffer, &out_pos, out_len);
        if (r < 0) return -1;
        if (r > 0) return park(fd, write_buffer + out_pos, out_len - out_pos, in, *pos, len, flags & HTTP_CLOSE);
    } while (flags & HTTP_OUT_FULL);
    return flags & HTTP_CLOSE ? ANSWERED_CLOSING : 0;
}

/* The closing answer has gone out whole: half-close, then read and drop until end of stream or a bound (RFC 9112 9.6). */
static void linger(int fd) {
    struct conn *c = &conns[fd];
    if (shutdown(fd, SHUT_WR) < 0 || (c->waiting_writable && watch(fd, EPOLLIN, EPOLL_CTL_MOD) < 0)) {
        close_conn(fd);
        return;
    }
    c->waiting_writable = 0;
    c->lingering = 1;
    c->linger_deadline = now_ms() + options.linger_ms;
    c->linger_bytes = 0;
    c->linger_prev = linger_newest;
    c->linger_next = -1;
    if (linger_newest < 0) linger_oldest = fd; else conns[linger_newest].linger_next = fd;
    linger_newest = fd;
}

/* What respond or echo said: close on an error, linger after a closing answer. */
static void after_answer(int fd, int r) {
    if (r < 0) close_conn(fd);
    else if (r == ANSWERED_CLOSING) linger(fd);
}

/* A lingering connection is readable: drop what it sent; close at its end of stream or at --linger-bytes. */
static void on_lingering(int fd) {
    struct conn *c = &conns[fd];
    ssize_t n = read(fd, read_buffer, sizeof read_buffer);
    counters.reads++;
    if (n < 0 && errno == EAGAIN) {
        counters.reads_eagain++;
        return;
    }
    if (n > 0) {
        counters.bytes_in += (unsigned long) n;
        counters.linger_bytes += (unsigned long) n;
        c->linger_bytes += n;
        if (c->linger_bytes < options.linger_bytes) return;
        counters.linger_timeouts++;
    }
    close_conn(fd);
}

/* Closes the lingering connections whose --linger-time is up; returns the wait until the next deadline (-1: none). */
static int close_overdue_lingers(void) {
    int64_t now = now_ms();
    while (linger_oldest >= 0 && conns[linger_oldest].linger_deadline <= now) {
        counters.linger_timeouts++;
        close_conn(linger_oldest);
    }
    return linger_oldest < 0 ? -1 : (int) (conns[linger_oldest].linger_deadline - now);
}

static void on_readable(int fd) {
    ssize_t n = read(fd, read_buffer, sizeof read_buffer);
    counters.reads++;
    if (n < 0 && errno == EAGAIN) {
        counters.reads_eagain++;
        return;
    }
    if (n < 0) counters.resets++;
    if (n <= 0) {
        /* The peer finished sending (or reset), and all it sent has been answered: we never read while output is pending. */
        close_conn(fd);
        return;
    }
    counters.bytes_in += (unsigned long) n;
    size_t pos = 0;
    after_answer(fd, options.http ? respond(fd, read_buffer, &pos, (size_t) n) : echo(fd, (size_t) n));
}

static void on_writable(int fd) {
    struct conn *c = &conns[fd];
    int r = write_some(fd, c->out, &c->out_pos, c->out_len);
    if (r > 0) return;
    if (r < 0) {
        counters.resets++;
        close_conn(fd);
        return;
    }
    if (c->close_after_pending) {
        linger(fd);
        return;
    }
    c->waiting_writable = 0;
    if (watch(fd, EPOLLIN, EPOLL_CTL_MOD) < 0) {
        close_conn(fd);
        return;
    }
    /* requests that arrived with the parked batch; respond may park them again */
    if (options.http) after_answer(fd, respond(fd, c->in, &c->in_pos, c->in_len));
}

static int grow_table(int fd) {
    if (fd < conn_capacity) return 0;
    int capacity = conn_capacity ? conn_capacity : 1024;
    while (capacity <= fd) capacity *= 2;
    struct conn *bigger = realloc(conns, sizeof *conns * (size_t) capacity);
    if (!bigger) return -1;
    memset(bigger + conn_capacity, 0, sizeof *conns * (size_t) (capacity - conn_capacity));
    conns = bigger;
    conn_capacity = capacity;
    return 0;
}

/* Out of descriptors (or memory): stop watching the listener for a while, one log line per episode. */
static void pause_accepting(int err) {
    counters.accept_failures++;
    watch(listen_fd, 0, EPOLL_CTL_MOD); /* level-triggered: a failing listener would stay ready and spin */
    accept_resume_at = now_ms() + ACCEPT_BACKOFF_MS;
    if (!accept_failing) {
        accept_failing = 1;
        fprintf(stderr, "c: accept failed (%s); pausing accepts, retrying every %d ms\n", strerror(err), ACCEPT_BACKOFF_MS);
    }
}

static void on_acceptable(void) {
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EAGAIN) {
                accept_failing = 0; /* the backlog is drained: a failure episode, if any, is over */
                return;
            }
            if (errno == EINTR || errno == ECONNABORTED) continue;
            pause_accepting(errno);
            return;
        }
        counters.accepts++;
        if (grow_table(fd) < 0) {
            counters.resets++;
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct conn *c = &conns[fd];
        c->open = 1;
        if (options.http) http_conn_reset(&c->http);
        live++;
        if (watch(fd, EPOLLIN, EPOLL_CTL_ADD) < 0) {
            counters.resets++;
            close_conn(fd);
        }
    }
}

static void dispatch(const struct epoll_event *events, int n) {
    for (int i = 0; i < n; i++) {
        int fd = events[i].data.fd;
        if (fd == listen_fd) {
            on_acceptable();
        } else if (fd < conn_capacity && conns[fd].open) {
            if (conns[fd].lingering) {
                on_lingering(fd);
            } else if (conns[fd].waiting_writable) {
                on_writable(fd);
            } else {
                on_readable(fd);
            }
        }
    }
}

/* Waits for events, bounded by timeout_ms (-1: none); SIGTERM and SIGINT are let in only while it waits. */
static int wait_events(struct epoll_event *events, int timeout_ms, const sigset_t *waiting_mask) {
    int n = epoll_pwait(epfd, events, MAX_EVENTS, timeout_ms, waiting_mask);
    counters.waits++;
    if (n < 0) return 0; /* EINTR: a signal arrived */
    counters.events += (unsigned long) n;
    return n;
}

static void serve(const sigset_t *waiting_mask) {
    struct epoll_event events[MAX_EVENTS];
    int to_linger_deadline = -1;
    while (!stop_requested) {
        int timeout = accept_resume_at ? ACCEPT_BACKOFF_MS : -1;
        if (to_linger_deadline >= 0 && (timeout < 0 || to_linger_deadline < timeout)) timeout = to_linger_deadline;
        dispatch(events, wait_events(events, timeout, waiting_mask));
        to_linger_deadline = close_overdue_lingers();
        if (accept_resume_at && now_ms() >= accept_resume_at && listen_fd >= 0) {
            accept_resume_at = 0;
            watch(listen_fd, EPOLLIN, EPOLL_CTL_MOD);
        }
    }
    /* Graceful stop: no new connections; the open ones get a short grace to finish their exchanges. */
    close(listen_fd);
    listen_fd = -1;
    int64_t deadline = now_ms() + DRAIN_GRACE_MS;
    while (live > 0 && now_ms() < deadline) {
        dispatch(events, wait_events(events, 50, waiting_mask));
        close_overdue_lingers();
    }
    for (int fd = 0; fd < conn_capacity; fd++) {
        if (conns[fd].open) close_conn(fd);
    }
}

static void usage(FILE *to) {
    fprintf(to, "usage: c-server [--host 127.0.0.1] [--port 9988] [--protocol echo|http] [--backlog 1024] [--reuse-port]\n"
                "                [--linger-time 2s] [--linger-bytes 1048576]\n");
}

static void bad_flag(const char *message, const char *value) {
    fprintf(stderr, "error: %s%s%s\n", message, value ? ": " : "", value ? value : "");
    usage(stderr);
    exit(2);
}

static long parse_number(const char *flag, const char *value, long min, long max) {
    char *end;
    errno = 0;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || !*value || errno || *end || v < min || v > max) {
        fprintf(stderr, "error: %s takes a number from %ld to %ld, not '%s'\n", flag, min, max, value ? value : "");
        exit(2);
    }
    return v;
}

/* 500ms, 2s or a bare number of seconds, as the Java servers take durations. */
static int64_t parse_millis(const char *flag, const char *value) {
    char *end;
    errno = 0;
    double v = value ? strtod(value, &end) : 0;
    if (!value || !*value || errno || v < 0 || (strcmp(end, "ms") && strcmp(end, "s") && *end)) {
        fprintf(stderr, "error: %s takes a duration such as 500ms or 2s, not '%s'\n", flag, value ? value : "");
        exit(2);
    }
    return (int64_t) (strcmp(end, "ms") ? v * 1000 : v);
}

static void parse_options(int argc, char **argv) {
    options = (struct options) {.host = "127.0.0.1", .port = "9988", .http = 0, .backlog = 1024, .linger_ms = 2000,
                                .linger_bytes = 1L << 20};
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *value;
        const char *eq = strchr(argv[i], '=');
        if (argv[i][0] == '-' && eq && (size_t) (eq - argv[i]) < sizeof flag) { /* --port=9988 */
            memcpy(flag, argv[i], (size_t) (eq - argv[i]));
            flag[eq - argv[i]] = 0;
            value = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", argv[i]);
            value = NULL;
        }
        int takes_value = !strcmp(flag, "--host") || !strcmp(flag, "--port") || !strcmp(flag, "--protocol") || !strcmp(flag, "--backlog")
                          || !strcmp(flag, "--linger-time") || !strcmp(flag, "--linger-bytes");
        if (takes_value && !value) {
            if (i + 1 >= argc) bad_flag("missing value for", flag);
            value = argv[++i];
        }
        if (!strcmp(flag, "--host")) {
            options.host = value;
        } else if (!strcmp(flag, "--port")) {
            parse_number(flag, value, 0, 65535);
            options.port = value;
        } else if (!strcmp(flag, "--protocol")) {
            if (strcmp(value, "echo") && strcmp(value, "http")) {
                fprintf(stderr, "error: --protocol must be echo or http, not '%s'\n", value);
                exit(2);
            }
            options.http = !strcmp(value, "http");
        } else if (!strcmp(flag, "--backlog")) {
            options.backlog = (int) parse_number(flag, value, 1, 1 << 20);
        } else if (!strcmp(flag, "--linger-time")) {
            options.linger_ms = parse_millis(flag, value);
        } else if (!strcmp(flag, "--linger-bytes")) {
            options.linger_bytes = parse_number(flag, value, 0, 1L << 40);
        } else if (!strcmp(flag, "--reuse-port")) {
            options.reuse_port = 1;
        } else if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            bad_flag("unknown option", argv[i]);
        }
    }
}

/* host:port as users type it, [v6]:port for IPv6. */
static void host_port(char *buf, size_t size, const char *host, const char *port) {
    snprintf(buf, size, strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
}

/* Binds and listens; prints one line and exits 1 when it cannot. */
static void listen_or_exit(void) {
    char where[128];
    host_port(where, sizeof where, options.host, options.port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *ai;
    if (getaddrinfo(options.host, options.port, &hints, &ai) != 0) {
        fprintf(stderr, "error: cannot resolve host '%s'\n", options.host);
        exit(1);
    }
    listen_fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (listen_fd < 0 || setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
        || (options.reuse_port && setsockopt(listen_fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0)) {
        fprintf(stderr, "error: cannot listen on %s: %s\n", where, strerror(errno));
        exit(1);
    }
    if (bind(listen_fd, ai->ai_addr, ai->ai_addrlen) < 0) {
        if (errno == EADDRINUSE) {
            fprintf(stderr, "error: %s is already in use\n", where);
        } else if (errno == EACCES) {
            fprintf(stderr, "error: permission denied binding %s (ports below 1024 need root)\n", where);
        } else {
            fprintf(stderr, "error: cannot bind %s: %s\n", where, strerror(errno));
        }
        exit(1);
    }
    freeaddrinfo(ai);
    if (listen(listen_fd, options.backlog) < 0) {
        fprintf(stderr, "error: cannot listen on %s: %s\n", where, strerror(errno));
        exit(1);
    }
}

/* The ready line, with the port really bound (--port 0 picks one). */
static void print_ready_line(void) {
    struct sockaddr_storage bound;
    socklen_t len = sizeof bound;
    getsockname(listen_fd, (struct sockaddr *) &bound, &len);
    char host[INET6_ADDRSTRLEN], port[8], where[128];
    void *addr = bound.ss_family == AF_INET6 ? (void *) &((struct sockaddr_in6 *) &bound)->sin6_addr
                                             : (void *) &((struct sockaddr_in *) &bound)->sin_addr;
    inet_ntop(bound.ss_family, addr, host, sizeof host);
    snprintf(port, sizeof port, "%u", ntohs(((struct sockaddr_in *) &bound)->sin_port)); /* same offset in sockaddr_in6 */
    host_port(where, sizeof where, host, port);
    printf("listening on %s (c, %s)\n", where, options.http ? "http" : "echo");
    fflush(stdout);
}

static void print_counters(void) {
    printf("counters: accepts=%lu accept_failures=%lu closes=%lu reads=%lu reads_eagain=%lu writes=%lu writes_eagain=%lu "
           "partial_writes=%lu bytes_in=%lu bytes_out=%lu resets=%lu idle_closes=0 epoll_waits=%lu events=%lu",
           counters.accepts, counters.accept_failures, counters.closes, counters.reads, counters.reads_eagain, counters.writes,
           counters.writes_eagain, counters.partial_writes, counters.bytes_in, counters.bytes_out, counters.resets, counters.waits,
           counters.events);
    if (options.http) {
        printf(" linger_closes=%lu linger_bytes=%lu linger_timeouts=%lu", counters.linger_closes, counters.linger_bytes,
               counters.linger_timeouts);
    }
    printf(" events_per_wait=%.2f\n", counters.waits ? (double) counters.events / (double) counters.waits : 0.0);
    fflush(stdout);
}

int main(int argc, char **argv) {
    parse_options(argc, argv);
    http_ping_init();
    signal(SIGPIPE, SIG_IGN); /* a write to a reset connection fails with EPIPE instead of killing the server */

    /* SIGTERM and SIGINT are blocked except inside epoll_pwait: a stop cannot slip in between the check and the wait. */
    sigset_t stop_signals, waiting_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    sigprocmask(SIG_BLOCK, &stop_signals, &waiting_mask);
    sigdelset(&waiting_mask, SIGTERM);
    sigdelset(&waiting_mask, SIGINT);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    listen_or_exit();
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0 || grow_table(listen_fd) < 0) {
        fprintf(stderr, "error: cannot create an epoll instance: %s\n", strerror(errno));
        return 1;
    }
    if (watch(listen_fd, EPOLLIN, EPOLL_CTL_ADD) < 0) {
        fprintf(stderr, "error: cannot watch the listener: %s\n", strerror(errno));
        return 1;
    }
    print_ready_line();
    serve(&waiting_mask);
    print_counters();
    return 0;
}
