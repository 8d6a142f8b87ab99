/*
 * Wire protocol v1, the board's side. See proto.h and docs/protocol.md.
 *
 * The parser keeps no more than one frame body and decides on every byte alone: bytes outside a frame
 * are skipped, '@' always starts a new frame, '\n' ends one, '\r' is ignored and an overlong frame is
 * remembered only as "overflowed" (with its first bytes, for the sequence number). Checks run in the
 * order the host's reference decoder uses: checksum, then form, then the command and its values.
 */
#include <string.h>

#include "proto.h"

#define NAK_CRC "NAK crc"
#define NAK_SYNTAX "NAK syntax"
#define NAK_RANGE "NAK range"
#define NAK_UNKNOWN "NAK unknown"
#define NAK_OVERFLOW "NAK overflow"

#define KEY_M 0x01u
#define KEY_B 0x02u
#define KEY_P0 0x04u
#define KEY_P1 0x08u
#define KEY_T 0x10u
#define KEY_W 0x20u
#define KEY_Q 0x40u

enum { OK_ = 0, ERR_SYNTAX, ERR_RANGE };

static const char hexdigits[] = "0123456789ABCDEF";
static const char *const mode_names[] = { "idle", "game", "win", "test" };

uint8_t proto_crc8(uint8_t crc, uint8_t byte)
{
    uint8_t i;
    crc ^= byte;
    for (i = 0; i < 8; i++)
        crc = (crc & 0x80u) ? (uint8_t)((crc << 1) ^ 0x07u) : (uint8_t)(crc << 1);
    return crc;
}

void proto_init(proto_parser_t *p)
{
    p->len = 0;
    p->in_frame = 0;
    p->overflow = 0;
}

uint8_t proto_feed(proto_parser_t *p, uint8_t byte)
{
    if (byte == '\r')
        return 0;
    if (byte == '@') {
        p->len = 0;
        p->in_frame = 1;
        p->overflow = 0;
        return 0;
    }
    if (!p->in_frame)
        return 0;
    if (byte == '\n') {
        p->in_frame = 0;
        return 1;
    }
    if (p->len >= PROTO_MAX_BODY)
        p->overflow = 1;
    else
        p->body[p->len++] = (char)byte;
    return 0;
}

/* ---- reading ---- */

static int8_t hexval(char c, uint8_t allow_lower)
{
    if (c >= '0' && c <= '9')
        return (int8_t)(c - '0');
    if (c >= 'A' && c <= 'F')
        return (int8_t)(c - 'A' + 10);
    if (allow_lower && c >= 'a' && c <= 'f')
        return (int8_t)(c - 'a' + 10);
    return -1;
}

/* Two upper-case hex digits as 0..255, or -1. */
static int16_t hex2(const char *s)
{
    int8_t hi = hexval(s[0], 0), lo = hexval(s[1], 0);
    if (hi < 0 || lo < 0)
        return -1;
    return (int16_t)((hi << 4) | lo);
}

/* One to three decimal digits s[0..n) as a number, or -1. */
static int16_t decimal(const char *s, uint8_t n)
{
    int16_t v = 0;
    uint8_t i;
    if (n == 0 || n > 3)
        return -1;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = (int16_t)(v * 10 + (s[i] - '0'));
    }
    return v;
}

static uint8_t span(const char *s, uint8_t n, char stop)
{
    uint8_t i = 0;
    while (i < n && s[i] != stop)
        i++;
    return i;
}

static uint8_t is_arg_char(char c)
{
    return c >= 0x21 && c <= 0x7E && c != '@' && c != '*';
}

