#include <string.h>
#include "zlite.h"

/* Stored blocks only: a 5-byte header, then the data. */
size_t zlite_store(unsigned char *dst, const unsigned char *src, size_t len) {
    dst[0] = 1;
    dst[1] = len & 0xff;
    dst[2] = (len >> 8) & 0xff;
    dst[3] = ~dst[1];
    dst[4] = ~dst[2];
    memcpy(dst + 5, src, len);
    return len + 5;
}
