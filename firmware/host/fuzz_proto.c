/*
 * Host-side fuzzer for the board's protocol parser and drawing code (src/proto.c, src/board.c),
 * built with AddressSanitizer and UndefinedBehaviorSanitizer so any overrun or undefined behaviour
 * aborts the run.
 *
 * It feeds a fixed-seed stream of inputs through the byte-at-a-time parser exactly as the UART would:
 * random bytes biased towards the framing characters, valid frames mutated (bit flips, inserted,
 * deleted, duplicated and spliced bytes, truncation), and mutated frames whose CRC is recomputed so the
 * damage reaches the command and value checks. After every frame it checks the reply (one line,
 * well formed, correct CRC, within PROTO_REPLY_MAX), the state (always a legal state), that GET reads
 * back to the same state through STATE, and that every drawn frame respects the current cap.
 *
 * Usage: fuzz-proto [INPUTS [SEED]]   (defaults 1000000 and 20261123); prints a one-line summary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "proto.h"

#define MAX_INPUT 400

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static uint32_t below(uint32_t n)
{
    return rnd() % n;
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz-proto: %s: %s\n", what, detail);
    abort();
}

static uint8_t crc_of(const char *s, size_t n)
{
    uint8_t c = 0;
    size_t i;
    for (i = 0; i < n; i++)
        c = proto_crc8(c, (uint8_t)s[i]);
    return c;
}

/* "@" body "*CC\n" into out; returns its length. */
static size_t frame(char *out, const char *body)
{
    size_t n = strlen(body);
    out[0] = '@';
    memcpy(out + 1, body, n);
    return 1 + n + (size_t)sprintf(out + 1 + n, "*%02X\n", crc_of(body, n));
}

static void random_state_body(char *body)
{
    static const char *const modes[] = { "idle", "game", "win", "test", "play" };
    char *p = body;
    int t;
    p += sprintf(p, "%02X STATE", (unsigned)below(256));
    if (below(2))
        p += sprintf(p, " m=%s", modes[below(5)]);
    if (below(2))
        p += sprintf(p, " b=%u", (unsigned)below(300));
    for (t = 0; t < 2; t++) {
        if (below(4)) {
            unsigned a = below(125), b = below(125);
            if (below(4) && a > b) {
                unsigned x = a;
                a = b;
                b = x;
            }
            p += sprintf(p, " p%d=%u,%u,%06X", t, a, b, (unsigned)(rnd() & 0xFFFFFFu));
        }
    }
    if (below(3) == 0)
        p += sprintf(p, " t=%u,%u", (unsigned)below(3), (unsigned)below(124));
    if (below(4) == 0)
        p += sprintf(p, " t=-");
    if (below(3) == 0)
        p += sprintf(p, " w=%u", (unsigned)below(3));
    if (below(3) == 0) {
        static const char *const answers[] = { "1", "-", "0", "11" };
        p += sprintf(p, " q=%s", answers[below(4)]);
    }
    *p = 0;
}

static size_t seed_input(char *out)
{
    char body[200];
    switch (below(6)) {
    case 0:
        sprintf(body, "%02X HELLO", (unsigned)below(256));
        break;
    case 1:
        sprintf(body, "%02X PING", (unsigned)below(256));
        break;
    case 2:
        sprintf(body, "%02X GET", (unsigned)below(256));
        break;
    default:
        random_state_body(body);
        break;
    }
    return frame(out, body);
}

static const char interesting[] = "@\n\r* =,-0123456789ABCDEFabcdef?mbptwqSTATEHELLOGETPING";