static uint8_t word_is(const char *s, uint8_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* A number field 0..max, or -ERR_SYNTAX / -ERR_RANGE. */
static int16_t field_number(const char *s, uint8_t n, int16_t min, int16_t max)
{
    int16_t v = decimal(s, n);
    if (v < 0)
        return -ERR_SYNTAX;
    if (v < min || v > max)
        return -ERR_RANGE;
    return v;
}

/* "REAR,FWD,RRGGBB" */
static uint8_t parse_track(const char *v, uint8_t n, board_track_t *tr)
{
    uint8_t a = span(v, n, ','), b, i;
    int16_t rear, fwd;
    if (a >= n)
        return ERR_SYNTAX;
    b = (uint8_t)(a + 1u + span(v + a + 1u, (uint8_t)(n - a - 1u), ','));
    if (b >= n || n - b - 1u != 6u)
        return ERR_SYNTAX;
    rear = decimal(v, a);
    fwd = decimal(v + a + 1u, (uint8_t)(b - a - 1u));
    if (rear < 0 || fwd < 0)
        return ERR_SYNTAX;
    for (i = 0; i < 3; i++) {
        int8_t hi = hexval(v[b + 1u + 2u * i], 1), lo = hexval(v[b + 2u + 2u * i], 1);
        if (hi < 0 || lo < 0)
            return ERR_SYNTAX;
        tr->rgb[i] = (uint8_t)((hi << 4) | lo);
    }
    if (rear > BOARD_HOLES || fwd > BOARD_HOLES || (fwd != 0 && rear > fwd))
        return ERR_RANGE;
    tr->rear = (uint8_t)rear;
    tr->fwd = (uint8_t)fwd;
    return OK_;
}

static uint8_t parse_key(const char *arg, uint8_t n, board_state_t *s, uint8_t *seen)
{
    uint8_t k = span(arg, n, '='), bit, vn, i;
    const char *v;
    int16_t x, y;
    if (k == 0 || k + 1u >= n)
        return ERR_SYNTAX;
    v = arg + k + 1u;
    vn = (uint8_t)(n - k - 1u);
    if (word_is(arg, k, "m"))
        bit = KEY_M;
    else if (word_is(arg, k, "b"))
        bit = KEY_B;
    else if (word_is(arg, k, "p0"))
        bit = KEY_P0;
    else if (word_is(arg, k, "p1") && BOARD_TRACKS > 1)
        bit = KEY_P1;
    else if (word_is(arg, k, "t"))
        bit = KEY_T;
    else if (word_is(arg, k, "w"))
        bit = KEY_W;
    else if (word_is(arg, k, "q"))
        bit = KEY_Q;
    else
        return ERR_SYNTAX;
    if (*seen & bit)
        return ERR_SYNTAX;
    *seen |= bit;
    switch (bit) {
    case KEY_M:
        for (i = 0; i < 4; i++) {
            if (word_is(v, vn, mode_names[i])) {
                s->mode = i;
                return OK_;
            }
        }
        return ERR_SYNTAX;
    case KEY_B:
        x = field_number(v, vn, 0, 255);
        if (x < 0)
            return (uint8_t)-x;
        s->brightness = (uint8_t)x;
        return OK_;
    case KEY_P0:
        return parse_track(v, vn, &s->track[0]);
    case KEY_P1:
        return parse_track(v, vn, &s->track[1]);
    case KEY_T:
        if (word_is(v, vn, "-")) {
            s->tent_track = BOARD_NONE;
            s->tent_hole = 0;
            return OK_;
        }
        k = span(v, vn, ',');
        if (k >= vn)
            return ERR_SYNTAX;
        x = field_number(v, k, 0, BOARD_TRACKS - 1);
        y = field_number(v + k + 1u, (uint8_t)(vn - k - 1u), 1, BOARD_HOLES);
        if (x == -ERR_SYNTAX || y == -ERR_SYNTAX)
            return ERR_SYNTAX;
        if (x < 0 || y < 0)
            return ERR_RANGE;
        s->tent_track = (uint8_t)x;
        s->tent_hole = (uint8_t)y;
        return OK_;
    case KEY_Q:
        if (word_is(v, vn, "-") || word_is(v, vn, "1")) {
            s->question = (uint8_t)(v[0] == '1');
            return OK_;
        }
        return ERR_SYNTAX;
    default: /* KEY_W */
        if (word_is(v, vn, "-")) {
            s->winner = BOARD_NONE;
            return OK_;
        }
        x = field_number(v, vn, 0, BOARD_TRACKS - 1);
        if (x < 0)
            return (uint8_t)-x;
        s->winner = (uint8_t)x;
        return OK_;
    }
}

/* ---- writing ---- */

typedef struct {
    char *buf;
    uint8_t len;
} out_t;

static void put_char(out_t *o, char c)
{
    if (o->len < PROTO_REPLY_MAX - 4u) /* room kept for "*CC\n" */
        o->buf[o->len++] = c;
}

static void put_str(out_t *o, const char *s)
{
    while (*s)
        put_char(o, *s++);
}

static void put_hex2(out_t *o, uint8_t v)
{
    put_char(o, hexdigits[v >> 4]);
    put_char(o, hexdigits[v & 15u]);
}

static void put_dec(out_t *o, uint16_t v)
{
    char tmp[5];
    uint8_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v && n < sizeof tmp);
    while (n)
        put_char(o, tmp[--n]);
}

