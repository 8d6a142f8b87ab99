/*
 * crib-sim: runs the unmodified crib board firmware in simavr behind a pseudo-terminal and reports
 * what a real board would show, as JSON lines on stdout, for the tests and benchmarks.
 *
 * Copyright (C) 2026 The crib companion authors
 *
 * This program is free software: you can redistribute it and/or modify it under the terms of the
 * GNU General Public License as published by the Free Software Foundation, either version 3 of the
 * License, or (at your option) any later version. It is distributed WITHOUT ANY WARRANTY; without
 * even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU
 * General Public License for more details: <https://www.gnu.org/licenses/>.
 *
 * It links libsimavr (GPL-3), so it is a separate test tool and not part of the companion package.
 *
 * What it does, and why:
 *  - creates a pty; the host opens its slave side like a USB serial port. The chip starts only once
 *    the host has opened the port (pyserial flushes input at open, and a real Nano resets when its
 *    port is opened), and by default it is reset again each time the port is reopened;
 *  - "wire" feed (default): host bytes reach the UART one per byte-time of the real line, and a byte
 *    arriving while the chip's receiver already holds three (two in the buffer, one in the shift
 *    register) overwrites the newest one, as a data overrun does on silicon. Each such byte is
 *    reported as lost. simavr's own UART never loses a byte, which would hide the refresh blackout;
 *  - decodes the WS2812 data pin by pulse width on the simulated clock, checks every pulse against
 *    the datasheet and reports each latched frame;
 *  - SIGUSR1 resets the chip (a board reset mid-game); SIGTERM/SIGINT end the run.
 *
 * Events, one JSON object per line ("us" is simulated time in microseconds since the start):
 *   {"event":"pty","path":"/dev/pts/N"}            first line, always
 *   {"event":"open","us":..}                       the host opened the port
 *   {"event":"start","reason":"power|open|signal","us":..}   the chip (re)starts
 *   {"event":"close","us":..}                      the host closed the port
 *   {"event":"frame","n":K,"us":..,"start_us":..,"leds":N,"bits":B,"rgb":"RRGGBB..."}
 *                                                  a latched frame (chain order), its first edge at start_us
 *   {"event":"violation","kind":"high|low|gap|latch|partial","ns":..,"frame":K,"bit":i,"us":..}
 *   {"event":"lost","total":T,"byte":V,"us":..}    a received byte the real chip would have lost
 *   {"event":"reply","us":..}                      the chip starts sending a line ('@')
 *   {"event":"load","us":..,"awake_pct":P,"wakes":W}  each simulated second: the share of it the CPU
 *                                                  was awake, and how often it woke from sleep
 *   {"event":"sof","us":..} / {"event":"eol","us":..}  an '@' / a '\n' delivered to the UART
 *   {"event":"exit","reason":"..."}
 *
 * Usage: crib-sim [--feed wire|fifo] [--baud N] [--pin D6] [--boot-ms N] [--no-reset-on-open]
 *                 [--pty-link FILE] [--mcu atmega328p] [--freq 16000000] FIRMWARE.elf
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_cycle_timers.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>

/* WS2812B datasheet limits, nanoseconds */
#define T0H_MIN 250
#define T0H_MAX 550
#define T1H_MIN 650
#define T1H_MAX 950
#define TLOW_MIN 200      /* shortest low between bits we accept */
#define TLOW_GAP 5000     /* a low this long inside a frame may be taken as a reset by the LEDs */
#define TRESET_OLD 50000  /* low time after which older WS2812B latch: ends a frame here */
#define TRESET_NEW 280000 /* newer WS2812B need this much before a new frame */
#define MAX_BITS (4096 * 24)
#define WIRE_QUEUE 65536u
#define POLL_US 250

static avr_t *avr;
static avr_uart_t *uart;
static uint32_t freq = 16000000;
static uint32_t baud = 115200;
static int feed_wire = 1;
static int reset_on_open = 1;
static int boot_ms = 50;
static int verbose = 0;
static char pin_port = 'D';
static int pin_bit = 6;
static int master_fd = -1;
static volatile sig_atomic_t reset_requested, quit_requested;

/* simulated time across chip resets */
static avr_cycle_count_t cycle_base;

