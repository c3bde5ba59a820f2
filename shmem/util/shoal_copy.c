/* Streaming copies (shoal_copy.h): SSE2 non-temporal stores on x86-64, memcpy
 * elsewhere. Never reads the destination. */
#include "shoal_copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>

void shoal_copy_stream(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)(-(uintptr_t)d & 63);

    if (n < 256) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, head); /* up to the first 64-byte line of dst */
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));

        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    memcpy(d, s, n);
    _mm_sfence(); /* streaming stores are weakly ordered: order them before what follows */
}
#else
void shoal_copy_stream(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}
#endif
