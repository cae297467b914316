/*
 * delay-relay: a TCP relay that holds every chunk for D ms in each direction, so that a
 * client and a server on one machine see a round-trip time of 2 x D (this kernel has no netem).
 *
 *   delay-relay --listen 10.0.1.1:9000 --to 10.0.2.2:9988 --delay-ms 0.5
 *
 * One thread, epoll (epoll_pwait2 for a nanosecond timeout: Linux 5.11, glibc 2.35). Every delay is the same, so chunks fall due in the order they arrived:
 * one FIFO for all connections and both directions is already sorted by due time, and the
 * wait's timeout is the head's due time. A direction that has more than MAX_QUEUED bytes in
 * flight stops being read (the relay adds delay, never unbounded memory). A FIN is delayed like
 * data: the peer's write side is shut down when everything before it has been written.
 * SIGTERM/SIGINT print the relay's counters and exit 0.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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

#define CHUNK 65536
#define MAX_QUEUED (4 << 20)
#define MAX_EVENTS 256

struct side;
struct chunk {                 /* one read, due at `due` on the other side */
    struct chunk *next;        /* in the global FIFO */
    struct side *to;
    uint64_t due;
    int fin;                   /* a delayed FIN instead of data */
    size_t len, off;
    char data[];
};
struct side {                  /* one socket of a relayed pair */
    int fd;
    struct side *peer;
    size_t queued;             /* bytes read from this side not yet written to the peer */
    struct chunk *out_head, *out_tail; /* due chunks waiting for this socket to take them */
    int reading, read_eof, write_shut, closed;
};

static struct chunk *fifo_head, *fifo_tail;
static uint64_t delay_ns;
static volatile sig_atomic_t stopping;
static unsigned long long n_conns, n_bytes, n_chunks;
static int epfd;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int parse_addr(const char *s, struct sockaddr_in *a) {
    char host[64];
    const char *colon = strrchr(s, ':');
    if (!colon || colon - s >= (long)sizeof host) return -1;
    memcpy(host, s, colon - s);
    host[colon - s] = 0;
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)atoi(colon + 1));
    return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

static void watch(struct side *s) {
    struct epoll_event ev = {.events = (s->reading ? EPOLLIN : 0) | (s->out_head ? EPOLLOUT : 0), .data.ptr = s};
    epoll_ctl(epfd, EPOLL_CTL_MOD, s->fd, &ev);
}

static void close_pair(struct side *s) {
    struct side *sides[2] = {s, s->peer};
    for (int i = 0; i < 2; i++) {
        if (sides[i]->closed) continue;
        sides[i]->closed = 1;
        close(sides[i]->fd); /* leaves the epoll set; queued chunks to it are dropped when due */
    }
}

/* Writes what is due for `s`; returns -1 if the pair was closed. */
static int flush(struct side *s) {
    while (s->out_head) {
        struct chunk *c = s->out_head;
        if (c->fin) {
            shutdown(s->fd, SHUT_WR);
            s->write_shut = 1;
        } else {
            ssize_t w = send(s->fd, c->data + c->off, c->len - c->off, MSG_NOSIGNAL);
            if (w < 0) {
                if (errno == EAGAIN) break;
                close_pair(s);
                return -1;
            }
            c->off += (size_t)w;
            if (c->off < c->len) break;
            s->peer->queued -= c->len;
            n_bytes += c->len;
        }
        s->out_head = c->next;
        if (!s->out_head) s->out_tail = NULL;
        free(c);
    }
    struct side *from = s->peer;
    if (!from->reading && !from->read_eof && from->queued < MAX_QUEUED) {
        from->reading = 1; /* room again: resume reading the side that fills this one */
        watch(from);
    }
    if (s->write_shut && from->write_shut && !s->out_head && !from->out_head) {
        close_pair(s);
        return -1;
    }
    watch(s);
    return 0;
}

static void enqueue(struct side *to, const char *data, size_t len, int fin) {
    struct chunk *c = malloc(sizeof *c + len);
    if (!c) { perror("delay-relay: malloc"); exit(1); }
    c->next = NULL;
    c->to = to;
    c->due = now_ns() + delay_ns;
    c->fin = fin;
    c->len = len;
    c->off = 0;
    if (len) memcpy(c->data, data, len);
    if (fifo_tail) fifo_tail->next = c; else fifo_head = c;
    fifo_tail = c;
    n_chunks++;
}

