/*
 * WS2812B bit-banging for a 16 MHz AVR (62.5 ns per cycle).
 *
 * Every bit is 20 cycles (1.25 us) on the pin, 23 at a byte boundary where the next byte is loaded:
 *   a 0 is high for 6 cycles (375 ns, datasheet 250-550) then low for 14 (875 ns);
 *   a 1 is high for 13 cycles (812.5 ns, datasheet 650-950) then low for 7 (437.5 ns).
 * The port is written whole with precomputed high/low values (`out`, one cycle), which is safe
 * because interrupts are off, so nothing else can change PORTD meanwhile.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "ws2812.h"

void ws2812_init(void)
{
    WS2812_PORT &= (uint8_t)~_BV(WS2812_BIT);
    WS2812_DDR |= _BV(WS2812_BIT);
}

void ws2812_send(const uint8_t *bytes, uint16_t n)
{
    uint8_t sreg = SREG, hi, lo, byte, bits;
    cli();
    hi = WS2812_PORT | _BV(WS2812_BIT);
    lo = WS2812_PORT & (uint8_t)~_BV(WS2812_BIT);
    __asm__ volatile(
        "ld   %[byte], %a[ptr]+  \n\t"
        "ldi  %[bits], 8         \n\t"
        "1:                      \n\t"
        "out  %[port], %[hi]     \n\t" /* c0: rise */
        "nop                     \n\t"
        "nop                     \n\t"
        "nop                     \n\t"
        "nop                     \n\t" /* c1-c4 */
        "sbrs %[byte], 7         \n\t" /* c5 (c5-c6 when the bit is 1) */
        "out  %[port], %[lo]     \n\t" /* c6: fall of a 0 */
        "lsl  %[byte]            \n\t" /* c7 */
        "nop                     \n\t"
        "nop                     \n\t"
        "nop                     \n\t"
        "nop                     \n\t" /* c8-c11 */
        "dec  %[bits]            \n\t" /* c12 */
        "out  %[port], %[lo]     \n\t" /* c13: fall of a 1 */
        "breq 2f                 \n\t" /* c14 (c14-c15 when taken) */
        "nop                     \n\t"
        "nop                     \n\t"
        "nop                     \n\t" /* c15-c17 */
        "rjmp 1b                 \n\t" /* c18-c19 */
        "2:                      \n\t"
        "ld   %[byte], %a[ptr]+  \n\t" /* c16-c17 (reads one past the end after the last byte) */
        "ldi  %[bits], 8         \n\t" /* c18 */
        "sbiw %[count], 1        \n\t" /* c19-c20 */
        "brne 1b                 \n\t" /* c21-c22 */
        : [ptr] "+e"(bytes), [count] "+w"(n), [byte] "=&r"(byte), [bits] "=&d"(bits)
        : [port] "I"(_SFR_IO_ADDR(WS2812_PORT)), [hi] "r"(hi), [lo] "r"(lo));
    SREG = sreg;
}
