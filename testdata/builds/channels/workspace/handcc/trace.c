#include <stdio.h>

/* Logs where a message comes from. */
void trace(const char *message) {
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, message);
}
