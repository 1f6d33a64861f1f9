#include <string.h>
#include "zlite.h"

size_t zlite_unstore(unsigned char *dst, const unsigned char *src, size_t len) {
    size_t n;
    if (len < 5 || src[0] != 1)
        return 0;
    n = src[1] | (size_t)src[2] << 8;
    if (n + 5 > len)
        return 0;
    memcpy(dst, src + 5, n);
    return n;
}
