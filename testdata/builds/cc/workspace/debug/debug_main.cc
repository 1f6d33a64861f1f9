#include <cstdio>

#include "debug/debug.h"

int main() {
  std::printf("%d\n", Twice(21));
  return 0;
}
