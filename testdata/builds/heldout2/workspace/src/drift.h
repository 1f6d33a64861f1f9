#ifndef DRIFT_H
#define DRIFT_H

#include <stddef.h>
#include <stdint.h>

uint32_t drift_crc32(const void *data, size_t len);
const char *drift_strerror(int code);
int drift_log2(unsigned x);
const char *drift_help(size_t i);
size_t drift_record_size(void);

#endif