static void begin(out_t *o, char *buf, int16_t seq)
{
    o->buf = buf;
    o->len = 0;
    put_char(o, '@');
    if (seq < 0) {
        put_char(o, '?');
        put_char(o, '?');
    } else {
        put_hex2(o, (uint8_t)seq);
    }
    put_char(o, ' ');
}

static uint8_t finish(out_t *o)
{
    uint8_t crc = 0, i;
    for (i = 1; i < o->len; i++)
        crc = proto_crc8(crc, (uint8_t)o->buf[i]);
    o->buf[o->len++] = '*';
    o->buf[o->len++] = hexdigits[crc >> 4];
    o->buf[o->len++] = hexdigits[crc & 15u];
    o->buf[o->len++] = '\n';
    return o->len;
}

static uint8_t reply(char *buf, int16_t seq, const char *text)
{
    out_t o;
    begin(&o, buf, seq);
    put_str(&o, text);
    return finish(&o);
}

static void put_state(out_t *o, const board_state_t *s)
{
    uint8_t t, i;
    put_str(o, " m=");
    put_str(o, mode_names[s->mode & 3u]);
    put_str(o, " b=");
    put_dec(o, s->brightness);
    for (t = 0; t < BOARD_TRACKS; t++) {
        put_str(o, " p");
        put_dec(o, t);
        put_char(o, '=');
        put_dec(o, s->track[t].rear);
        put_char(o, ',');
        put_dec(o, s->track[t].fwd);
        put_char(o, ',');
        for (i = 0; i < 3; i++)
            put_hex2(o, s->track[t].rgb[i]);
    }
    put_str(o, " t=");
    if (s->tent_track == BOARD_NONE) {
        put_char(o, '-');
    } else {
        put_dec(o, s->tent_track);
        put_char(o, ',');
        put_dec(o, s->tent_hole);
    }
    put_str(o, " w=");
    if (s->winner == BOARD_NONE)
        put_char(o, '-');
    else
        put_dec(o, s->winner);
    put_str(o, " q=");
    put_char(o, s->question ? '1' : '-');
}

uint8_t proto_ready(char *out)
{
    return reply(out, 0, "READY proto=" PROTO_VERSION " fw=" FW_VERSION);
}

