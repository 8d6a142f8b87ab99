/*
 * Hole -> LED lookup. The table itself is generated from companion/board/layout.json at build time; where
 * it lives (flash on the chip, plain memory on the host) is the business of layout_avr.c / layout_host.c.
 */
#ifndef LAYOUT_H
#define LAYOUT_H

#include <stdint.h>

#include "layout_table.h"

/* Index along the LED chain of `hole` (1..LAYOUT_HOLES) on `track`. */
uint16_t layout_led(uint8_t track, uint8_t hole);

#endif