/* Moves every due chunk from the FIFO to its socket's output, and writes. */
static void release_due(void) {
    uint64_t now = now_ns();
    while (fifo_head && fifo_head->due <= now) {
        struct chunk *c = fifo_head;
        fifo_head = c->next;
        if (!fifo_head) fifo_tail = NULL;
        c->next = NULL;
        struct side *to = c->to;
        if (to->closed) { free(c); continue; } /* the pair is gone (freed when both FIFOs drained: see below) */
        if (to->out_tail) to->out_tail->next = c; else to->out_head = c;
        to->out_tail = c;
        flush(to);
    }
}

static void on_readable(struct side *s) {
    static char buf[CHUNK];
    while (s->reading) {
        ssize_t n = read(s->fd, buf, sizeof buf);
        if (n > 0) {
            s->queued += (size_t)n;
            enqueue(s->peer, buf, (size_t)n, 0);
            if (s->queued >= MAX_QUEUED) { s->reading = 0; watch(s); }
            continue;
        }
        if (n == 0) {
            s->read_eof = 1;
            s->reading = 0;
            enqueue(s->peer, NULL, 0, 1);
            watch(s);
        } else if (errno != EAGAIN && errno != EINTR) {
            close_pair(s);
        }
        return;
    }
}

static void on_stop(int sig) { (void)sig; stopping = 1; }

int main(int argc, char **argv) {
    struct sockaddr_in listen_at, to;
    double delay_ms = -1;
    int have_listen = 0, have_to = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--listen")) have_listen = parse_addr(argv[i + 1], &listen_at) == 0;
        else if (!strcmp(argv[i], "--to")) have_to = parse_addr(argv[i + 1], &to) == 0;
        else if (!strcmp(argv[i], "--delay-ms")) delay_ms = atof(argv[i + 1]);
    }
    if (!have_listen || !have_to || delay_ms < 0 || argc % 2 == 0) {
        fprintf(stderr, "usage: delay-relay --listen IPv4:PORT --to IPv4:PORT --delay-ms D (each direction)\n");
        return 2;
    }
    delay_ns = (uint64_t)(delay_ms * 1e6);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_stop};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(lfd, (struct sockaddr *)&listen_at, sizeof listen_at) < 0 || listen(lfd, 4096) < 0) {
        fprintf(stderr, "error: delay-relay cannot listen on %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &lev);
    printf("relaying %s -> %s with %.3f ms each way\n", argv[2], argv[4], delay_ms);
    fflush(stdout);

    struct epoll_event events[MAX_EVENTS];
    while (!stopping) {
        /* epoll_pwait2 takes a timespec: epoll_wait's whole milliseconds would round a 0.1 ms delay up to 1 ms */
        struct timespec wait, *timeout = NULL;
        if (fifo_head) {
            uint64_t now = now_ns(), left = fifo_head->due > now ? fifo_head->due - now : 0;
            wait.tv_sec = (time_t)(left / 1000000000ull);
            wait.tv_nsec = (long)(left % 1000000000ull);
            timeout = &wait;
        }
        int n = epoll_pwait2(epfd, events, MAX_EVENTS, timeout, NULL);
        for (int i = 0; i < n; i++) {
            struct side *s = events[i].data.ptr;
            if (!s) {
                int cfd;
                while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    int ufd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    setsockopt(ufd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    if (connect(ufd, (struct sockaddr *)&to, sizeof to) < 0 && errno != EINPROGRESS) {
                        close(cfd);
                        close(ufd);
                        continue;
                    }
                    struct side *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
                    a->fd = cfd; b->fd = ufd; a->peer = b; b->peer = a; a->reading = b->reading = 1;
                    struct epoll_event ea = {.events = EPOLLIN, .data.ptr = a}, eb = {.events = EPOLLIN, .data.ptr = b};
                    epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &ea);
                    epoll_ctl(epfd, EPOLL_CTL_ADD, ufd, &eb);
                    n_conns++;
                }
                continue;
            }
            if (s->closed) continue;
            if (events[i].events & (EPOLLERR | EPOLLHUP) && !(events[i].events & EPOLLIN)) { close_pair(s); continue; }
            if (events[i].events & EPOLLOUT && flush(s) < 0) continue;
            if (events[i].events & EPOLLIN) on_readable(s);
        }
        release_due();
    }
    /* Pairs are leaked on purpose at exit (the process ends); closed sides are never freed while
       chunks may still point at them, which costs two small structs per finished connection. */
    printf("relay counters: connections=%llu chunks=%llu bytes=%llu\n", n_conns, n_chunks, n_bytes);
    return 0;
}