static avr_cycle_count_t now_cycles(void)
{
    return cycle_base + avr->cycle;
}

static double cycles_to_ns(avr_cycle_count_t c)
{
    return (double)c * 1e9 / (double)freq;
}

static double now_us(void)
{
    return (double)now_cycles() * 1e6 / (double)freq;
}

static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

static void quiet_logger(avr_t *a, const int level, const char *fmt, va_list ap)
{
    (void)a;
    if (level <= LOG_ERROR && verbose) {
        vfprintf(stderr, fmt, ap);
    }
}

/* ---------------------------------------------------------------- WS2812 decoding */

static struct {
    int level;
    int in_frame;
    int seen_frame;
    avr_cycle_count_t last_rise, last_fall, frame_start;
    uint32_t nbits;
    uint8_t bytes[MAX_BITS / 8];
    uint64_t frames;
} ws;

static void violation(const char *kind, double ns)
{
    emit("{\"event\":\"violation\",\"kind\":\"%s\",\"ns\":%.1f,\"frame\":%llu,\"bit\":%u,\"us\":%.1f}", kind, ns,
         (unsigned long long)ws.frames + 1, ws.nbits, now_us());
}

static void emit_frame(void)
{
    static char hex[MAX_BITS / 8 * 2 + 1];
    static const char digits[] = "0123456789abcdef";
    uint32_t leds = ws.nbits / 24, i, k = 0;
    ws.frames++;
    if (ws.nbits % 24 != 0)
        emit("{\"event\":\"violation\",\"kind\":\"partial\",\"ns\":0,\"frame\":%llu,\"bit\":%u,\"us\":%.1f}",
             (unsigned long long)ws.frames, ws.nbits, now_us());
    for (i = 0; i < leds; i++) {
        /* on the wire G R B; reported R G B */
        uint8_t g = ws.bytes[3 * i], r = ws.bytes[3 * i + 1], b = ws.bytes[3 * i + 2];
        uint8_t rgb[3] = { r, g, b };
        for (int j = 0; j < 3; j++) {
            hex[k++] = digits[rgb[j] >> 4];
            hex[k++] = digits[rgb[j] & 15];
        }
    }
    hex[k] = 0;
    emit("{\"event\":\"frame\",\"n\":%llu,\"us\":%.1f,\"start_us\":%.1f,\"leds\":%u,\"bits\":%u,"
         "\"rgb\":\"%s\"}",
         (unsigned long long)ws.frames, now_us(), (double)ws.frame_start * 1e6 / (double)freq, leds, ws.nbits,
         hex);
}

static avr_cycle_count_t latch_timer(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    if (ws.in_frame && ws.level == 0) {
        ws.in_frame = 0;
        ws.seen_frame = 1;
        emit_frame();
    }
    (void)when;
    return 0;
}

static void on_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    int v = value ? 1 : 0;
    avr_cycle_count_t now = now_cycles();
    if (v == ws.level)
        return;
    ws.level = v;
    if (v) {
        if (ws.in_frame) {
            double low = cycles_to_ns(now - ws.last_fall);
            if (low < TLOW_MIN)
                violation("low", low);
            else if (low >= TLOW_GAP)
                violation("gap", low);
        } else {
            ws.in_frame = 1;
            ws.frame_start = now;
            ws.nbits = 0;
            if (ws.seen_frame && cycles_to_ns(now - ws.last_fall) < TRESET_NEW)
                violation("latch", cycles_to_ns(now - ws.last_fall));
            memset(ws.bytes, 0, sizeof ws.bytes);
        }
        avr_cycle_timer_cancel(avr, latch_timer, NULL);
        ws.last_rise = now;
    } else {
        if (ws.in_frame) {
            double high = cycles_to_ns(now - ws.last_rise);
            int bit;
            if (high >= T0H_MIN && high <= T0H_MAX) {
                bit = 0;
            } else if (high >= T1H_MIN && high <= T1H_MAX) {
                bit = 1;
            } else {
                violation("high", high);
                bit = high > (T0H_MAX + T1H_MIN) / 2;
            }
            if (ws.nbits < MAX_BITS) {
                if (bit)
                    ws.bytes[ws.nbits / 8] |= (uint8_t)(0x80u >> (ws.nbits % 8));
                ws.nbits++;
            }
        }
        ws.last_fall = now;
        avr_cycle_timer_register(avr, (avr_cycle_count_t)((uint64_t)freq * TRESET_OLD / 1000000000u),
                                 latch_timer, NULL);
    }
}

