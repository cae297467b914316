/*
 * GET /ping answers 200 {"status":"ok"} (application/json); HEAD /ping the same head; other
 * methods on /ping 405 with Allow: GET, HEAD; other paths 404; a malformed request (or any
 * Transfer-Encoding) 400 and close; a head over 8 KiB 431 and close. HTTP/1.1 keeps the
 * connection unless Connection: close; HTTP/1.0 only with Connection: keep-alive.
 *
 * A line-by-line port of the lab's HttpRequestParser and HttpPing: read those for the why of
 * each rule. Responses are constant byte strings built once; answering is one memcpy.
 */
#include "http-ping.h"

#include <stdio.h>
#include <string.h>

enum { NEED_MORE = 0, REQUEST = 1, BAD_REQUEST = 2, HEAD_TOO_LARGE = 3 };
enum { MAX_HEAD_BYTES = 8192, MAX_LENGTH_DIGITS = 18 };
enum { GET = 1, HEAD = 2, OTHER_METHOD = 3 };
enum { START, METHOD, TARGET, VERSION, LINE_LF, FIELD_START, NAME, VALUE, VALUE_LF, HEAD_LF, BODY, DEAD };
enum { NONE = -1, CONNECTION = 0, CONTENT_LENGTH = 1, TRANSFER_ENCODING = 2 };

struct words {
    int n;
    const char *word[3];
    int len[3];
};
/* The headers it acts on, lower case (a header's kind is its index here), and the Connection tokens. */
static const struct words NAMES = {3, {"connection", "content-length", "transfer-encoding"}, {10, 14, 17}};
static const struct words TOKENS = {2, {"close", "keep-alive"}, {5, 10}};
#define ALL_NAMES ((1 << 3) - 1)
#define ALL_TOKENS ((1 << 2) - 1)
#define GET_BYTES ('G' << 16 | 'E' << 8 | 'T')
#define HEAD_BYTES ('H' << 24 | 'E' << 16 | 'A' << 8 | 'D')
static const char PING[] = "/ping";
#define PING_LEN 5
#define PING_QUERY (PING_LEN + 1) /* "/ping?..." matched */
static const char VERSION_PREFIX[] = "HTTP/1.";
#define VERSION_PREFIX_LEN 7

static unsigned char tchar[256]; /* the token characters of RFC 9110; filled by http_ping_init */

static int is_tchar(int c) {
    return tchar[c];
}

/* Drops the candidates whose byte at index is not b, ignoring ASCII case. */
static int narrow(const struct words *w, int candidates, int index, int b) {
    int lower = b | 0x20;
    for (int k = 0; k < w->n; k++) {
        if ((candidates & (1 << k)) && (index >= w->len[k] || w->word[k][index] != lower)) candidates &= ~(1 << k);
    }
    return candidates;
}

/* The word all length bytes matched, or NONE. */
static int matched(const struct words *w, int candidates, int length) {
    for (int k = 0; k < w->n; k++) {
        if ((candidates & (1 << k)) && w->len[k] == length) return k;
    }
    return NONE;
}

static int fail(struct http_parser *p, int result) {
    p->state = DEAD;
    return result;
}

static int complete(struct http_parser *p) {
    p->state = START;
    p->head_bytes = 0;
    return REQUEST;
}

static void reset_facts(struct http_parser *p) {
    p->method = 0;
    p->ping = p->http10 = p->saw_close = p->saw_keep_alive = 0;
    p->content_length = -1;
}

static void end_token(struct http_parser *p) {
    int t = p->length == 0 ? NONE : matched(&TOKENS, p->candidates, p->length);
    if (t == 0) p->saw_close = 1;
    if (t == 1) p->saw_keep_alive = 1;
    p->length = 0;
    p->candidates = ALL_TOKENS;
}

static int end_field(struct http_parser *p) {
    if (p->field == CONNECTION) {
        end_token(p);
    } else if (p->field == CONTENT_LENGTH) {
        if (p->length == 0 || (p->content_length >= 0 && p->content_length != p->value)) return -fail(p, BAD_REQUEST);
        p->content_length = p->value;
    }
    p->field = NONE;
    return FIELD_START;
}

static int end_head(struct http_parser *p) {
    if (p->content_length > 0) {
        p->body_left = p->content_length;
        return BODY;
    }
    return -complete(p);
}

static int start_value(struct http_parser *p) {
    p->field = matched(&NAMES, p->candidates, p->length);
    if (p->field == TRANSFER_ENCODING) return -fail(p, BAD_REQUEST);
    p->value = 0;
    p->length = 0;
    p->value_ended = 0;
    p->candidates = ALL_TOKENS;
    return VALUE;
}

