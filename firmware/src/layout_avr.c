/* The hole -> LED table in flash, where it costs no RAM. */
#include <avr/pgmspace.h>

#include "layout.h"

static const layout_led_t table[LAYOUT_TRACKS][LAYOUT_HOLES] PROGMEM = LAYOUT_TABLE;

uint16_t layout_led(uint8_t track, uint8_t hole)
{
#if LAYOUT_LED_COUNT <= 256
    return pgm_read_byte(&table[track][hole - 1u]);
#else
    return pgm_read_word(&table[track][hole - 1u]);
#endif
}
