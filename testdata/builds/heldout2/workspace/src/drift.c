#include "src/drift.h"
#include "src/errors.h"
#include "src/messages.h"
#include "src/record.h"
#include "src/tables.h"

const char *drift_strerror(int code) {
    for (size_t i = 0; i < sizeof drift_error_messages / sizeof drift_error_messages[0]; i++)
        if (drift_error_messages[i].code == code)
            return drift_error_messages[i].message;
    return "unknown error";
}

int drift_log2(unsigned x) {
    int e = 0;
    if (x == 0)
        return -1;
    while (x >= 128) {
        x >>= 1;
        e++;
    }
    while (x < 64) {
        x <<= 1;
        e--;
    }
    return ((e + 6) << 16) + drift_log2_q16[x - 64];
}

const char *drift_help(size_t i) {
    return i < sizeof drift_messages / sizeof drift_messages[0] ? drift_messages[i] : NULL;
}

size_t drift_record_size(void) { return sizeof(struct drift_record); }
