/*
 * Wire protocol v1, the board's side: a byte-at-a-time resynchronising frame parser, the CRC-8 and
 * the commands (HELLO, PING, STATE, GET). See docs/protocol.md for the specification.
 *
 * Plain C with no AVR header: the same file runs on the chip and in the host-side fuzzer.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

#include "board.h"

/* Both versions come from the Makefile, which reads them from companion/board/protocol.py. */
#if !defined(PROTO_VERSION) || !defined(FW_VERSION)
#error "build with the Makefile: it sets PROTO_VERSION and FW_VERSION from companion/board/protocol.py"
#endif
#define PROTO_MAX_FRAME 120u                    /* '@' to '\n' inclusive */
#define PROTO_MAX_BODY (PROTO_MAX_FRAME - 2u)   /* the bytes between '@' and '\n' */
#define PROTO_REPLY_MAX 96u                     /* longest reply, '@' to '\n' inclusive */

typedef struct {
    char body[PROTO_MAX_BODY];
    uint8_t len;
    uint8_t in_frame;  /* an '@' has come and its '\n' not yet */
    uint8_t overflow;  /* the frame outgrew PROTO_MAX_FRAME: it is answered NAK overflow */
} proto_parser_t;

enum proto_action {
    PROTO_REPLY_NOW = 0,     /* send the reply at once */
    PROTO_REPLY_AFTER_LATCH  /* the state changed: draw, latch the LEDs, then send the reply */
};

uint8_t proto_crc8(uint8_t crc, uint8_t byte);

void proto_init(proto_parser_t *p);

/* Take one received byte. Returns 1 when it ends a frame: call proto_handle before the next byte. */
uint8_t proto_feed(proto_parser_t *p, uint8_t byte);

/*
 * Act on the frame that just ended: check it, apply a STATE to *state (only if the whole STATE is
 * valid), and write the reply line into out (PROTO_REPLY_MAX bytes). Returns an enum proto_action.
 */
uint8_t proto_handle(proto_parser_t *p, board_state_t *state, char *out, uint8_t *out_len);

/* The power-up banner "@00 READY proto=1 fw=x.y.z*CC\n" into out; returns its length. */
uint8_t proto_ready(char *out);

#endif
