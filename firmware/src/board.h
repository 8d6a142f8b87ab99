/*
 * The board's semantic state and how it is drawn: pegs, colours, modes, brightness, the current cap.
 *
 * Plain C with no AVR header, so the same code runs on the chip and, compiled for the host, in the
 * fuzzer and unit checks. The host never pushes pixels: it sends this state and the board draws it.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#include "layout.h"

#define BOARD_TRACKS LAYOUT_TRACKS
#define BOARD_HOLES LAYOUT_HOLES
#define BOARD_LEDS LAYOUT_LED_COUNT
#define BOARD_FRAME_BYTES (BOARD_LEDS * 3u)
#define BOARD_NONE 0xFFu

#ifndef BOARD_CAP_MA
#define BOARD_CAP_MA 1500u
#endif

enum board_mode { MODE_IDLE = 0, MODE_GAME, MODE_WIN, MODE_TEST };

typedef struct {
    uint8_t rear;   /* 0 = start hole (unlit), else hole 1..BOARD_HOLES */
    uint8_t fwd;
    uint8_t rgb[3];
} board_track_t;

typedef struct {
    uint8_t mode;
    uint8_t brightness;
    board_track_t track[BOARD_TRACKS];
    uint8_t tent_track; /* BOARD_NONE when there is no tentative peg */
    uint8_t tent_hole;
    uint8_t winner;     /* BOARD_NONE when no winner is set */
    uint8_t question;   /* 1 while the host waits for an answer (q=1), else 0 */
} board_state_t;

/* Everything a STATE leaves out takes these values. */
void board_defaults(board_state_t *s);

/*
 * Milliseconds between animation refreshes, or 0 when the picture is static (game with no tentative
 * peg and no question).
 */
uint16_t board_period_ms(const board_state_t *s);

/*
 * Move an animation one step on. Returns 1 when the step changed the state itself (the self-test
 * finished and the board went back to showing the pegs), so GET reports what is shown.
 */
uint8_t board_advance(board_state_t *s, uint16_t *step);

/*
 * Draw the state at animation step `step` into grb[BOARD_FRAME_BYTES] (chain order, G R B per LED).
 * Returns how many LEDs it wrote (every other LED is dark), a bound board_cap can use.
 */
uint16_t board_render(const board_state_t *s, uint16_t step, uint8_t *grb);

/*
 * Scale the frame down, if needed, so its estimated current (1 mA per LED plus 20 mA x channel/255
 * per channel) fits cap_ma. `lit` bounds how many LEDs are not dark (board_render's result; pass
 * `leds` if unknown): when even that many LEDs at full white fit, the frame is left as it is without
 * scanning it. Returns an upper bound, in mA, of the frame's estimate as it will be sent.
 */
uint16_t board_cap(uint8_t *grb, uint16_t leds, uint16_t cap_ma, uint16_t lit);

/* A channel value at brightness level k (0..255): round(c * k / 255). */
uint8_t board_level(uint8_t c, uint8_t k);

#endif
