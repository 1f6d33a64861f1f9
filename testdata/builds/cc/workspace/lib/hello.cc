#include <iostream>

#include "lib/greet.h"

int main() {
  std::cout << Greeting("world") << std::endl;
  return 0;
}