/* ---------------------------------------------------------------- the serial line */

static uint8_t wire[WIRE_QUEUE];
static uint32_t wire_head, wire_tail;
static int wire_running;
static uint64_t lost_total, rx_total;
static avr_cycle_count_t uart_fixed_cpb;
static int host_open;

static unsigned uart_unread(void)
{
    return (unsigned)((uart->input.write - uart->input.read) & (uart_fifo_fifo_size - 1));
}

/*
 * simavr counts 11 bit-times per 8N1 byte (it adds a parity bit); the real USART takes 10. Put the
 * receive/transmit pump back to the chip's true byte time, or the simulated receiver drains slower
 * than the line fills it and would seem to lose bytes a real chip keeps.
 */
static void fix_uart_rate(void)
{
    if (uart->cycles_per_byte != uart_fixed_cpb) {
        uart_fixed_cpb = uart->cycles_per_byte * 10 / 11;
        uart->cycles_per_byte = uart_fixed_cpb;
    }
}

static void deliver(uint8_t byte)
{
    avr_irq_t *in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    fix_uart_rate();
    rx_total++;
    if (feed_wire && uart_unread() >= 3) {
        /* data overrun: the byte in the shift register is replaced by the newest one */
        unsigned last = (uart->input.write - 1u) & (uart_fifo_fifo_size - 1);
        uint8_t dropped = (uint8_t)uart->input.buffer[last];
        uart->input.buffer[last] = byte;
        lost_total++;
        emit("{\"event\":\"lost\",\"total\":%llu,\"byte\":%u,\"us\":%.1f}", (unsigned long long)lost_total,
             dropped, now_us());
        return;
    }
    avr_raise_irq(in, byte);
    /* frame marks, so a benchmark can time a request on the simulated clock */
    if (byte == '@')
        emit("{\"event\":\"sof\",\"us\":%.1f}", now_us());
    else if (byte == '\n')
        emit("{\"event\":\"eol\",\"us\":%.1f}", now_us());
}

static avr_cycle_count_t wire_timer(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    if (wire_head == wire_tail) {
        wire_running = 0;
        return 0;
    }
    if (!feed_wire) {
        /* fifo feed: as fast as simavr's buffer takes them */
        while (wire_head != wire_tail && uart_unread() < uart_fifo_fifo_size - 2) {
            deliver(wire[wire_tail]);
            wire_tail = (wire_tail + 1) % WIRE_QUEUE;
        }
        return when + (avr_cycle_count_t)freq / 20000;
    }
    deliver(wire[wire_tail]);
    wire_tail = (wire_tail + 1) % WIRE_QUEUE;
    return when + (avr_cycle_count_t)((uint64_t)freq * 10 / baud);
}

static void start_wire(void)
{
    if (!wire_running && wire_head != wire_tail) {
        wire_running = 1;
        avr_cycle_timer_register(avr, 1, wire_timer, NULL);
    }
}

static void on_uart_out(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t b = (uint8_t)value;
    if (b == '@') /* the start of a reply (or the banner), on the simulated clock */
        emit("{\"event\":\"reply\",\"us\":%.1f}", now_us());
    if (host_open && master_fd >= 0) {
        ssize_t r = write(master_fd, &b, 1);
        (void)r; /* a full pty drops the byte, like a USB serial chip nobody reads */
    }
}

/* 1 if the host has the slave side open */
static int slave_is_open(void)
{
    struct pollfd p = { .fd = master_fd, .events = POLLIN };
    if (poll(&p, 1, 0) < 0)
        return host_open;
    return !(p.revents & POLLHUP);
}

static int pending_open, pending_close;

static void read_host(void)
{
    uint8_t buf[512];
    for (;;) {
        ssize_t n = read(master_fd, buf, sizeof buf);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++) {
            uint32_t next = (wire_head + 1) % WIRE_QUEUE;
            if (next == wire_tail)
                break; /* the host wrote 64 KB without waiting: drop, as a USB serial chip would */
            wire[wire_head] = buf[i];
            wire_head = next;
        }
    }
    start_wire();
}

