/*
 * Drawing the board from its semantic state. See board.h.
 *
 * Levels: a forward peg is its colour at the global brightness b, a rear peg the same colour at a
 * quarter of it ((b + 3) / 4) so the two pegs of a track are told apart at a glance; a channel c at
 * level k is round(c * k / 255). The tentative peg of a claim blinks at 2 Hz at the forward level.
 * A waiting question flashes hole 1 and the forward peg of each track white at 1 Hz (on the even
 * half-seconds), so it reads as "the game is asking", never as a claim's blink or the winner's wave.
 */
#include <string.h>

#include "board.h"

#define IDLE_PERIOD_MS 60u
#define IDLE_TAIL 4u
#define WIN_PERIOD_MS 50u
#define WIN_WAVE 10u
#define BLINK_PERIOD_MS 250u
#define TEST_PERIOD_MS 15u

static const uint8_t default_rgb[2][3] = { { 0x00, 0xC0, 0xFF }, { 0xFF, 0x60, 0x00 } };

void board_defaults(board_state_t *s)
{
    uint8_t t;
    memset(s, 0, sizeof *s);
    s->mode = MODE_IDLE;
    s->brightness = 64;
    for (t = 0; t < BOARD_TRACKS; t++)
        memcpy(s->track[t].rgb, default_rgb[t & 1u], 3);
    s->tent_track = BOARD_NONE;
    s->tent_hole = 0;
    s->winner = BOARD_NONE;
}

uint8_t board_level(uint8_t c, uint8_t k)
{
    return (uint8_t)(((uint16_t)c * k + 127u) / 255u);
}

uint16_t board_period_ms(const board_state_t *s)
{
    switch (s->mode) {
    case MODE_IDLE:
        return IDLE_PERIOD_MS;
    case MODE_WIN:
        return s->winner == BOARD_NONE ? 0 : WIN_PERIOD_MS;
    case MODE_TEST:
        return TEST_PERIOD_MS;
    default:
        return (s->tent_track == BOARD_NONE && !s->question) ? 0 : BLINK_PERIOD_MS;
    }
}

uint8_t board_advance(board_state_t *s, uint16_t *step)
{
    (*step)++;
    if (s->mode == MODE_TEST && *step >= BOARD_LEDS) {
        s->mode = MODE_GAME;
        *step = 0;
        return 1;
    }
    return 0;
}

static uint16_t drawn; /* LEDs written by the current board_render, for board_cap's quick bound */

static void put(uint8_t *grb, uint16_t led, const uint8_t rgb[3], uint8_t k)
{
    uint8_t *p = grb + 3u * led;
    drawn++;
    p[0] = board_level(rgb[1], k);
    p[1] = board_level(rgb[0], k);
    p[2] = board_level(rgb[2], k);
}

static void draw_pegs(const board_state_t *s, uint8_t t, uint8_t *grb)
{
    const board_track_t *tr = &s->track[t];
    if (tr->rear != 0 && tr->rear != tr->fwd)
        put(grb, layout_led(t, tr->rear), tr->rgb, (uint8_t)((s->brightness + 3u) / 4u));
    if (tr->fwd != 0)
        put(grb, layout_led(t, tr->fwd), tr->rgb, s->brightness);
}

/* Steps are BLINK_PERIOD_MS apart: white for steps 0 and 1 of every four (500 ms of each second). */
static void draw_question(const board_state_t *s, uint16_t step, uint8_t *grb)
{
    static const uint8_t white[3] = { 0xFF, 0xFF, 0xFF };
    uint8_t t;
    if (step & 2u)
        return;
    for (t = 0; t < BOARD_TRACKS; t++) {
        put(grb, layout_led(t, 1), white, s->brightness);
        if (s->track[t].fwd != 0)
            put(grb, layout_led(t, s->track[t].fwd), white, s->brightness);
    }
}

static void draw_idle(const board_state_t *s, uint16_t step, uint8_t *grb)
{
    const uint16_t lap = BOARD_HOLES + IDLE_TAIL;
    uint8_t t, i;
    for (t = 0; t < BOARD_TRACKS; t++) {
        uint16_t head = (uint16_t)((step + (uint16_t)t * (lap / 2u)) % lap) + 1u;
        for (i = 0; i < IDLE_TAIL; i++) {
            if (head > i && head - i <= BOARD_HOLES)
                put(grb, layout_led(t, (uint8_t)(head - i)), s->track[t].rgb,
                    (uint8_t)(s->brightness >> (i + 1u)));
        }
    }
}

static void draw_win(const board_state_t *s, uint16_t step, uint8_t *grb)
{
    uint8_t t, hole;
    uint8_t glow = (uint8_t)((s->brightness + 7u) / 8u);
    uint8_t shift = (uint8_t)(step % WIN_WAVE);
    for (t = 0; t < BOARD_TRACKS; t++) {
        if (t != s->winner) {
            draw_pegs(s, t, grb);
            continue;
        }
        for (hole = 1; hole <= BOARD_HOLES; hole++) {
            uint8_t phase = (uint8_t)((hole + WIN_WAVE - shift) % WIN_WAVE);
            uint8_t k = (phase < 3u || hole == BOARD_HOLES) ? s->brightness : glow;
            put(grb, layout_led(t, hole), s->track[t].rgb, k);
        }
    }
}

uint16_t board_render(const board_state_t *s, uint16_t step, uint8_t *grb)
{
    static const uint8_t white[3] = { 0xFF, 0xFF, 0xFF };
    uint8_t t;
    drawn = 0;
    memset(grb, 0, BOARD_FRAME_BYTES);
    switch (s->mode) {
    case MODE_IDLE:
        draw_idle(s, step, grb);
        break;
    case MODE_TEST:
        if (step < BOARD_LEDS)
            put(grb, step, white, s->brightness);
        break;
    case MODE_WIN:
        if (s->winner != BOARD_NONE) {
            draw_win(s, step, grb);
            break;
        }
        /* a win with no winner shows the pegs */
        /* FALLTHROUGH */
    default:
        for (t = 0; t < BOARD_TRACKS; t++)
            draw_pegs(s, t, grb);
        if (s->mode == MODE_GAME && s->question)
            draw_question(s, step, grb);
        if (s->mode == MODE_GAME && s->tent_track != BOARD_NONE && (step & 1u) == 0)
            put(grb, layout_led(s->tent_track, s->tent_hole), s->track[s->tent_track].rgb, s->brightness);
        break;
    }
    return drawn;
}

uint16_t board_cap(uint8_t *grb, uint16_t leds, uint16_t cap_ma, uint16_t lit)
{
    uint32_t sum = 0, avail;
    uint16_t i, bytes = (uint16_t)(leds * 3u);
    /* quick bound: every lit LED at full white (60 mA); the usual game frame stops here */
    if (lit <= leds && (uint32_t)leds + 60u * lit <= cap_ma)
        return (uint16_t)(leds + 60u * lit);
    for (i = 0; i < bytes; i++)
        sum += grb[i];
    if (cap_ma <= leds) {
        memset(grb, 0, bytes);
        return leds;
    }
    avail = ((uint32_t)(cap_ma - leds) * 255u) / 20u;
    if (sum > avail) {
        /* scale < 256; the floor in both steps keeps the new sum at or below avail */
        uint8_t scale = (uint8_t)((avail * 256u) / sum);
        sum = 0;
        for (i = 0; i < bytes; i++) {
            grb[i] = (uint8_t)(((uint16_t)grb[i] * scale) >> 8);
            sum += grb[i];
        }
    }
    return (uint16_t)(leds + (sum * 20u + 254u) / 255u);
}
