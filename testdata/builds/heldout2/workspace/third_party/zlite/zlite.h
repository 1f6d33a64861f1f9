#ifndef ZLITE_H
#define ZLITE_H
#include <stddef.h>
#include <stdint.h>

uint32_t zlite_adler32(uint32_t adler, const unsigned char *buf, size_t len);
size_t zlite_store(unsigned char *dst, const unsigned char *src, size_t len);
size_t zlite_unstore(unsigned char *dst, const unsigned char *src, size_t len);
#endif