uint8_t proto_handle(proto_parser_t *p, board_state_t *state, char *out, uint8_t *out_len)
{
    const char *body = p->body;
    uint8_t n = p->len, m, i, w, start, cmd_len, err, seen = 0;
    int16_t seq = -1, crc;
    board_state_t next;
    out_t o;

    if (n >= 3 && (body[2] == ' ' || (body[2] == '*' && !p->overflow)))
        seq = hex2(body);
    if (p->overflow) {
        p->overflow = 0;
        *out_len = reply(out, seq, NAK_OVERFLOW);
        return PROTO_REPLY_NOW;
    }
    if (n < 3 || body[n - 3u] != '*') {
        *out_len = reply(out, seq, NAK_CRC);
        return PROTO_REPLY_NOW;
    }
    m = (uint8_t)(n - 3u);
    crc = hex2(body + n - 2u);
    {
        uint8_t c = 0;
        for (i = 0; i < m; i++)
            c = proto_crc8(c, (uint8_t)body[i]);
        if (crc < 0 || crc != c) {
            *out_len = reply(out, seq, NAK_CRC);
            return PROTO_REPLY_NOW;
        }
    }
    if (seq < 0 || m < 4u || body[2] != ' ') {
        *out_len = reply(out, seq, NAK_SYNTAX);
        return PROTO_REPLY_NOW;
    }
    /* the command: one upper-case word */
    cmd_len = span(body + 3, (uint8_t)(m - 3u), ' ');
    for (i = 0; i < cmd_len; i++) {
        if (body[3u + i] < 'A' || body[3u + i] > 'Z')
            break;
    }
    if (cmd_len == 0 || i != cmd_len) {
        *out_len = reply(out, seq, NAK_SYNTAX);
        return PROTO_REPLY_NOW;
    }
    /* every argument: non-empty, printable, no '@' or '*' */
    for (start = (uint8_t)(3u + cmd_len); start < m;) {
        start++; /* the space */
        w = span(body + start, (uint8_t)(m - start), ' ');
        if (w == 0) {
            *out_len = reply(out, seq, NAK_SYNTAX);
            return PROTO_REPLY_NOW;
        }
        for (i = 0; i < w; i++) {
            if (!is_arg_char(body[start + i])) {
                *out_len = reply(out, seq, NAK_SYNTAX);
                return PROTO_REPLY_NOW;
            }
        }
        start = (uint8_t)(start + w);
    }

    /* HELLO, PING and GET take no argument */
    if (3u + cmd_len < m && !word_is(body + 3, cmd_len, "STATE") &&
        (word_is(body + 3, cmd_len, "PING") || word_is(body + 3, cmd_len, "HELLO") ||
         word_is(body + 3, cmd_len, "GET"))) {
        *out_len = reply(out, seq, NAK_SYNTAX);
        return PROTO_REPLY_NOW;
    }
    if (word_is(body + 3, cmd_len, "PING")) {
        *out_len = reply(out, seq, "OK");
        return PROTO_REPLY_NOW;
    }
    if (word_is(body + 3, cmd_len, "HELLO")) {
        begin(&o, out, seq);
        put_str(&o, "OK proto=" PROTO_VERSION " fw=" FW_VERSION " tracks=");
        put_dec(&o, BOARD_TRACKS);
        put_str(&o, " holes=");
        put_dec(&o, BOARD_HOLES);
        put_str(&o, " leds=");
        put_dec(&o, BOARD_LEDS);
        put_str(&o, " cap=");
        put_dec(&o, BOARD_CAP_MA);
        *out_len = finish(&o);
        return PROTO_REPLY_NOW;
    }
    if (word_is(body + 3, cmd_len, "GET")) {
        begin(&o, out, seq);
        put_str(&o, "OK");
        put_state(&o, state);
        *out_len = finish(&o);
        return PROTO_REPLY_NOW;
    }
    if (!word_is(body + 3, cmd_len, "STATE")) {
        *out_len = reply(out, seq, NAK_UNKNOWN);
        return PROTO_REPLY_NOW;
    }
    board_defaults(&next);
    for (start = (uint8_t)(3u + cmd_len); start < m;) {
        start++;
        w = span(body + start, (uint8_t)(m - start), ' ');
        err = parse_key(body + start, w, &next, &seen);
        if (err != OK_) {
            *out_len = reply(out, seq, err == ERR_RANGE ? NAK_RANGE : NAK_SYNTAX);
            return PROTO_REPLY_NOW;
        }
        start = (uint8_t)(start + w);
    }
    *state = next;
    *out_len = reply(out, seq, "OK");
    return PROTO_REPLY_AFTER_LATCH;
}