static int value_byte(struct http_parser *p, int b) {
    if (b == '\r') return VALUE_LF;
    if (b == '\n') return end_field(p);
    if ((b < ' ' && b != '\t') || b == 0x7F) return -fail(p, BAD_REQUEST);
    if (p->field == CONTENT_LENGTH) {
        if (b >= '0' && b <= '9') {
            if (p->value_ended || ++p->length > MAX_LENGTH_DIGITS) return -fail(p, BAD_REQUEST);
            p->value = p->value * 10 + (b - '0');
        } else if (b == ' ' || b == '\t') {
            p->value_ended = p->length > 0;
        } else {
            return -fail(p, BAD_REQUEST);
        }
    } else if (p->field == CONNECTION) {
        if (b == ',' || b == ' ' || b == '\t') {
            end_token(p);
        } else {
            if (p->candidates) p->candidates = narrow(&TOKENS, p->candidates, p->length, b);
            p->length++;
        }
    }
    return VALUE;
}

/* One byte of the head: the next state, or a negated result when the request ends or is wrong. */
static int step(struct http_parser *p, int s, int b) {
    switch (s) {
    case START:
        if (b == '\r' || b == '\n') return START;
        if (!is_tchar(b)) return -fail(p, BAD_REQUEST);
        reset_facts(p);
        p->match = b;
        p->length = 1;
        return METHOD;
    case METHOD:
        if (b == ' ') {
            p->method = p->length == 3 && p->match == GET_BYTES ? GET : p->length == 4 && p->match == HEAD_BYTES ? HEAD : OTHER_METHOD;
            p->length = 0;
            p->match = 0;
            return TARGET;
        }
        if (!is_tchar(b)) return -fail(p, BAD_REQUEST);
        p->match = p->length < 4 ? p->match << 8 | b : 0;
        p->length++;
        return METHOD;
    case TARGET:
        if (b == ' ') {
            if (p->length == 0) return -fail(p, BAD_REQUEST);
            p->ping = p->match == PING_LEN || p->match == PING_QUERY;
            p->match = 0;
            return VERSION;
        }
        if (b <= ' ' || b >= 0x7F) return -fail(p, BAD_REQUEST);
        p->length++;
        if (p->match >= 0 && p->match < PING_LEN) {
            p->match = b == PING[p->match] ? p->match + 1 : -1;
        } else if (p->match == PING_LEN) {
            p->match = b == '?' ? PING_QUERY : -1;
        }
        return TARGET;
    case VERSION:
        if (p->match < VERSION_PREFIX_LEN) {
            if (b != VERSION_PREFIX[p->match]) return -fail(p, BAD_REQUEST);
            p->match++;
            return VERSION;
        }
        if (p->match == VERSION_PREFIX_LEN) {
            if (b < '0' || b > '9') return -fail(p, BAD_REQUEST);
            p->http10 = b == '0';
            p->match++;
            return VERSION;
        }
        if (b == '\r') return LINE_LF;
        if (b == '\n') return FIELD_START;
        return -fail(p, BAD_REQUEST);
    case LINE_LF:
    case VALUE_LF:
        if (b != '\n') return -fail(p, BAD_REQUEST);
        return s == VALUE_LF ? end_field(p) : FIELD_START;
    case FIELD_START:
        if (b == '\r') return HEAD_LF;
        if (b == '\n') return end_head(p);
        if (!is_tchar(b)) return -fail(p, BAD_REQUEST);
        p->candidates = narrow(&NAMES, ALL_NAMES, 0, b);
        p->length = 1;
        return NAME;
    case NAME:
        if (b == ':') return start_value(p);
        if (!is_tchar(b)) return -fail(p, BAD_REQUEST);
        if (p->candidates) p->candidates = narrow(&NAMES, p->candidates, p->length, b);
        p->length++;
        return NAME;
    case VALUE:
        return value_byte(p, b);
    case HEAD_LF:
        if (b != '\n') return -fail(p, BAD_REQUEST);
        return end_head(p);
    default:
        return -fail(p, BAD_REQUEST); /* unreachable: BODY and DEAD are handled in parse() */
    }
}

