/* WS2812B driver: sends G R B bytes down the data pin with cycle-exact timing at 16 MHz. */
#ifndef WS2812_H
#define WS2812_H

#include <stdint.h>

/* The data pin: Arduino Nano D6 = PD6 (see firmware/README.md for the wiring). */
#define WS2812_PORT PORTD
#define WS2812_DDR DDRD
#define WS2812_BIT 6

void ws2812_init(void);

/*
 * Send n bytes (n >= 1). Interrupts are off while the bits go out (about 7.4 ms for 242 LEDs), so
 * received UART bytes can be lost in that time: the protocol makes sure the host is not sending.
 * The LEDs latch once the line has stayed low for the reset time; the caller waits for that.
 */
void ws2812_send(const uint8_t *bytes, uint16_t n);

#endif