static avr_cycle_count_t poll_timer(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    int open_now = slave_is_open();
    fix_uart_rate(); /* also for what the chip sends before the host says anything */
    if (open_now && !host_open)
        pending_open = 1;
    else if (!open_now && host_open)
        pending_close = 1;
    if (open_now && host_open)
        read_host();
    return when + (avr_cycle_count_t)((uint64_t)freq * POLL_US / 1000000u);
}

/* ---------------------------------------------------------------- the chip */

static avr_cycle_count_t sleep_cycles, load_mark_cycles, load_mark_sleep;
static uint64_t wakes, load_mark_wakes;

/* once per simulated second: how much of it the CPU was awake (the firmware should mostly sleep) */
static avr_cycle_count_t load_timer(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    avr_cycle_count_t total = now_cycles() - load_mark_cycles, slept = sleep_cycles - load_mark_sleep;
    if (total > 0)
        emit("{\"event\":\"load\",\"us\":%.1f,\"awake_pct\":%.2f,\"wakes\":%llu}", now_us(),
             100.0 * (double)(total - slept) / (double)total, (unsigned long long)(wakes - load_mark_wakes));
    load_mark_wakes = wakes;
    load_mark_cycles = now_cycles();
    load_mark_sleep = sleep_cycles;
    return when + freq;
}

static void arm_timers(void)
{
    avr_cycle_timer_register(avr, 1, poll_timer, NULL);
    load_mark_cycles = now_cycles();
    load_mark_sleep = sleep_cycles;
    avr_cycle_timer_register(avr, freq, load_timer, NULL);
    wire_running = 0;
    start_wire();
}

static void reset_chip(const char *reason)
{
    avr_cycle_count_t before = avr->cycle;
    avr_reset(avr);
    if (avr->cycle < before)
        cycle_base += before - avr->cycle;
    uart_fixed_cpb = 0;
    /* the LEDs keep showing the last latched frame; the decoder waits for the next one */
    ws.in_frame = 0;
    ws.level = 0;
    arm_timers();
    emit("{\"event\":\"start\",\"reason\":\"%s\",\"us\":%.1f}", reason, now_us());
}

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        reset_requested = 1;
    else
        quit_requested = 1;
}

static int open_pty(const char *link)
{
    struct termios tio;
    int slave;
    char *name;
    master_fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_fd < 0 || grantpt(master_fd) < 0 || unlockpt(master_fd) < 0) {
        perror("crib-sim: cannot create a pseudo-terminal");
        return -1;
    }
    name = ptsname(master_fd);
    /* raw mode on the line before the host opens it: no echo, no newline translation */
    slave = open(name, O_RDWR | O_NOCTTY);
    if (slave >= 0) {
        if (tcgetattr(slave, &tio) == 0) {
            cfmakeraw(&tio);
            tcsetattr(slave, TCSANOW, &tio);
        }
        close(slave);
    }
    fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
    emit("{\"event\":\"pty\",\"path\":\"%s\"}", name);
    if (link) {
        char tmp[4096];
        FILE *f;
        snprintf(tmp, sizeof tmp, "%s.tmp", link);
        f = fopen(tmp, "w");
        if (!f || fprintf(f, "%s\n", name) < 0 || fclose(f) != 0 || rename(tmp, link) != 0) {
            perror("crib-sim: cannot write the pty path");
            return -1;
        }
    }
    return 0;
}

/* Wait (without running the chip) until the host opens the port. Returns 0, or -1 on quit. */
static int wait_for_host(void)
{
    while (!quit_requested) {
        if (slave_is_open())
            return 0;
        usleep(2000);
    }
    return -1;
}

