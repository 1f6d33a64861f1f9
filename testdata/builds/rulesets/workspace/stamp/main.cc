#include <cstdio>

#include "stamp/buildinfo.h"

int main() {
  std::printf("ledger built at %s from %s\n", kBuildTimestamp, kBuildRevision);
  return 0;
}
