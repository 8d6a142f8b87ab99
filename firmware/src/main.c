/*
 * Crib board firmware for the ATmega328P (Arduino Nano, 16 MHz): the LED peg board of the crib
 * companion. It receives the board's semantic state over the USB serial line (protocol v1, see
 * docs/protocol.md), draws it on a chain of WS2812B LEDs and answers each request.
 *
 * The main loop never blocks: the UART receive interrupt fills a lock-free ring buffer, the loop
 * feeds the parser from it one byte at a time, draws when the state changes or an animation is due,
 * and otherwise sleeps (SLEEP_MODE_IDLE) until the next interrupt. A STATE is answered only once its
 * frame is latched on the LEDs, so a host that waits for the answer never sends during a refresh.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/delay.h>

#include "board.h"
#include "proto.h"
#include "ws2812.h"

#define BAUD_UBRR 16u      /* 115200 baud at 16 MHz with U2X0 (2.1 % fast, within tolerance) */
#define RX_SIZE 64u        /* power of two */
#define QUIET_MS 2u        /* no animation refresh within this time of the last received byte */
#define LATCH_US 300u      /* WS2812B reset time (older parts 50 us, newer 280 us) */
/* Interrupts are off while a frame goes out; the millisecond tick misses that time, so add it. */
#define FRAME_MS ((uint16_t)(((uint32_t)BOARD_FRAME_BYTES * 163u) / 16000u))

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head; /* written only by the RX interrupt */
static volatile uint8_t rx_tail; /* written only by the main loop */
static volatile uint8_t tx_len;  /* bytes of reply_buf to send; written only by the main loop */
static volatile uint8_t tx_pos;  /* next byte to send; advanced by the UDRE interrupt */
static volatile uint16_t ms_now;
static volatile uint16_t last_rx_ms;

static uint8_t pixels[BOARD_FRAME_BYTES];
static board_state_t state;
static proto_parser_t parser;
/* Replies go out straight from here: no frame is handled while one is still being sent. */
static char reply_buf[PROTO_REPLY_MAX];

ISR(USART_RX_vect)
{
    uint8_t c = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1u) & (RX_SIZE - 1u));
    if (next != rx_tail) { /* a full ring drops the byte: the frame fails its CRC and is resent */
        rx_buf[rx_head] = c;
        rx_head = next;
    }
    last_rx_ms = ms_now;
}

ISR(USART_UDRE_vect)
{
    uint8_t pos = tx_pos;
    if (pos < tx_len) {
        UDR0 = (uint8_t)reply_buf[pos];
        tx_pos = (uint8_t)(pos + 1u);
    } else {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
    }
}

ISR(TIMER0_COMPA_vect)
{
    ms_now++;
}

static void uart_init(void)
{
    UCSR0A = _BV(U2X0); /* before UBRR0: the baud rate is taken when UBRR0L is written */
    UBRR0H = 0;
    UBRR0L = BAUD_UBRR;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

static void timer_init(void)
{
    TCCR0A = _BV(WGM01);             /* CTC */
    TCCR0B = _BV(CS01) | _BV(CS00);  /* clk / 64 = 250 kHz */
    OCR0A = 249;                     /* 1 kHz */
    TIMSK0 = _BV(OCIE0A);
}

/* A 16-bit value written by an interrupt, read without disabling interrupts. */
static uint16_t read16(volatile uint16_t *v)
{
    uint16_t a, b;
    do {
        a = *v;
        b = *v;
    } while (a != b);
    return a;
}

static int16_t rx_pop(void)
{
    uint8_t tail = rx_tail, c;
    if (tail == rx_head)
        return -1;
    c = rx_buf[tail];
    rx_tail = (uint8_t)((tail + 1u) & (RX_SIZE - 1u));
    return c;
}

static uint8_t rx_empty(void)
{
    return rx_tail == rx_head;
}

static uint8_t tx_idle(void)
{
    return tx_pos >= tx_len;
}

/* Send reply_buf[0..n) from the UDRE interrupt. */
static void tx_start(uint8_t n)
{
    tx_len = 0; /* an interrupt in between sees nothing to send and stops */
    tx_pos = 0;
    tx_len = n;
    UCSR0B |= _BV(UDRIE0);
}

static void show(uint16_t step)
{
    uint16_t lit = board_render(&state, step, pixels);
    board_cap(pixels, BOARD_LEDS, BOARD_CAP_MA, lit);
    ws2812_send(pixels, BOARD_FRAME_BYTES);
    cli();
    ms_now = (uint16_t)(ms_now + FRAME_MS);
    sei();
    _delay_us(LATCH_US);
}

int main(void)
{
    uint16_t step = 0, last_frame_ms, now, period;
    uint8_t reply_len = 0, redraw = 0, reply_pending = 0, frame_ready = 0;
    int16_t c;

    /* a watchdog reset leaves the watchdog running: clear it first, then arm it for this run */
    MCUSR = 0;
    wdt_disable();
    wdt_enable(WDTO_1S); /* a stuck loop restarts the board; the host then restores its state */

    board_defaults(&state);
    proto_init(&parser);
    ws2812_init();
    uart_init();
    timer_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();

    show(step);
    last_frame_ms = read16(&ms_now);
    tx_start(proto_ready(reply_buf));

    for (;;) {
        wdt_reset(); /* every pass; the 1 ms tick wakes the loop well within the timeout */
        /*
         * Bytes are parsed as they come, even while a reply is going out; a complete frame waits
         * (frame_ready) until the reply buffer is free. One frame per pass: a STATE is drawn and
         * answered before the next byte is looked at.
         */
        while (!redraw && !frame_ready && (c = rx_pop()) >= 0)
            frame_ready = proto_feed(&parser, (uint8_t)c);
        if (frame_ready && tx_idle()) {
            frame_ready = 0;
            if (proto_handle(&parser, &state, reply_buf, &reply_len) == PROTO_REPLY_AFTER_LATCH) {
                redraw = 1;
                reply_pending = 1;
                step = 0;
            } else {
                tx_start(reply_len);
            }
        }
        now = read16(&ms_now);
        period = board_period_ms(&state);
        if (!redraw && !frame_ready && period != 0 && (uint16_t)(now - last_frame_ms) >= period &&
            !parser.in_frame && rx_empty() && (uint16_t)(now - read16(&last_rx_ms)) >= QUIET_MS) {
            board_advance(&state, &step);
            redraw = 1;
        }
        if (redraw) {
            show(step);
            last_frame_ms = read16(&ms_now);
            redraw = 0;
            if (reply_pending) {
                tx_start(reply_len);
                reply_pending = 0;
            }
            continue;
        }
        /* nothing to do until an interrupt: a byte, the reply buffer freed, or the millisecond tick */
        cli();
        if (rx_empty() || frame_ready) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
