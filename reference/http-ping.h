/*
 * The /ping protocol of the C reference server: the same rules and the same bytes as the
 * lab's Java HttpRequestParser and HttpPing (lab-servers/src/main/java/niolab/server/proto/),
 * so that a comparison measures the server, not the protocol code.
 */
#ifndef NIOLAB_HTTP_PING_H
#define NIOLAB_HTTP_PING_H

#include <stddef.h>
#include <stdint.h>

/* http_ping_process flags: close once the output is written; the output buffer is full. */
#define HTTP_CLOSE 1
#define HTTP_OUT_FULL 2

/* An incremental request parser: a few ints of position, never a copy of the request. */
struct http_parser {
    int state, head_bytes, length, match, candidates, field, value_ended;
    long long value, body_left, content_length;
    int method, ping, http10, saw_close, saw_keep_alive;
};

/* One connection's protocol state: the parser and the response owed when the output was full. */
struct http_conn {
    struct http_parser parser;
    const uint8_t *owed;
    size_t owed_len;
    int owed_close;
};

/* Builds the constant responses; call once before serving. */
void http_ping_init(void);

/* The longest response: an output buffer must hold at least this much. */
size_t http_ping_max_response(void);

/* Makes the state fit a new connection. */
void http_conn_reset(struct http_conn *c);

/*
 * Answers every complete request in in[*in_pos..in_len) into out[*out_len..out_cap), in order,
 * advancing *in_pos and *out_len. Returns 0 (all input used), or HTTP_CLOSE and/or HTTP_OUT_FULL
 * (write the output, then call again with the rest of the input).
 */
int http_ping_process(struct http_conn *c, const uint8_t *in, size_t *in_pos, size_t in_len,
                      uint8_t *out, size_t *out_len, size_t out_cap);

#endif