static void usage(void)
{
    fprintf(stderr, "usage: crib-sim [--feed wire|fifo] [--baud N] [--pin D6] [--boot-ms N] "
                    "[--no-reset-on-open] [--pty-link FILE] [--mcu NAME] [--freq HZ] [--verbose] "
                    "FIRMWARE.elf\n");
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *link = NULL, *mcu = "atmega328p";
    elf_firmware_t fw;
    struct sigaction sa;
    uint32_t flags = 0;
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--feed") && v) {
            feed_wire = strcmp(v, "fifo") != 0;
            i++;
        } else if (!strcmp(a, "--baud") && v) {
            baud = (uint32_t)strtoul(v, NULL, 10);
            i++;
        } else if (!strcmp(a, "--pin") && v && strlen(v) == 2) {
            pin_port = v[0];
            pin_bit = v[1] - '0';
            i++;
        } else if (!strcmp(a, "--boot-ms") && v) {
            boot_ms = atoi(v);
            i++;
        } else if (!strcmp(a, "--pty-link") && v) {
            link = v;
            i++;
        } else if (!strcmp(a, "--mcu") && v) {
            mcu = v;
            i++;
        } else if (!strcmp(a, "--freq") && v) {
            freq = (uint32_t)strtoul(v, NULL, 10);
            i++;
        } else if (!strcmp(a, "--no-reset-on-open")) {
            reset_on_open = 0;
        } else if (!strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (a[0] != '-' && !elf) {
            elf = a;
        } else {
            usage();
            return 2;
        }
    }
    if (!elf || baud == 0 || pin_bit < 0 || pin_bit > 7) {
        usage();
        return 2;
    }
    avr_global_logger_set(quiet_logger);
    memset(&fw, 0, sizeof fw);
    if (access(elf, R_OK) != 0 || elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "crib-sim: cannot read the firmware %s\n", elf);
        return 1;
    }
    avr = avr_make_mcu_by_name(mcu);
    if (!avr) {
        fprintf(stderr, "crib-sim: simavr does not know the MCU %s\n", mcu);
        return 1;
    }
    avr_init(avr);
    avr->log = LOG_NONE;
    avr_load_firmware(avr, &fw);
    avr->frequency = freq;
    avr->log = LOG_NONE;

    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && !strcmp(io->kind, "uart") && ((avr_uart_t *)io)->name == '0')
            uart = (avr_uart_t *)io;
    }
    if (!uart) {
        fprintf(stderr, "crib-sim: the MCU has no UART0\n");
        return 1;
    }
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags); /* no console echo, no poll sleeping */
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(pin_port), pin_bit), on_pin, NULL);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (open_pty(link) != 0)
        return 1;
    if (wait_for_host() != 0) {
        emit("{\"event\":\"exit\",\"reason\":\"signal\"}");
        return 0;
    }
    host_open = 1;
    emit("{\"event\":\"open\",\"us\":%.1f}", now_us());
    usleep((useconds_t)boot_ms * 1000);
    tcflush(master_fd, TCIFLUSH); /* what the host sent during the boot delay is not seen by the chip */
    arm_timers();
    emit("{\"event\":\"start\",\"reason\":\"power\",\"us\":%.1f}", now_us());

    for (;;) {
        int asleep = avr->state == cpu_Sleeping;
        avr_cycle_count_t before = avr->cycle;
        int state = avr_run(avr);
        /* simavr jumps the clock to the next timer in the same call that executes SLEEP */
        if ((asleep || avr->state == cpu_Sleeping) && avr->cycle > before)
            sleep_cycles += avr->cycle - before;
        if (asleep && avr->state != cpu_Sleeping)
            wakes++;
        if (state == cpu_Done || state == cpu_Crashed) {
            emit("{\"event\":\"exit\",\"reason\":\"%s\"}", state == cpu_Done ? "done" : "crashed");
            return state == cpu_Done ? 0 : 1;
        }
        if (quit_requested) {
            emit("{\"event\":\"exit\",\"reason\":\"signal\"}");
            return 0;
        }
        if (pending_close) {
            pending_close = 0;
            host_open = 0;
            wire_head = wire_tail = 0;
            emit("{\"event\":\"close\",\"us\":%.1f}", now_us());
        }
        if (pending_open) {
            pending_open = 0;
            host_open = 1;
            emit("{\"event\":\"open\",\"us\":%.1f}", now_us());
            if (reset_on_open) {
                usleep((useconds_t)boot_ms * 1000);
                tcflush(master_fd, TCIFLUSH);
                wire_head = wire_tail = 0;
                reset_chip("open");
            }
        }
        if (reset_requested) {
            reset_requested = 0;
            reset_chip("signal");
        }
    }
}
