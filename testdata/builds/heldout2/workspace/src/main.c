#include <stdio.h>
#include <string.h>

#include "src/drift.h"
#include "stamp/version.h"

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("driftctl %s\n", DRIFTWOOD_VERSION);
        return 0;
    }
    for (size_t i = 0; drift_help(i); i++)
        puts(drift_help(i));
    printf("record: %zu bytes, crc32(\"drift\") = %08x\n", drift_record_size(), drift_crc32("drift", 5));
    return argc > 1;
}
