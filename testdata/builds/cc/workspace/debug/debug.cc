#include "debug/debug.h"

int Twice(int x) { return 2 * x; }
