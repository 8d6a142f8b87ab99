/* The hole -> LED table in ordinary memory, for host builds (fuzzer, checks). */
#include "layout.h"

static const layout_led_t table[LAYOUT_TRACKS][LAYOUT_HOLES] = LAYOUT_TABLE;

uint16_t layout_led(uint8_t track, uint8_t hole)
{
    return table[track][hole - 1u];
}
