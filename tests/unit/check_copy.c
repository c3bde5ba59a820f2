/* Unit tests of the streaming copy (shoal_copy_stream, shmem/util):
 * every byte of the destination range equals the source, and nothing either side
 * of it changes, for every alignment of source and destination against a 64-byte
 * line and lengths around the points where the copy changes method. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "shoal_copy.h"

#define PAD 192

static unsigned char src_mem[8192 + 2 * PAD] __attribute__((aligned(64)));
static unsigned char dst_mem[8192 + 2 * PAD] __attribute__((aligned(64)));

static void check_one(size_t soff, size_t doff, size_t n)
{
    size_t i;

    for (i = 0; i < sizeof(src_mem); i++)
        src_mem[i] = (unsigned char)(i * 131 + 7);
    memset(dst_mem, 0xa5, sizeof(dst_mem));
    shoal_copy_stream(dst_mem + PAD + doff, src_mem + PAD + soff, n);
    for (i = 0; i < sizeof(dst_mem); i++) {
        size_t at = PAD + doff;
        unsigned char want = i >= at && i < at + n ? src_mem[PAD + soff + (i - at)] : 0xa5;

        if (dst_mem[i] != want)
            ck_abort_msg("copy of %zu bytes, source +%zu, dest +%zu: byte %zd of dest is 0x%02x, "
                         "expected 0x%02x",
                         n, soff, doff, (ssize_t)i - (ssize_t)at, dst_mem[i], want);
    }
}

START_TEST(test_lengths_and_alignments)
{
    static const size_t lengths[] = {0, 1, 63, 64, 65, 255, 256, 257, 319, 320, 321,
                                     1000, 4095, 4096, 4097, 8191 - 128};
    size_t l, s, d;

    for (l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++)
        for (s = 0; s < 64; s += 7)
            for (d = 0; d < 64; d += 5)
                check_one(s, d, lengths[l]);
}
END_TEST

static Suite *copy_suite(void)
{
    Suite *s = suite_create("copy");
    TCase *tc = tcase_create("stream");

    tcase_add_test(tc, test_lengths_and_alignments);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_main_run(copy_suite());
}
