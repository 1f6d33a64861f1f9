#include "zlite.h"

#define BASE 65521u

uint32_t zlite_adler32(uint32_t adler, const unsigned char *buf, size_t len) {
    uint32_t a = adler & 0xffff, b = adler >> 16;
    while (len--) {
        a = (a + *buf++) % BASE;
        b = (b + a) % BASE;
    }
    return (b << 16) | a;
}
