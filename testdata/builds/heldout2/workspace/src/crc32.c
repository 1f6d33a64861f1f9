#include "src/drift.h"
#include "src/crc32_table.h"

uint32_t drift_crc32(const void *data, size_t len) {
    const unsigned char *p = data;
    uint32_t c = 0xffffffffu;
    while (len--)
        c = crc32_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}