/* Consumes bytes until a request completes, an error is found, or the input runs out. */
static int parse(struct http_parser *p, const uint8_t *in, size_t *pos, size_t limit) {
    size_t i = *pos;
    int s = p->state, r = NEED_MORE;
    while (i < limit && r == NEED_MORE) {
        if (s == BODY) {
            size_t n = limit - i < (size_t) p->body_left ? limit - i : (size_t) p->body_left;
            i += n;
            p->body_left -= (long long) n;
            if (p->body_left == 0) {
                r = complete(p);
                s = START;
            }
            continue;
        }
        if (s == DEAD) {
            i = limit;
            break;
        }
        if (++p->head_bytes > MAX_HEAD_BYTES) {
            r = fail(p, HEAD_TOO_LARGE);
            s = DEAD;
            break;
        }
        s = step(p, s, in[i++]);
        if (s < 0) {
            r = -s;
            s = p->state;
        }
    }
    p->state = s;
    *pos = i;
    return r;
}

static int keep_alive(const struct http_parser *p) {
    return p->http10 ? p->saw_keep_alive && !p->saw_close : !p->saw_close;
}

/* Responses by [status][HEAD?][connection]: connection is the 1.1 default, explicit keep-alive (1.0), or close. */
enum { OK, NOT_FOUND, NOT_ALLOWED };
enum { KEEP, KEEP_EXPLICIT, CLOSING };
struct response {
    char bytes[160];
    size_t len;
};
static struct response responses[3][2][3], bad_request, head_too_large;
static size_t max_response;

static void encode(struct response *r, const char *status, const char *headers, const char *body, int head, int conn) {
    const char *connection = conn == CLOSING ? "Connection: close\r\n" : conn == KEEP_EXPLICIT ? "Connection: keep-alive\r\n" : "";
    r->len = (size_t) snprintf(r->bytes, sizeof r->bytes, "HTTP/1.1 %s\r\n%sContent-Length: %zu\r\n%s\r\n%s", status, headers,
                               strlen(body), connection, head ? "" : body);
    if (r->len > max_response) max_response = r->len;
}

void http_ping_init(void) {
    for (int c = 0; c < 256; c++) {
        tchar[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
    }
    encode(&bad_request, "400 Bad Request", "", "", 0, CLOSING);
    encode(&head_too_large, "431 Request Header Fields Too Large", "", "", 0, CLOSING);
    for (int head = 0; head < 2; head++) {
        for (int conn = KEEP; conn <= CLOSING; conn++) {
            encode(&responses[OK][head][conn], "200 OK", "Content-Type: application/json\r\n", "{\"status\":\"ok\"}", head, conn);
            encode(&responses[NOT_FOUND][head][conn], "404 Not Found", "", "", head, conn);
            encode(&responses[NOT_ALLOWED][head][conn], "405 Method Not Allowed", "Allow: GET, HEAD\r\n", "", head, conn);
        }
    }
}

size_t http_ping_max_response(void) {
    return max_response;
}

void http_conn_reset(struct http_conn *c) {
    memset(c, 0, sizeof *c);
    c->parser.state = START;
    c->parser.field = NONE;
    c->parser.content_length = -1;
}

static const struct response *response_for(const struct http_parser *p, int close) {
    int status = !p->ping ? NOT_FOUND : p->method == OTHER_METHOD ? NOT_ALLOWED : OK;
    int conn = close ? CLOSING : p->http10 ? KEEP_EXPLICIT : KEEP;
    return &responses[status][p->method == HEAD][conn];
}

int http_ping_process(struct http_conn *c, const uint8_t *in, size_t *in_pos, size_t in_len,
                      uint8_t *out, size_t *out_len, size_t out_cap) {
    if (c->owed) {
        if (out_cap - *out_len < c->owed_len) return HTTP_OUT_FULL;
        memcpy(out + *out_len, c->owed, c->owed_len);
        *out_len += c->owed_len;
        c->owed = NULL;
        if (c->owed_close) return HTTP_CLOSE;
    }
    for (;;) {
        int r = parse(&c->parser, in, in_pos, in_len);
        if (r == NEED_MORE) return 0;
        int close = r != REQUEST || !keep_alive(&c->parser);
        const struct response *resp = r == REQUEST ? response_for(&c->parser, close)
                                      : r == BAD_REQUEST ? &bad_request : &head_too_large;
        if (close) *in_pos = in_len; /* nothing after the last answered request will be read */
        if (out_cap - *out_len < resp->len) {
            c->owed = (const uint8_t *) resp->bytes;
            c->owed_len = resp->len;
            c->owed_close = close;
            return HTTP_OUT_FULL;
        }
        memcpy(out + *out_len, resp->bytes, resp->len);
        *out_len += resp->len;
        if (close) return HTTP_CLOSE;
    }
}