static size_t mutate(char *buf, size_t n)
{
    int rounds = 1 + (int)below(4), r;
    for (r = 0; r < rounds; r++) {
        size_t at = n ? below((uint32_t)n) : 0;
        switch (below(7)) {
        case 0: /* flip a bit */
            if (n)
                buf[at] = (char)(buf[at] ^ (1 << below(8)));
            break;
        case 1: /* delete a byte (a byte dropped on the wire) */
            if (n) {
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
            }
            break;
        case 2: /* insert an interesting byte */
            if (n < MAX_INPUT) {
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = interesting[below(sizeof interesting - 1)];
                n++;
            }
            break;
        case 3: /* duplicate a run */
        {
            size_t len = below(40) + 1;
            if (at + len > n)
                len = n - at;
            if (n + len <= MAX_INPUT) {
                memmove(buf + at + len, buf + at, n - at);
                n += len;
            }
            break;
        }
        case 4: /* truncate */
            n = at;
            break;
        case 5: /* splice another valid frame in */
        {
            char other[MAX_INPUT];
            size_t m = seed_input(other), cut = below((uint32_t)m + 1);
            if (at + (m - cut) <= MAX_INPUT) {
                memcpy(buf + at, other + cut, m - cut);
                n = at + (m - cut);
            }
            break;
        }
        default: /* replace with a random byte */
            if (n)
                buf[at] = (char)below(256);
            break;
        }
    }
    return n;
}

/* Recompute the CRC of every "@...*CC" so the damage reaches the value checks. */
static void fix_crcs(char *buf, size_t n)
{
    size_t i, start = (size_t)-1;
    for (i = 0; i < n; i++) {
        if (buf[i] == '@')
            start = i;
        else if (buf[i] == '*' && start != (size_t)-1 && i + 2 < n) {
            char hex[3];
            sprintf(hex, "%02X", crc_of(buf + start + 1, i - start - 1));
            buf[i + 1] = hex[0];
            buf[i + 2] = hex[1];
            start = (size_t)-1;
        }
    }
}

static void check_state(const board_state_t *s)
{
    uint8_t t;
    if (s->mode > MODE_TEST)
        fail("state", "mode out of range");
    for (t = 0; t < BOARD_TRACKS; t++) {
        const board_track_t *tr = &s->track[t];
        if (tr->rear > BOARD_HOLES || tr->fwd > BOARD_HOLES || (tr->fwd && tr->rear > tr->fwd))
            fail("state", "peg out of range");
    }
    if (s->tent_track != BOARD_NONE && (s->tent_track >= BOARD_TRACKS || s->tent_hole < 1 ||
                                        s->tent_hole > BOARD_HOLES))
        fail("state", "tentative peg out of range");
    if (s->winner != BOARD_NONE && s->winner >= BOARD_TRACKS)
        fail("state", "winner out of range");
    if (s->question > 1)
        fail("state", "question neither set nor clear");
}

static void check_reply(const char *r, uint8_t n)
{
    char copy[PROTO_REPLY_MAX + 1];
    uint8_t i;
    if (n < 8 || n > PROTO_REPLY_MAX)
        fail("reply", "length out of bounds");
    memcpy(copy, r, n);
    copy[n] = 0;
    if (r[0] != '@' || r[n - 1] != '\n' || r[n - 4] != '*')
        fail("reply", copy);
    for (i = 1; i < n - 1; i++) {
        if (r[i] == '\n' || r[i] == '@' || (r[i] == '*' && i != n - 4))
            fail("reply has a framing byte inside", copy);
    }
    {
        char hex[3];
        sprintf(hex, "%02X", crc_of(r + 1, (size_t)n - 5));
        if (r[n - 3] != hex[0] || r[n - 2] != hex[1])
            fail("reply CRC", copy);
    }
    if (strncmp(r + 4, "OK", 2) != 0 && strncmp(r + 4, "NAK ", 4) != 0)
        fail("reply is neither OK nor NAK", copy);
}

static uint64_t frames_seen, oks, naks, states_drawn, k_global;

