/*
 * A test program for the simulator harness, not for the board: it drives the LED data pin (PD6) with
 * one correct WS2812B frame and then with pulses that break the datasheet in known ways, so the tests
 * can check that the harness decodes frames right and reports each kind of timing violation.
 *
 *   frame 1: one LED, G=00 R=FF B=0F, every pulse in spec, then a 400 us latch
 *   frame 2: one LED whose 9th bit is high for only 125 ns ("high")
 *   frame 3: one LED with a 10 us low in the middle ("gap"), latched after only 100 us
 *   frame 4: starts 100 us after frame 3 ("latch"), and stops after 20 bits ("partial")
 * Then it sleeps with interrupts off, which ends the simulation.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/delay.h>

#define HI() (PORTD |= _BV(6))  /* sbi: 2 cycles */
#define LO() (PORTD &= (uint8_t)~_BV(6))
#define PULSE(h, l) do { HI(); __builtin_avr_delay_cycles(h); LO(); __builtin_avr_delay_cycles(l); } while (0)
#define B0 PULSE(4, 10)   /* high 6 cycles = 375 ns */
#define B1 PULSE(11, 4)   /* high 13 cycles = 812.5 ns */
#define BIT(v, m) do { if ((v) & (m)) B1; else B0; } while (0)
#define NIBBLE(v, m) BIT(v, m); BIT(v, (m) >> 1); BIT(v, (m) >> 2); BIT(v, (m) >> 3)
#define BYTE(v) NIBBLE(v, 0x80); NIBBLE(v, 0x08)

int main(void)
{
    DDRD |= _BV(6);
    cli();
    _delay_us(100);

    BYTE(0x00); BYTE(0xFF); BYTE(0x0F);
    _delay_us(400);

    BYTE(0x12); PULSE(0, 10); B0; B0; B0; B1; B1; B1; B1; BYTE(0x56);
    _delay_us(400);

    BYTE(0x12); NIBBLE(0x30, 0x80); LO(); _delay_us(10); NIBBLE(0x04, 0x08); BYTE(0x56);
    _delay_us(100);

    BYTE(0xAA); BYTE(0xBB); NIBBLE(0xC0, 0x80);
    _delay_us(400);

    sleep_enable();
    sleep_cpu(); /* interrupts off: the simulation ends here */
    for (;;) {
    }
}