static void check_draw(const board_state_t *s)
{
    uint8_t *grb = malloc(BOARD_FRAME_BYTES); /* exact size: ASan catches any write past it */
    uint16_t step = (uint16_t)below(400), i, est;
    uint32_t sum = 0;
    if (!grb)
        fail("malloc", "out of memory");
    uint16_t lit = board_render(s, step, grb), nonzero = 0;
    for (i = 0; i < BOARD_LEDS; i++)
        nonzero = (uint16_t)(nonzero + (grb[3 * i] || grb[3 * i + 1] || grb[3 * i + 2]));
    if (nonzero > lit)
        fail("render", "more LEDs lit than it says it drew");
    /* half the time without the hint, so the full scan and scaling are always exercised too */
    est = board_cap(grb, BOARD_LEDS, BOARD_CAP_MA, (k_global & 1u) ? lit : BOARD_LEDS);
    for (i = 0; i < BOARD_FRAME_BYTES; i++)
        sum += grb[i];
    /* the cap: LEDs x 1 mA + 20 mA x channel / 255 must not exceed it */
    if ((uint64_t)BOARD_LEDS * 255u + (uint64_t)sum * 20u > (uint64_t)BOARD_CAP_MA * 255u)
        fail("cap", "frame over the current cap");
    if (est > BOARD_CAP_MA)
        fail("cap", "estimate over the current cap");
    free(grb);
    states_drawn++;
}

/* GET, then STATE with what GET said: the board must end in the same state. */
static void check_roundtrip(const board_state_t *s)
{
    proto_parser_t p;
    board_state_t copy = *s, again;
    char in[160], body[160], reply[PROTO_REPLY_MAX];
    uint8_t n = 0;
    size_t len, i;
    proto_init(&p);
    len = frame(in, "07 GET");
    for (i = 0; i < len; i++) {
        if (proto_feed(&p, (uint8_t)in[i]))
            proto_handle(&p, &copy, reply, &n);
    }
    check_reply(reply, n);
    /* "@07 OK m=... w=-*CC\n" -> "08 STATE m=... w=-" */
    if (strncmp(reply, "@07 OK ", 7) != 0)
        fail("GET", "unexpected reply");
    sprintf(body, "08 STATE %.*s", (int)(n - 11), reply + 7);
    len = frame(in, body);
    board_defaults(&again);
    for (i = 0; i < len; i++) {
        if (proto_feed(&p, (uint8_t)in[i])) {
            if (proto_handle(&p, &again, reply, &n) != PROTO_REPLY_AFTER_LATCH)
                fail("GET does not read back through STATE", body);
        }
    }
    if (memcmp(&again, s, sizeof again) != 0)
        fail("GET/STATE round trip changed the state", body);
}

int main(int argc, char **argv)
{
    uint64_t inputs = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000u, k;
    proto_parser_t parser;
    board_state_t state;
    char buf[MAX_INPUT + 8], reply[PROTO_REPLY_MAX];
    uint8_t reply_len;

    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261123u;
    if (rng_state == 0)
        rng_state = 1;
    if (crc_of("123456789", 9) != 0xF4) /* the CRC-8/SMBUS check value */
        fail("crc", "check value of \"123456789\" is not F4");

    proto_init(&parser);
    board_defaults(&state);
    for (k = 0; k < inputs; k++) {
        size_t n, i;
        uint32_t kind = below(10);
        k_global = k;
        if (kind < 2) { /* random bytes, biased towards the framing characters */
            n = below(MAX_INPUT);
            for (i = 0; i < n; i++)
                buf[i] = below(3) ? interesting[below(sizeof interesting - 1)] : (char)below(256);
        } else {
            n = seed_input(buf);
            if (kind < 9)
                n = mutate(buf, n);
            if (kind >= 5)
                fix_crcs(buf, n);
        }
        for (i = 0; i < n; i++) {
            if (!proto_feed(&parser, (uint8_t)buf[i]))
                continue;
            frames_seen++;
            reply_len = 0;
            if (proto_handle(&parser, &state, reply, &reply_len) == PROTO_REPLY_AFTER_LATCH) {
                check_state(&state);
                check_draw(&state);
                if ((k & 63u) == 0)
                    check_roundtrip(&state);
            }
            check_reply(reply, reply_len);
            if (reply[4] == 'O')
                oks++;
            else
                naks++;
        }
        if (parser.len > PROTO_MAX_BODY)
            fail("parser", "body length past its buffer");
    }
    printf("fuzz-proto: %llu inputs, %llu frames (%llu OK, %llu NAK), %llu states drawn, no fault\n",
           (unsigned long long)inputs, (unsigned long long)frames_seen, (unsigned long long)oks,
           (unsigned long long)naks, (unsigned long long)states_drawn);
    return 0;
}
